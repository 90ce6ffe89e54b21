/*
 * flood-workqueue.c - an example of your own code on the sandbox, on the workqueue.
 *
 * Two threads queue 100,000 works onto a workqueue of their own while one
 * work keeps requeueing itself and the main thread flushes; then the queue
 * is destroyed.  Every work must have run exactly once.
 *
 *   cc $(make -s cflags) examples/flood-workqueue.c $(make -s ldlibs) -o flood-workqueue
 */
#include <stdio.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <shim/test.h>

#define PER_THREAD 50000
#define REQUEUES 10000

static struct workqueue_struct *wq;
static struct work_struct works[2][PER_THREAD];
static int ran[2][PER_THREAD];
static struct work_struct self_work;
static int self_left = REQUEUES;

static void count_run(void *data)
{
	__atomic_add_fetch((int *) data, 1, __ATOMIC_RELAXED);
}

/* queues itself again until it has run REQUEUES times */
static void requeue_self(void *data)
{
	if (--self_left > 0)
		queue_work(wq, &self_work);
}

static void producer(void *arg)
{
	long t = (long) arg;
	int i;

	for (i = 0; i < PER_THREAD; i++) {
		INIT_WORK(&works[t][i], count_run, &ran[t][i]);
		queue_work(wq, &works[t][i]);
	}
}

int main(void)
{
	long before = shim_kmalloc_outstanding();
	struct shim_thread *thread[2];
	long t, wrong = 0;
	int i;

	wq = create_workqueue("flood");
	if (!wq)
		return 1;
	INIT_WORK(&self_work, requeue_self, NULL);
	queue_work(wq, &self_work);
	for (t = 0; t < 2; t++)
		thread[t] = shim_thread_start("producer", producer, (void *) t);
	flush_workqueue(wq); /* returns though the queue keeps refilling */
	for (t = 0; t < 2; t++)
		shim_thread_join(thread[t]);
	destroy_workqueue(wq); /* runs everything still queued */

	for (t = 0; t < 2; t++)
		for (i = 0; i < PER_THREAD; i++)
			wrong += ran[t][i] != 1;
	printf("flood: %d works queued, %ld ran other than once, %d self-requeues "
	       "left, %ld allocations leaked\n",
	       2 * PER_THREAD, wrong, self_left,
	       shim_kmalloc_outstanding() - before);
	return wrong || self_left || shim_kmalloc_outstanding() != before;
}
