#include <linux/tqueue.h>
#include <linux/spinlock.h>
#include <linux/tty.h>
#include "pollbox.h"

/*
 * The close takes its tasks off tq_timer by hand, under the task queues'
 * own lock: no workqueue equivalent is written for it, so the file stays
 * as it was, and says that its header, which converts, and it no longer
 * agree.
 */
static void pollbox_poll(void *data)
{
	struct pollbox_info *pi = data;

	pi->count++;
	queue_task(&pi->poll_tq, &tq_timer);
}

static void pollbox_retry(void *data)
{
	struct pollbox_info *pi = data;

	pi->count = 0;
}

void pollbox_open(struct pollbox_info *pi)
{
	INIT_LIST_HEAD(&pi->poll_tq.list);
	pi->poll_tq.sync = 0;
	pi->poll_tq.routine = pollbox_poll;
	pi->poll_tq.data = pi;
	INIT_LIST_HEAD(&pi->retry_tq.list);
	pi->retry_tq.sync = 0;
	pi->retry_tq.routine = pollbox_retry;
	pi->retry_tq.data = pi;
	queue_task(&pi->poll_tq, &tq_timer);
}

void pollbox_close(struct pollbox_info *pi)
{
	unsigned long flags;

	spin_lock_irqsave(&tqueue_lock, flags);
	if (pi->poll_tq.sync)
		list_del(&pi->poll_tq.list);
	if (pi->retry_tq.sync)
		list_del(&pi->retry_tq.list);
	spin_unlock_irqrestore(&tqueue_lock, flags);
}
