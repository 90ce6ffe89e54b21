/*
 * throughput.c - works queued and run per second.
 *
 * One round: PRODUCERS threads each queue WORKS works as fast as they can;
 * the clock runs from the moment they are let go until the last producer
 * has seen the last of its works run.  Each producer cycles through a
 * ring of RING works of its own and queues a work again only once its
 * routine has run (when it gets that far ahead it yields the CPU, counted
 * as a stall), so the queue stays bounded and what is measured is the
 * steady state, not a cold list of a million entries.  The routine is the
 * same on every stack: "empty" only marks its work done (the one store
 * its producer reads back), "small" first runs SMALL_STEPS rounds of
 * arithmetic on its work's data, a few tens of nanoseconds, as a short
 * real routine would.
 *
 *   throughput variant=schedule_work|queue_work|schedule_task|wfcqueue
 *              producers=1|2 works=N [routine=empty|small] [ring=1024] [pin=1|0]
 * prints {"bench":"throughput",...,"works_per_s":...,"cpu_ns_per_work":...,
 * "switches_per_1k_works":...,"vm_hwm_kb":...}; cpu_ns_per_work is the CPU
 * time of every thread of the process over the round (getrusage), per
 * work: less sensitive than the rate to other load on the machine; the
 * context switches (voluntary and not, every thread) tell how often a
 * worker went to sleep and had to be woken.  The reference also prints its
 * consumer's polling budget, spin_polls.
 *
 * Producer p is pinned to the p-th CPU the process may run on (pin=0: left
 * to the host's scheduler), on every stack alike.  Left alone, two
 * producers sometimes shared a CPU and sometimes not, from one round to
 * the next: the rate was bimodal on every stack, and which mode a median
 * fell in, not the queue, decided a ratio.  One producer per CPU is also
 * the case the per-CPU queues are for.
 */
#include "stack.h"
#include <pthread.h>
#include <sched.h>

#define SMALL_STEPS 32

struct slot {
	bench_work_t work;
	int done;
	uint64_t state; /* what the small routine works on */
} __attribute__((aligned(64)));

struct producer {
	pthread_t thread;
	struct slot *ring;
	long works;
	long stalls;
	uint64_t end_ns; /* when it saw the last of its works run */
} __attribute__((aligned(64)));

static long ring_size;
static struct bench_signal start;
static uint32_t start_seen;

static void empty_routine(void *data)
{
	struct slot *s = data;

	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

static void small_routine(void *data)
{
	struct slot *s = data;
	int i;

	for (i = 0; i < SMALL_STEPS; i++)
		bench_rand(&s->state);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

/* Wait, yielding the CPU, until @s's routine has run; counts a stall. */
static void wait_done(struct producer *p, struct slot *s)
{
	while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
		p->stalls++;
		sched_yield();
	}
}

/* The @n-th CPU of @allowed, round robin; -1 if there is none. */
static int nth_cpu(const cpu_set_t *allowed, int n)
{
	int count = CPU_COUNT(allowed), cpu;

	if (!count)
		return -1;
	n %= count;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, allowed) && n-- == 0)
			return cpu;
	return -1;
}

static void *producer_thread(void *arg)
{
	struct producer *p = arg;
	long i;

	bench_signal_wait(&start, start_seen);
	for (i = 0; i < p->works; i++) {
		struct slot *s = &p->ring[i % ring_size];

		wait_done(p, s);
		s->done = 0;
		if (!bench_queue(&s->work)) {
			fprintf(stderr,
				"throughput: a work that had run was still "
				"pending\n");
			exit(2);
		}
	}
	for (i = 0; i < ring_size; i++)
		wait_done(p, &p->ring[i]);
	p->end_ns = bench_now_ns();
	return NULL;
}

