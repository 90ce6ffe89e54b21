/*
 * completion.c - completions: a count of "done" events and a wait queue.
 *
 * complete() before wait_for_completion() is remembered in the count; the
 * waiter takes the queue lock before it returns, so a completion on the
 * waiter's stack is never touched by complete() after the waiter has gone.
 * One that was never initialised (init_completion, DECLARE_COMPLETION) is
 * a BUG naming it, where a debugging kernel's spinlock magic would stop.
 */
#include "shim.h"
#include <linux/completion.h>

void complete(struct completion *x)
{
	struct shim_wake_q wq = SHIM_WAKE_Q_INIT;
	unsigned long flags;

	shim_check_initialised(&x->wait.lock, __func__, "completion", x);
	spin_lock_irqsave(&x->wait.lock, flags);
	x->done++;
	__wake_up_locked(&x->wait, TASK_NORMAL, 1, &wq);
	spin_unlock_irqrestore(&x->wait.lock, flags);
	shim_wake_up_q(&wq);
}

void complete_all(struct completion *x)
{
	struct shim_wake_q wq = SHIM_WAKE_Q_INIT;
	unsigned long flags;

	shim_check_initialised(&x->wait.lock, __func__, "completion", x);
	spin_lock_irqsave(&x->wait.lock, flags);
	x->done += UINT_MAX / 2;
	__wake_up_locked(&x->wait, TASK_NORMAL, 0, &wq);
	spin_unlock_irqrestore(&x->wait.lock, flags);
	shim_wake_up_q(&wq);
}

void wait_for_completion(struct completion *x)
{
	might_sleep();
	shim_check_initialised(&x->wait.lock, __func__, "completion", x);
	spin_lock_irq(&x->wait.lock);
	if (!x->done) {
		DECLARE_WAITQUEUE(wait, current);

		wait.flags |= WQ_FLAG_EXCLUSIVE;
		list_add_tail(&wait.task_list, &x->wait.task_list);
		do {
			__set_current_state(TASK_UNINTERRUPTIBLE);
			spin_unlock_irq(&x->wait.lock);
			schedule();
			spin_lock_irq(&x->wait.lock);
		} while (!x->done);
		list_del(&wait.task_list);
	}
	if (x->done < UINT_MAX / 2)
		x->done--;
	spin_unlock_irq(&x->wait.lock);
}
