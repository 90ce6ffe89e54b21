/*
 * stress-workqueue.c - the workqueue under load.
 *
 * Producers queue works from per-queue pools onto three queues, some works
 * requeue themselves, some go through queue_delayed_work, two threads
 * flush all the time, and a churn thread creates and destroys queues of
 * its own meanwhile.  Every accepted queueing is counted; at the end each
 * must have run exactly once, no work of the non-reentrant queue (queue 0,
 * WQ_NON_REENTRANT) may have run concurrently with itself, every flush
 * must have covered what was queued before it, and nothing may have
 * leaked.  The other queues have 2.5.41's semantics, where a work queued
 * from another CPU while it runs may run there at once: how often that
 * was seen is printed, not checked.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <shim/test.h>
#include "stress.h"

#define NR_QUEUES 3
#define NR_PRODUCERS 3
#define POOL 256     /* works per queue */
#define ROUNDS 40000 /* queueings per producer at most */
#define CHURN_ROUNDS 60

struct item {
	struct work_struct work;
	int queue;
	int requeues;  /* still to do by itself (it may run twice at once) */
	long accepted; /* queueings that returned 1 */
	long ran;      /* routine returns */
	int inside;    /* routines running now */
	int max_inside;
};

static struct workqueue_struct *queues[NR_QUEUES];
static struct item pool[NR_QUEUES][POOL];
static struct item delayed[POOL];
static double deadline;
static int stop;
static long flushes, flush_misses, churned, churn_misses;

static void item_run(void *data)
{
	struct item *it = data;
	int in = __atomic_add_fetch(&it->inside, 1, __ATOMIC_SEQ_CST);

	if (in > __atomic_load_n(&it->max_inside, __ATOMIC_RELAXED))
		__atomic_store_n(&it->max_inside, in, __ATOMIC_RELAXED);
	if (__atomic_fetch_sub(&it->requeues, 1, __ATOMIC_SEQ_CST) > 0) {
		/* pending was cleared before we ran: this must be accepted */
		if (queue_work(queues[it->queue], &it->work))
			__atomic_add_fetch(&it->accepted, 1, __ATOMIC_SEQ_CST);
	}
	__atomic_sub_fetch(&it->inside, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&it->ran, 1, __ATOMIC_SEQ_CST);
}

static void producer(void *arg)
{
	unsigned int seed = (unsigned int) (long) arg * 7919u + 1;
	int i;

	for (i = 0; i < stress_rounds(ROUNDS) && stress_now() < deadline; i++) {
		unsigned int r = stress_rand(&seed);
		int q = r % NR_QUEUES;
		struct item *it = &pool[q][(r >> 4) % POOL];

		if ((r >> 12) % 64 == 0) {
			it = &delayed[(r >> 4) % POOL];
			if (queue_delayed_work(queues[it->queue], &it->work,
					       1 + (r >> 20) % 3))
				__atomic_add_fetch(&it->accepted, 1,
						   __ATOMIC_SEQ_CST);
			continue;
		}
		if (queue_work(queues[q], &it->work))
			__atomic_add_fetch(&it->accepted, 1, __ATOMIC_SEQ_CST);
		if ((r >> 8) % 8 == 0)
			yield();
	}
}

/* Each flush must see every queueing accepted before it has run. */
static void flusher(void *arg)
{
	long snap[POOL];
	int q = (int) (long) arg, i, n = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		for (i = 0; i < POOL; i++)
			snap[i] = __atomic_load_n(&pool[q][i].accepted,
						  __ATOMIC_SEQ_CST);
		flush_workqueue(queues[q]);
		for (i = 0; i < POOL; i++)
			if (__atomic_load_n(&pool[q][i].ran, __ATOMIC_SEQ_CST) <
			    snap[i])
				__atomic_add_fetch(&flush_misses, 1,
						   __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&flushes, 1, __ATOMIC_SEQ_CST);
		q = (q + 1 + n++) % NR_QUEUES;
	}
}

static int churn_ran;

static void churn_run(void *data)
{
	__atomic_add_fetch(&churn_ran, 1, __ATOMIC_SEQ_CST);
}

/* Queues created and destroyed while the others run. */
static void churner(void *arg)
{
	struct work_struct works[16];
	int round, i;

	for (round = 0;
	     round < stress_rounds(CHURN_ROUNDS) && stress_now() < deadline;
	     round++) {
		struct workqueue_struct *wq = create_workqueue("churn");

		if (!wq) {
			__atomic_add_fetch(&churn_misses, 1, __ATOMIC_SEQ_CST);
			continue;
		}
		__atomic_store_n(&churn_ran, 0, __ATOMIC_SEQ_CST);
		for (i = 0; i < 16; i++) {
			INIT_WORK(&works[i], churn_run, NULL);
			queue_work(wq, &works[i]);
		}
		destroy_workqueue(wq);
		if (__atomic_load_n(&churn_ran, __ATOMIC_SEQ_CST) != 16)
			__atomic_add_fetch(&churn_misses, 1, __ATOMIC_SEQ_CST);
		churned++;
	}
}