int main(int argc, char **argv)
{
	const char *variant =
		bench_arg(argc, argv, "variant", BENCH_DEFAULT_VARIANT);
	int nprod = bench_arg_long(argc, argv, "producers", 1);
	long works = bench_arg_long(argc, argv, "works", 200000);
	const char *routine = bench_arg(argc, argv, "routine", "empty");
	void (*fn)(void *) = !strcmp(routine, "small") ? small_routine :
							 empty_routine;
	struct producer prod[8];
	int pin = bench_arg_long(argc, argv, "pin", 1);
	cpu_set_t allowed;
	uint64_t t0, t1 = 0, cpu0, cpu1;
	long stalls = 0, total, i, sw0, sw1;
	int p;

	ring_size = bench_arg_long(argc, argv, "ring", 1024);
	if (nprod < 1 || nprod > 8 || works < 1 || ring_size < 1 ||
	    (strcmp(routine, "small") && strcmp(routine, "empty"))) {
		fprintf(stderr, "throughput: bad arguments\n");
		return 2;
	}
	if (bench_setup(variant)) {
		fprintf(stderr,
			"throughput: variant %s does not exist on the %s "
			"stack\n",
			variant, BENCH_STACK);
		return 2;
	}
	total = works * nprod;
	if (pin && sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("throughput: sched_getaffinity");
		return 2;
	}
	start_seen = bench_signal_read(&start);
	for (p = 0; p < nprod; p++) {
		prod[p].works = works;
		prod[p].stalls = 0;
		prod[p].ring =
			aligned_alloc(64, ring_size * sizeof(struct slot));
		if (!prod[p].ring) {
			perror("throughput: aligned_alloc");
			return 2;
		}
		for (i = 0; i < ring_size; i++) {
			bench_init_work(&prod[p].ring[i].work, fn,
					&prod[p].ring[i]);
			prod[p].ring[i].done = 1;
			prod[p].ring[i].state = i + 1;
		}
		pthread_create(&prod[p].thread, NULL, producer_thread,
			       &prod[p]);
		if (pin) {
			cpu_set_t one;

			CPU_ZERO(&one);
			CPU_SET(nth_cpu(&allowed, p), &one);
			if (pthread_setaffinity_np(prod[p].thread, sizeof(one),
						   &one)) {
				fprintf(stderr,
					"throughput: cannot pin producer %d\n",
					p);
				return 2;
			}
		}
	}
	/* let the producers reach the gate */
	bench_sleep_ns(20 * 1000 * 1000);

	cpu0 = bench_process_cpu_ns(&sw0);
	t0 = bench_now_ns();
	bench_signal_post(&start);
	for (p = 0; p < nprod; p++) {
		pthread_join(prod[p].thread, NULL);
		stalls += prod[p].stalls;
		if (prod[p].end_ns > t1)
			t1 = prod[p].end_ns;
	}
	cpu1 = bench_process_cpu_ns(&sw1);

	bench_teardown();
	for (p = 0; p < nprod; p++)
		free(prod[p].ring);

	printf("{\"bench\":\"throughput\",\"stack\":\"%s\",\"variant\":\"%s\","
	       "\"routine\":\"%s\",\"producers\":%d,\"works\":%ld,\"seconds\":%.6f,"
	       "\"works_per_s\":%.1f,\"cpu_ns_per_work\":%.1f,"
	       "\"switches_per_1k_works\":%.2f,\"stalls\":%ld,\"vm_hwm_kb\":%ld,"
	       "\"ring\":%ld,\"pinned\":%d",
	       BENCH_STACK, variant, routine, nprod, total, (t1 - t0) / 1e9,
	       total / ((t1 - t0) / 1e9), (double) (cpu1 - cpu0) / total,
	       (sw1 - sw0) * 1000.0 / total, stalls,
	       bench_proc_status_kb("VmHWM"), ring_size, pin);
#ifdef BENCH_REF_SPIN_POLLS
	printf(",\"spin_polls\":%d", BENCH_REF_SPIN_POLLS);
#endif
	printf("}\n");
	return 0;
}
