/*
 * quiesce.c - wait, with host means, until the sandbox is idle.
 *
 * What a scenario does between two steps, so that each step starts from
 * the same state on both stacks whatever the threads' timing: no task
 * but the caller can run (every other one sleeps in schedule(), ksoftirqd
 * waits for a kick), no bottom half is marked, and the timers due within
 * a tick have run.  No deferred-work API is called: it waits for the
 * stacks as a bystander, so the same scenario runs on both, and a trace
 * of the run shows no flush it did not ask for.
 */
#include "shim.h"
#include <linux/timer.h>

/* timers a quiesce runs at most: one that re-arms itself for now loops */
#define QUIESCE_TIMERS 256

extern int shim_bh_pending(void);
extern int shim_timer_next(unsigned long *expires);
extern int shim_clock_step(unsigned long until);

static int softirq_idle(void)
{
	return !shim_bh_pending();
}

/*
 * shim_quiesce - until the caller alone can run, firing timers due within a tick
 *
 * Process context of a host program (a scenario), never from a routine
 * or a handler.  In virtual time the caller runs those timers itself, one
 * at a time, the system idle after each (shim_clock_step()), and time
 * moves that tick; in real time it sleeps until the timer is due and
 * ksoftirqd runs it.  Returns the timers it ran or waited for, or -EBUSY
 * if timers still fell due within a tick after QUIESCE_TIMERS of them (a
 * timer that re-arms itself for now).
 */
int shim_quiesce(void)
{
	unsigned long next, target = 0;
	int timers = 0;

	might_sleep();
	for (;;) {
		shim_wait_awake_alone(softirq_idle);
		if (!shim_timer_next(&next))
			break;
		if (!timers)
			target = jiffies + 1;
		if (time_after(next, target))
			break;
		if (timers == QUIESCE_TIMERS)
			return -EBUSY;
		timers++;
		if (shim_clock_is_virtual()) {
			shim_clock_step(target);
		} else {
			extern u64 shim_ns_until_jiffy(unsigned long j);

			shim_sleep_ns(shim_ns_until_jiffy(next) + 1000);
		}
	}
	/* a timer due now ran at the next tick, as on a PC */
	if (timers && shim_clock_is_virtual() && time_after(target, jiffies))
		shim_clock_step(target);
	return timers;
}
