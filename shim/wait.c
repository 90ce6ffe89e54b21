/*
 * wait.c - wait queues.
 *
 * A waiter puts itself on the queue, marks itself sleeping, tests its
 * condition and only then calls schedule(); wakers change the condition and
 * then wake the queue under its lock, so no wake-up is lost.  A queue
 * head nobody initialised is a BUG naming it (its lock's magic); an entry
 * removed that is on no queue, a list_del() corruption (list.h).
 */
#include "shim.h"
#include <linux/wait.h>

int waitqueue_active(wait_queue_head_t *q)
{
	return !list_empty(&q->task_list);
}

void add_wait_queue(wait_queue_head_t *q, wait_queue_t *wait)
{
	unsigned long flags;

	shim_check_initialised(&q->lock, __func__, "wait queue head", q);
	wait->flags &= ~WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&q->lock, flags);
	list_add(&wait->task_list, &q->task_list);
	spin_unlock_irqrestore(&q->lock, flags);
}

void add_wait_queue_exclusive(wait_queue_head_t *q, wait_queue_t *wait)
{
	unsigned long flags;

	shim_check_initialised(&q->lock, __func__, "wait queue head", q);
	wait->flags |= WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&q->lock, flags);
	list_add_tail(&wait->task_list, &q->task_list);
	spin_unlock_irqrestore(&q->lock, flags);
}

void remove_wait_queue(wait_queue_head_t *q, wait_queue_t *wait)
{
	unsigned long flags;

	shim_check_initialised(&q->lock, __func__, "wait queue head", q);
	spin_lock_irqsave(&q->lock, flags);
	list_del(&wait->task_list);
	spin_unlock_irqrestore(&q->lock, flags);
}

/* Called with q->lock held: mark who to wake in @wq, wake them later. */
void __wake_up_locked(wait_queue_head_t *q, unsigned int mode, int nr_exclusive,
		      struct shim_wake_q *wq)
{
	struct list_head *tmp, *next;

	list_for_each_safe(tmp, next, &q->task_list) {
		wait_queue_t *curr = list_entry(tmp, wait_queue_t, task_list);

		if (shim_wake_q_add(wq, curr->task, mode) &&
		    (curr->flags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
			break;
	}
}

void __wake_up(wait_queue_head_t *q, unsigned int mode, int nr_exclusive)
{
	struct shim_wake_q wq = SHIM_WAKE_Q_INIT;
	unsigned long flags;

	shim_check_initialised(&q->lock, "wake_up", "wait queue head", q);
	spin_lock_irqsave(&q->lock, flags);
	__wake_up_locked(q, mode, nr_exclusive, &wq);
	spin_unlock_irqrestore(&q->lock, flags);
	shim_wake_up_q(&wq);
}
