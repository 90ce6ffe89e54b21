/*
 * isolation.c - latency of tty-flip-like work while journal commits sleep.
 *
 * The main thread plays the serial interrupt: every PERIOD_US it queues
 * the tty work (a short routine that does not sleep) unless it is still
 * pending, as tty_flip_buffer_push() does, and the routine records how
 * long it waited from the queueing to its start.  Meanwhile a committer
 * thread queues a reiserfs-commit-like work every COMMIT_MS, whose routine
 * sleeps schedule_timeout(COMMIT_JIFFIES) in real clock mode, as a journal
 * commit waiting for its blocks does.
 *
 * taskqueue: both go to keventd with schedule_task(), as 2.5.39 had it.
 * workqueue: the tty work goes to "events" with schedule_work(), the
 * commits to a workqueue of their own, "reiserfs", as the seed patch does.
 *
 *   isolation seconds=S period_us=N commit_ms=N commit_jiffies=N out=FILE
 * prints {"bench":"isolation",...,"p50_ns":...,"p99_ns":...,"commits":...}
 */
#include "stack.h"
#include <pthread.h>

#define NR_COMMITS 16

static bench_work_t tty_work;
static uint64_t tty_queued_at;
static int tty_in_flight;
static struct bench_samples lat;

static struct {
	bench_work_t work;
	int busy;
} commits[NR_COMMITS];
static long commit_jiffies = 5;
static long commits_done;
static int stop;

#ifdef BENCH_STACK_WORKQUEUE
static struct workqueue_struct *commit_wq;
#define queue_tty(w) schedule_work(w)
#define queue_commit(w) queue_work(commit_wq, (w))
#define STACK_HOW "tty: schedule_work (events); commits: queue_work (reiserfs)"
#elif defined(BENCH_STACK_TASKQUEUE)
#define queue_tty(w) schedule_task(w)
#define queue_commit(w) schedule_task(w)
#define STACK_HOW "tty and commits: schedule_task (keventd)"
#else
#error "isolation runs on the workqueue or the taskqueue"
#endif

static void flush_to_ldisc(void *data)
{
	uint64_t now = bench_now_ns();

	bench_samples_add(&lat, now - tty_queued_at);
	__atomic_store_n(&tty_in_flight, 0, __ATOMIC_RELEASE);
}

static void journal_commit(void *data)
{
	int *busy = data;

	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_timeout(commit_jiffies);
	__atomic_add_fetch(&commits_done, 1, __ATOMIC_RELAXED);
	__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
}

static void *committer(void *arg)
{
	uint64_t period = *(long *) arg * 1000000ULL;
	uint64_t next = bench_now_ns();
	int i = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		next += period;
		bench_sleep_until(next);
		if (__atomic_load_n(&commits[i].busy, __ATOMIC_ACQUIRE))
			continue; /* all NR_COMMITS still busy: skip one */
		commits[i].busy = 1;
		queue_commit(&commits[i].work);
		i = (i + 1) % NR_COMMITS;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double seconds = bench_arg_double(argc, argv, "seconds", 2.0);
	long period_us = bench_arg_long(argc, argv, "period_us", 1000);
	long commit_ms = bench_arg_long(argc, argv, "commit_ms", 10);
	long queued = 0, coalesced = 0, i;
	uint64_t next, end;
	pthread_t thread;

	commit_jiffies = bench_arg_long(argc, argv, "commit_jiffies", 5);
	bench_samples_init(&lat, (size_t) (seconds * 1e6 / period_us) + 16);
#ifdef BENCH_STACK_WORKQUEUE
	commit_wq = create_workqueue("reiserfs");
	if (!commit_wq)
		return 2;
	INIT_WORK(&tty_work, flush_to_ldisc, NULL);
	for (i = 0; i < NR_COMMITS; i++)
		INIT_WORK(&commits[i].work, journal_commit, &commits[i].busy);
#else
	INIT_TQUEUE(&tty_work, flush_to_ldisc, NULL);
	for (i = 0; i < NR_COMMITS; i++)
		INIT_TQUEUE(&commits[i].work, journal_commit, &commits[i].busy);
#endif
	pthread_create(&thread, NULL, committer, &commit_ms);

	/* let the commits get going before the first sample */
	next = bench_now_ns() + 20 * 1000000ULL;
	end = next + (uint64_t) (seconds * 1e9);
	while (next < end) {
		bench_sleep_until(next);
		next += period_us * 1000ULL;
		if (__atomic_load_n(&tty_in_flight, __ATOMIC_ACQUIRE)) {
			coalesced++; /* still pending: the push adds nothing */
			continue;
		}
		tty_in_flight = 1;
		tty_queued_at = bench_now_ns();
		queue_tty(&tty_work);
		queued++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	while (__atomic_load_n(&tty_in_flight, __ATOMIC_ACQUIRE))
		bench_sleep_ns(1000000);
#ifdef BENCH_STACK_WORKQUEUE
	flush_scheduled_work();
	destroy_workqueue(commit_wq);
#else
	flush_scheduled_tasks();
#endif

	bench_samples_write(&lat, bench_arg(argc, argv, "out", NULL));
	printf("{\"bench\":\"isolation\",\"stack\":\"%s\",\"how\":\"%s\","
	       "\"samples\":%zu,\"p50_ns\":%llu,\"p99_ns\":%llu,\"max_ns\":%llu,"
	       "\"tty_queued\":%ld,\"tty_coalesced\":%ld,\"commits\":%ld,"
	       "\"commit_jiffies\":%ld,\"commit_ms\":%ld,\"period_us\":%ld}\n",
	       BENCH_STACK, STACK_HOW, lat.n,
	       (unsigned long long) bench_quantile(&lat, 0.5),
	       (unsigned long long) bench_quantile(&lat, 0.99),
	       (unsigned long long) bench_quantile(&lat, 1.0), queued,
	       coalesced, commits_done, commit_jiffies, commit_ms, period_us);
	return 0;
}
