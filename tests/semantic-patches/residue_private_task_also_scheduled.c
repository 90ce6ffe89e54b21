#include <linux/tqueue.h>

/*
 * A task queued on a private queue and handed to keventd as well: it
 * must stay a struct tq_struct for the one, and schedule_task() is gone
 * with the other.  Reported, for a hand conversion.
 */
static DECLARE_TASK_QUEUE(tq_ring);

struct ring { struct tq_struct tq; };

static void ring_kick(struct ring *r, int now)
{
	if (now)
		schedule_task(&r->tq);
	else
		queue_task(&r->tq, &tq_ring);
}

static void ring_run(void)
{
	run_task_queue(&tq_ring);
}
