/*
 * stress-taskqueue.c - the task queue under load.
 *
 * Producers schedule tasks from a pool on keventd, some tasks re-add
 * themselves, tasks also go through a private task queue run by a thread
 * of the test, and two threads flush all the time.  Every accepted
 * scheduling is counted: at the end each ran exactly once, no task ran
 * concurrently with itself, every flush covered what was scheduled before
 * it, and nothing leaked.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/tqueue.h>
#include <shim/test.h>
#include "stress.h"

#define NR_PRODUCERS 3
#define POOL 512
#define ROUNDS 40000
#define MAX_REQUEUES 50

struct item {
	struct tq_struct tq;
	int requeues;
	long accepted;
	long ran;
	int inside;
	int max_inside;
};

static struct item pool[POOL];
static struct item private[POOL];
static DECLARE_TASK_QUEUE(tq_private);
static double deadline;
static int stop;
static long flushes, flush_misses;

static void item_run(void *data)
{
	struct item *it = data;
	int in = __atomic_add_fetch(&it->inside, 1, __ATOMIC_SEQ_CST);

	if (in > __atomic_load_n(&it->max_inside, __ATOMIC_RELAXED))
		__atomic_store_n(&it->max_inside, in, __ATOMIC_RELAXED);
	if (it->requeues > 0) {
		it->requeues--;
		/* sync was cleared before we ran: this must be accepted */
		if (schedule_task(&it->tq))
			__atomic_add_fetch(&it->accepted, 1, __ATOMIC_SEQ_CST);
	}
	__atomic_sub_fetch(&it->inside, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&it->ran, 1, __ATOMIC_SEQ_CST);
}

static void private_run(void *data)
{
	struct item *it = data;

	__atomic_add_fetch(&it->ran, 1, __ATOMIC_SEQ_CST);
}

static void producer(void *arg)
{
	unsigned int seed = (unsigned int) (long) arg * 104729u + 3;
	int i;

	for (i = 0; i < stress_rounds(ROUNDS) && stress_now() < deadline; i++) {
		unsigned int r = stress_rand(&seed);
		struct item *it = &pool[(r >> 4) % POOL];

		if ((r >> 12) % 16 == 0) {
			it = &private[(r >> 4) % POOL];
			if (queue_task(&it->tq, &tq_private))
				__atomic_add_fetch(&it->accepted, 1,
						   __ATOMIC_SEQ_CST);
			continue;
		}
		if (schedule_task(&it->tq))
			__atomic_add_fetch(&it->accepted, 1, __ATOMIC_SEQ_CST);
		if ((r >> 8) % 8 == 0)
			yield();
	}
}

/* scheduled (and self-re-added) tasks that have not run yet */
static long pool_pending(void)
{
	long n = 0;
	int i;

	for (i = 0; i < POOL; i++)
		n += __atomic_load_n(&pool[i].accepted, __ATOMIC_SEQ_CST) -
		     __atomic_load_n(&pool[i].ran, __ATOMIC_SEQ_CST);
	return n;
}

static void flusher(void *arg)
{
	long snap[POOL];
	int i;

	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		for (i = 0; i < POOL; i++)
			snap[i] = __atomic_load_n(&pool[i].accepted,
						  __ATOMIC_SEQ_CST);
		flush_scheduled_tasks();
		for (i = 0; i < POOL; i++)
			if (__atomic_load_n(&pool[i].ran, __ATOMIC_SEQ_CST) <
			    snap[i])
				__atomic_add_fetch(&flush_misses, 1,
						   __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&flushes, 1, __ATOMIC_SEQ_CST);
	}
}

/* runs the private queue in its own (process) context, as a driver would */
static void runner(void *arg)
{
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
		run_task_queue(&tq_private);
}

int main(void)
{
	struct shim_thread *prod[NR_PRODUCERS], *flush[2], *run;
	long before = shim_kmalloc_outstanding();
	long accepted = 0, ran = 0, wrong = 0, concurrent = 0;
	int i, k, final;

	deadline = stress_deadline(20);
	for (i = 0; i < POOL; i++) {
		pool[i].requeues = i % 4 == 0 ? MAX_REQUEUES : 0;
		INIT_TQUEUE(&pool[i].tq, item_run, &pool[i]);
		INIT_TQUEUE(&private[i].tq, private_run, &private[i]);
	}
	for (i = 0; i < NR_PRODUCERS; i++)
		prod[i] = shim_thread_start("producer", producer,
					    (void *) (long) i);
	for (i = 0; i < 2; i++)
		flush[i] = shim_thread_start("flusher", flusher, NULL);
	run = shim_thread_start("runner", runner, NULL);

	for (i = 0; i < NR_PRODUCERS; i++)
		shim_thread_join(prod[i]);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 2; i++)
		shim_thread_join(flush[i]);
	shim_thread_join(run);
	run_task_queue(&tq_private);
	/*
	 * flush_scheduled_tasks() does not wait for a task that re-adds
	 * itself while it runs (2.4 keventd never did), so when the deadline
	 * stops the producers mid-chain, one flush leaves chains in flight.
	 * Each flush retires at least one link of every chain, and a chain is
	 * at most MAX_REQUEUES + 1 long: more flushes than that means a
	 * scheduling was lost, which the count below then reports.
	 */
	final = 0;
	do
		flush_scheduled_tasks();
	while (++final < MAX_REQUEUES + 2 && pool_pending());

	for (k = 0; k < 2; k++) {
		for (i = 0; i < POOL; i++) {
			struct item *it = k ? &private[i] : &pool[i];

			accepted += it->accepted;
			ran += it->ran;
			wrong += it->accepted != it->ran;
			concurrent += it->max_inside > 1;
		}
	}
	CHECK(accepted > 0, "some tasks were scheduled");
	CHECK(wrong == 0,
	      "every accepted scheduling ran exactly once (%ld tasks "
	      "ran other than accepted: %ld accepted, %ld ran)",
	      wrong, accepted, ran);
	CHECK(concurrent == 0, "no task ran concurrently with itself (%ld did)",
	      concurrent);
	CHECK(flushes > 0 && flush_misses == 0,
	      "every flush covered what was "
	      "scheduled before it (%ld flushes, %ld misses)",
	      flushes, flush_misses);
	CHECK(shim_kmalloc_outstanding() == before,
	      "nothing leaked (%ld "
	      "allocations outstanding)",
	      shim_kmalloc_outstanding() - before);
	printf("stress-taskqueue: %ld schedulings accepted, %ld runs, %ld flushes "
	       "(%d at the end)\n",
	       accepted, ran, flushes, final);
	return stress_finish("stress-taskqueue");
}
