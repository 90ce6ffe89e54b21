/*
 * sleep_on.c - 2.4's sleep_on() family (kernel/sched.c): sleep on a wait
 * queue until woken, with no condition of the caller's tested.  A wake-up
 * that comes before the sleeper is on the queue is lost, as it was in 2.4:
 * that race is the caller's (and why the family went away in 2.5).
 *
 * As 2.4's: the caller's local interrupt state is restored on return,
 * and a holder of cli()'s global lock has lost it (schedule() let it go).
 */
#include "shim.h"

static long sleep_on_common(wait_queue_head_t *q, long state, long timeout)
{
	int irqs_off = irqs_disabled();
	wait_queue_t wait;

	init_waitqueue_entry(&wait, current);
	set_current_state(state);
	add_wait_queue(q, &wait);
	if (timeout == MAX_SCHEDULE_TIMEOUT)
		schedule();
	else
		timeout = schedule_timeout(timeout);
	remove_wait_queue(q, &wait);
	if (irqs_off)
		local_irq_disable();
	return timeout;
}

void interruptible_sleep_on(wait_queue_head_t *q)
{
	sleep_on_common(q, TASK_INTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);
}

long interruptible_sleep_on_timeout(wait_queue_head_t *q, signed long timeout)
{
	return sleep_on_common(q, TASK_INTERRUPTIBLE, timeout);
}

void sleep_on(wait_queue_head_t *q)
{
	sleep_on_common(q, TASK_UNINTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);
}

long sleep_on_timeout(wait_queue_head_t *q, signed long timeout)
{
	return sleep_on_common(q, TASK_UNINTERRUPTIBLE, timeout);
}
