/*
 * flush.c - flush_workqueue() while two threads keep refilling the queue.
 *
 * Two producer threads keep up to RING works each queued on a workqueue of
 * its own (sleeping 100 us when all of theirs are still queued); each
 * routine busies its worker for WORK_US.  Once the queue is
 * in steady state the main thread flushes it, in one of two ways:
 *   mode=ours   flush_workqueue(), which waits for what was queued before
 *               the call and nothing more;
 *   mode=seed   the 2.5.39-D6 patch's loop, on the same queue, written with
 *               the public API and a count of works queued but not yet
 *               started (what its list_empty(&wq->worklist) looked at):
 *                   while (pending) { queue a barrier work; wait for it; }
 *               given up after LIMIT_MS, as it never returns while the
 *               queue is refilled faster than it drains.
 * The producers stop once the flush has returned (or been given up).
 *
 *   flush mode=ours|seed limit_ms=2000 work_us=20 ring=1024
 * prints {"bench":"flush",...,"returned":0|1,"flush_ms":...}
 */
#include "stack.h"
#include <linux/completion.h>
#include <pthread.h>

#ifndef BENCH_STACK_WORKQUEUE
#error "flush measures the workqueue's flush_workqueue()"
#endif

#define NR_PRODUCERS 2

struct slot {
	struct work_struct work;
	int done;
} __attribute__((aligned(64)));

static struct workqueue_struct *wq;
static long pending; /* queued, routine not started */
static long ran;
static long work_ns = 20000;
static int stop;

static void busy_routine(void *data)
{
	struct slot *s = data;
	uint64_t end;

	__atomic_sub_fetch(&pending, 1, __ATOMIC_SEQ_CST);
	end = bench_now_ns() + work_ns;
	while (bench_now_ns() < end)
		;
	__atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

static long ring_size = 1024;

static void *producer(void *unused)
{
	struct slot *ring = aligned_alloc(64, ring_size * sizeof(*ring));
	long i;

	if (!ring)
		exit(2);
	for (i = 0; i < ring_size; i++) {
		INIT_WORK(&ring[i].work, busy_routine, &ring[i]);
		ring[i].done = 1;
	}
	for (i = 0; !__atomic_load_n(&stop, __ATOMIC_ACQUIRE);
	     i = (i + 1) % ring_size) {
		struct slot *s = &ring[i];

		/* sleep, not yield: the workers share the producers' CPUs */
		while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) &&
		       !__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
			bench_sleep_ns(100000);
		if (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
			break;
		s->done = 0;
		__atomic_add_fetch(&pending, 1, __ATOMIC_SEQ_CST);
		queue_work(wq, &s->work);
	}
	/* wait for ours to have run before the ring goes */
	for (i = 0; i < ring_size; i++)
		while (!__atomic_load_n(&ring[i].done, __ATOMIC_ACQUIRE))
			bench_sleep_ns(100000);
	free(ring);
	return NULL;
}

static void barrier_routine(void *data)
{
	__atomic_sub_fetch(&pending, 1, __ATOMIC_SEQ_CST);
	complete(data);
}

/* The seed's flush loop, over the pending count; 1 if it returned. */
static int seed_flush(uint64_t deadline, long *barriers)
{
	struct work_struct barrier;
	struct completion done;

	while (__atomic_load_n(&pending, __ATOMIC_SEQ_CST) > 0) {
		if (bench_now_ns() > deadline)
			return 0;
		INIT_WORK(&barrier, barrier_routine, &done);
		init_completion(&done);
		__atomic_add_fetch(&pending, 1, __ATOMIC_SEQ_CST);
		queue_work(wq, &barrier);
		wait_for_completion(&done);
		(*barriers)++;
	}
	return 1;
}

int main(int argc, char **argv)
{
	const char *mode = bench_arg(argc, argv, "mode", "ours");
	long limit_ms = bench_arg_long(argc, argv, "limit_ms", 2000);
	pthread_t thread[NR_PRODUCERS];
	long barriers = 0, ran_before, pending_at_start;
	uint64_t t0, t1;
	int returned = 1, i;

	work_ns = bench_arg_long(argc, argv, "work_us", 20) * 1000;
	ring_size = bench_arg_long(argc, argv, "ring", 1024);
	if (strcmp(mode, "ours") && strcmp(mode, "seed"))
		return 2;
	wq = create_workqueue("refill");
	if (!wq)
		return 2;
	for (i = 0; i < NR_PRODUCERS; i++)
		pthread_create(&thread[i], NULL, producer, NULL);
	bench_sleep_ns(100 * 1000000ULL); /* steady state */

	pending_at_start = __atomic_load_n(&pending, __ATOMIC_SEQ_CST);
	ran_before = __atomic_load_n(&ran, __ATOMIC_RELAXED);
	t0 = bench_now_ns();
	if (!strcmp(mode, "ours"))
		flush_workqueue(wq);
	else
		returned = seed_flush(t0 + limit_ms * 1000000ULL, &barriers);
	t1 = bench_now_ns();
	ran_before = __atomic_load_n(&ran, __ATOMIC_RELAXED) - ran_before;

	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < NR_PRODUCERS; i++)
		pthread_join(thread[i], NULL);
	destroy_workqueue(wq);

	printf("{\"bench\":\"flush\",\"stack\":\"%s\",\"mode\":\"%s\","
	       "\"returned\":%d,\"flush_ms\":%.3f,\"limit_ms\":%ld,"
	       "\"pending_at_start\":%ld,\"works_run_meanwhile\":%ld,"
	       "\"barriers\":%ld,\"work_us\":%ld}\n",
	       BENCH_STACK, mode, returned, (t1 - t0) / 1e6, limit_ms,
	       pending_at_start, ran_before, barriers, work_ns / 1000);
	return 0;
}
