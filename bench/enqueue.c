/*
 * enqueue.c - what one queueing costs the caller while the worker is busy.
 *
 * A blocker work is queued first; its routine tells it has started and then
 * waits (a futex) until it is released, so the worker stays busy and every
 * later queueing only inserts: no wake-up.  The caller is pinned to one CPU
 * for the round, so that on the workqueue all of its works go to the worker
 * the blocker occupies.  BATCHES batches of BATCH distinct works are timed,
 * each followed by a batch of as many uncontended pthread mutex
 * lock+unlock pairs: the figure is the median batch, in ns per call, with
 * the mutex measured side by side in the same process.  With reuse=1 every
 * work has been queued and run once before (a driver's work usually has):
 * the workqueue then also looks at the cpu queue the work last ran on.
 * Then the blocker is released and the worker runs what piled up, with
 * nothing queued meanwhile and no reason to sleep, while the caller waits
 * asleep: the process's CPU time from the release to the last routine,
 * per work, is the worker's side of a work.
 *
 *   enqueue variant=... batches=N batch=N [reuse=1]
 * prints {"bench":"enqueue",...,"ns_per_queue":...,"ns_per_mutex":...,
 * "ns_per_run":...}
 */
#include "stack.h"
#include <pthread.h>
#include <sched.h>

static struct bench_signal blocker_started, blocker_release, all_ran;
static uint32_t release_seen;
static long ran, total;

static void blocker_routine(void *data)
{
	bench_signal_post(&blocker_started);
	bench_signal_wait(&blocker_release, release_seen);
}

static void count_routine(void *data)
{
	if (__atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED) == total)
		bench_signal_post(&all_ran);
}

/* Pin the caller to the first CPU it may run on. */
static void pin_self(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			break;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	const char *variant =
		bench_arg(argc, argv, "variant", BENCH_DEFAULT_VARIANT);
	int batches = bench_arg_long(argc, argv, "batches", 20);
	long batch = bench_arg_long(argc, argv, "batch", 5000);
	pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
	static bench_work_t blocker;
	bench_work_t *works;
	double *q_ns, *m_ns, q_med, m_med, run_ns;
	uint64_t cpu0;
	uint32_t seen;
	long i;
	int b;

	if (batches < 1 || batch < 1)
		return 2;
	pin_self();
	if (bench_setup(variant)) {
		fprintf(stderr,
			"enqueue: variant %s does not exist on the %s stack\n",
			variant, BENCH_STACK);
		return 2;
	}
	total = batches * batch;
	works = calloc(total, sizeof(*works));
	q_ns = calloc(batches, sizeof(*q_ns));
	m_ns = calloc(batches, sizeof(*m_ns));
	if (!works || !q_ns || !m_ns)
		return 2;
	for (i = 0; i < total; i++)
		bench_init_work(&works[i], count_routine, NULL);
	bench_init_work(&blocker, blocker_routine, NULL);
	if (bench_arg_long(argc, argv, "reuse", 0)) {
		for (i = 0; i < total; i++)
			bench_queue(&works[i]);
		while (__atomic_load_n(&ran, __ATOMIC_ACQUIRE) < total)
			bench_sleep_ns(1000000);
		__atomic_store_n(&ran, 0, __ATOMIC_RELEASE);
	}

	release_seen = bench_signal_read(&blocker_release);
	seen = bench_signal_read(&blocker_started);
	bench_queue(&blocker);
	bench_signal_wait(&blocker_started, seen);
	/* the worker is now inside the blocker: queueing only inserts */

	for (b = 0; b < batches; b++) {
		bench_work_t *w = &works[b * batch];
		uint64_t t0, t1, t2;

		t0 = bench_now_ns();
		for (i = 0; i < batch; i++)
			bench_queue(&w[i]);
		t1 = bench_now_ns();
		for (i = 0; i < batch; i++) {
			pthread_mutex_lock(&mutex);
			pthread_mutex_unlock(&mutex);
		}
		t2 = bench_now_ns();
		q_ns[b] = (double) (t1 - t0) / batch;
		m_ns[b] = (double) (t2 - t1) / batch;
	}

	seen = bench_signal_read(&all_ran);
	cpu0 = bench_process_cpu_ns(NULL);
	bench_signal_post(&blocker_release);
	bench_signal_wait(&all_ran, seen);
	run_ns = (double) (bench_process_cpu_ns(NULL) - cpu0) / total;
	bench_teardown();

	q_med = bench_median(q_ns, batches);
	m_med = bench_median(m_ns, batches);
	printf("{\"bench\":\"enqueue\",\"stack\":\"%s\",\"variant\":\"%s\","
	       "\"calls\":%ld,\"ns_per_queue\":%.2f,\"ns_per_queue_min\":%.2f,"
	       "\"ns_per_mutex\":%.2f,\"ratio_to_mutex\":%.3f,\"ns_per_run\":%.2f}\n",
	       BENCH_STACK, variant, total, q_med, q_ns[0], m_med,
	       q_med / m_med, run_ns);
	return 0;
}