int main(void)
{
	struct shim_thread *prod[NR_PRODUCERS], *flush[2], *churn;
	long before = shim_kmalloc_outstanding();
	int threads_before = shim_kthreads_running();
	long accepted = 0, ran = 0, wrong = 0, concurrent = 0,
	     concurrent_2541 = 0;
	int q, i;

	deadline = stress_deadline(20);
	for (q = 0; q < NR_QUEUES; q++) {
		char name[8];

		snprintf(name, sizeof(name), "stress%d", q);
		queues[q] = q ? create_workqueue(name) :
				alloc_workqueue(name, WQ_NON_REENTRANT, 0);
		CHECK(queues[q], "create_workqueue(%s)", name);
		for (i = 0; i < POOL; i++) {
			pool[q][i].queue = q;
			pool[q][i].requeues = i % 4 == 0 ? 50 : 0;
			INIT_WORK(&pool[q][i].work, item_run, &pool[q][i]);
		}
	}
	for (i = 0; i < POOL; i++) {
		delayed[i].queue = i % NR_QUEUES;
		INIT_WORK(&delayed[i].work, item_run, &delayed[i]);
	}

	for (i = 0; i < NR_PRODUCERS; i++)
		prod[i] = shim_thread_start("producer", producer,
					    (void *) (long) i);
	for (i = 0; i < 2; i++)
		flush[i] = shim_thread_start("flusher", flusher,
					     (void *) (long) i);
	churn = shim_thread_start("churner", churner, NULL);

	for (i = 0; i < NR_PRODUCERS; i++)
		shim_thread_join(prod[i]);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 2; i++)
		shim_thread_join(flush[i]);
	shim_thread_join(churn);

	/*
	 * Delayed works whose timer has not fired yet: wait for them (the
	 * bound only ends a hang; on a loaded machine ksoftirqd may be slow
	 * to fire them, and destroy_workqueue would then cancel them).
	 */
	for (i = 0; i < POOL; i++) {
		int ticks = 30 * HZ;

		while (ticks-- > 0 &&
		       __atomic_load_n(&delayed[i].ran, __ATOMIC_SEQ_CST) <
			       __atomic_load_n(&delayed[i].accepted,
					       __ATOMIC_SEQ_CST)) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			schedule_timeout(1);
		}
	}
	for (q = 0; q < NR_QUEUES; q++)
		destroy_workqueue(queues[q]);

	for (q = 0; q <= NR_QUEUES; q++) {
		for (i = 0; i < POOL; i++) {
			struct item *it = q < NR_QUEUES ? &pool[q][i] :
							  &delayed[i];

			accepted += it->accepted;
			ran += it->ran;
			wrong += it->accepted != it->ran;
			if (it->queue == 0)
				concurrent += it->max_inside > 1;
			else
				concurrent_2541 += it->max_inside > 1;
		}
	}
	CHECK(accepted > 0, "some work was queued");
	CHECK(wrong == 0,
	      "every accepted queueing ran exactly once "
	      "(%ld works ran other than accepted: %ld accepted, %ld ran)",
	      wrong, accepted, ran);
	CHECK(concurrent == 0,
	      "no work of the non-reentrant queue ran "
	      "concurrently with itself (%ld did)",
	      concurrent);
	CHECK(flushes > 0 && flush_misses == 0,
	      "every flush covered what was "
	      "queued before it (%ld flushes, %ld misses)",
	      flushes, flush_misses);
	CHECK(churned > 0 && churn_misses == 0,
	      "created and destroyed queues "
	      "ran all their work (%ld queues, %ld misses)",
	      churned, churn_misses);
	CHECK(shim_kmalloc_outstanding() == before,
	      "nothing leaked (%ld "
	      "allocations outstanding)",
	      shim_kmalloc_outstanding() - before);
	CHECK(shim_kthreads_running() == threads_before,
	      "every worker thread "
	      "stopped (%d left)",
	      shim_kthreads_running() - threads_before);
	printf("stress-workqueue: %ld queueings accepted, %ld runs, %ld flushes, "
	       "%ld queues churned, %ld works of 2.5.41 queues ran concurrently "
	       "with themselves\n",
	       accepted, ran, flushes, churned, concurrent_2541);
	return stress_finish("stress-workqueue");
}
