/*
 * sched.c - the cost of a scheduling point of a controlled run, against a
 * bare futex hand-off between two host threads.
 *
 * Run under SHIM_SCHED (bench/run gives it pct:1): the controlled
 * scheduler runs the kernel threads one at a time, as fibers on one host
 * thread.  Two kernel threads call yield() in turn; with two runnable
 * tasks a yield always hands the CPU to the other one, so each call is
 * one whole scheduling point with a switch (lock, pick, save and restore
 * the thread's locals, the fiber switch).  That is what an explored
 * schedule pays at every point where it may change task.
 *
 * The hand-off it is held against: two pthreads, no shim, passing a turn
 * back and forth through one futex word, each sleeping in FUTEX_WAIT
 * until the other wakes it: the cheapest way two host threads can take
 * turns, and what the scheduler would pay if its tasks were threads.
 *
 * Batches alternate (points, hand-offs, points, ...) in one process so
 * the load of a shared machine falls on both alike; per-batch ns are
 * medians over the batches.
 *
 *   sched batches=B points=N
 * prints {"bench":"sched","ns_per_point":...,"ns_per_handoff":...,...}
 */
#include "stack.h"
#include <pthread.h>
#include <linux/completion.h>
#include <shim/test.h>

/* --- the controlled side: two kernel threads that yield to each other ---- */

static long points_each;
static struct completion yielder_done;

static int yielder(void *unused)
{
	long i;

	for (i = 0; i < points_each; i++)
		yield();
	complete(&yielder_done);
	return 0;
}

/* ns per point: both threads start, yield points_each times, end */
static double batch_points(void)
{
	uint64_t t0, t1;

	init_completion(&yielder_done);
	t0 = bench_now_ns();
	if (kernel_thread(yielder, NULL, 0) < 0 ||
	    kernel_thread(yielder, NULL, 0) < 0) {
		fprintf(stderr, "sched: kernel_thread failed\n");
		exit(2);
	}
	wait_for_completion(&yielder_done);
	wait_for_completion(&yielder_done);
	t1 = bench_now_ns();
	return (double) (t1 - t0) / (2.0 * points_each);
}

/* --- the bare hand-off: two pthreads, one futex word --------------------- */

static uint32_t turn; /* even: the first thread's turn; odd: the second's */
static long handoffs;

static void take_turns(uint32_t mine)
{
	long i;

	for (i = 0; i < handoffs; i += 2) {
		uint32_t t;

		while (((t = __atomic_load_n(&turn, __ATOMIC_ACQUIRE)) & 1) !=
		       mine)
			bench_futex_wait(&turn, t);
		__atomic_store_n(&turn, t + 1, __ATOMIC_RELEASE);
		bench_futex_wake(&turn, 1);
	}
}

static void *second_thread(void *unused)
{
	take_turns(1);
	return NULL;
}

/* ns per hand-off: the turn goes back and forth @handoffs times */
static double batch_handoffs(void)
{
	pthread_t other;
	uint64_t t0, t1;

	__atomic_store_n(&turn, 0, __ATOMIC_RELEASE);
	t0 = bench_now_ns();
	if (pthread_create(&other, NULL, second_thread, NULL)) {
		fprintf(stderr, "sched: pthread_create failed\n");
		exit(2);
	}
	take_turns(0);
	pthread_join(other, NULL);
	t1 = bench_now_ns();
	return (double) (t1 - t0) / (double) handoffs;
}

int main(int argc, char **argv)
{
	int batches = bench_arg_long(argc, argv, "batches", 9);
	double *pt, *ho, *ratio;
	int i;

	points_each = bench_arg_long(argc, argv, "points", 20000);
	handoffs = 2 * points_each;
	if (!shim_sched_is_controlled()) {
		fprintf(stderr, "sched: run it under SHIM_SCHED=pct:SEED\n");
		return 2;
	}
	pt = calloc(batches, sizeof(*pt));
	ho = calloc(batches, sizeof(*ho));
	ratio = calloc(batches, sizeof(*ratio));
	if (!pt || !ho || !ratio)
		return 2;
	/* warm up both: fiber stacks and thread stacks come from the allocator */
	batch_points();
	batch_handoffs();
	for (i = 0; i < batches; i++) {
		if (i & 1) {
			ho[i] = batch_handoffs();
			pt[i] = batch_points();
		} else {
			pt[i] = batch_points();
			ho[i] = batch_handoffs();
		}
		ratio[i] = pt[i] / ho[i];
	}
	printf("{\"bench\":\"sched\",\"batches\":%d,\"points\":%ld,"
	       "\"ns_per_point\":%.1f,\"ns_per_handoff\":%.1f,"
	       "\"ratio_point_to_handoff\":%.4f}\n",
	       batches, 2 * points_each, bench_median(pt, batches),
	       bench_median(ho, batches), bench_median(ratio, batches));
	return 0;
}
