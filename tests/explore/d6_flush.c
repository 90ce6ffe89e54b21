/*
 * d6_flush.c - the flush of the 2.5.39-D6 patch against ours.
 *
 * D6's flush_workqueue() queued a barrier and waited for it for as long as
 * the queue's list was not empty; a work that queues itself again keeps the
 * list from ever being empty, so the flush never returns.  Ours waits for
 * what was queued before the call only.  Emulated with the public API: the
 * list is "works queued and not started yet", counted by the works.
 *
 *   d6_flush seed   the D6 loop: never returns (a livelock the shim reports)
 *   d6_flush ours   flush_workqueue(): returns under every schedule
 */
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <shim/test.h>

static struct workqueue_struct *wq;
static struct work_struct again;
static atomic_t not_started = ATOMIC_INIT(0);
static int stop;

static void queue_counted(struct work_struct *work)
{
	if (queue_work(wq, work))
		atomic_inc(&not_started);
}

/* a work that queues itself again until told to stop */
static void requeue_self(void *unused)
{
	atomic_dec(&not_started);
	if (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
		queue_counted(&again);
}

static void flush_done(void *done)
{
	atomic_dec(&not_started);
	complete(done);
}

/* D6: "while (!list_empty(&wq->worklist)) { queue a barrier; wait for it }" */
static void d6_flush_workqueue(void)
{
	struct completion done;
	struct work_struct barrier;

	while (atomic_read(&not_started) > 0) {
		INIT_WORK(&barrier, flush_done, &done);
		init_completion(&done);
		queue_counted(&barrier);
		wait_for_completion(&done);
	}
}

int main(int argc, char **argv)
{
	int seed = argc > 1 && !strcmp(argv[1], "seed");

	if (argc != 2 || (!seed && strcmp(argv[1], "ours"))) {
		fprintf(stderr, "usage: %s seed|ours\n", argv[0]);
		return 2;
	}
	wq = create_workqueue("flushme");
	if (!wq)
		return 1;
	INIT_WORK(&again, requeue_self, NULL);
	queue_counted(&again);
	if (seed)
		d6_flush_workqueue();
	else
		flush_workqueue(wq);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	destroy_workqueue(wq);
	printf("d6_flush %s: the flush returned\n", argv[1]);
	return 0;
}
