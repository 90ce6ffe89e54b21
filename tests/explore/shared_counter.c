/*
 * shared_counter.c - two routines that update one counter without a lock.
 *
 * Legacy code could share state between its tasks without locking: keventd
 * ran one task at a time.  Converted, the two works are queued from two
 * CPUs and run on two workers at once; the read, the hardware settle
 * (udelay) and the write of one interleave with the other's, and an update
 * is lost.  Built for both stacks: safe on the taskqueue under every
 * schedule, broken on the workqueue under some.
 */
#include <stdio.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <shim/test.h>
#ifdef TASKQUEUE
#include <linux/tqueue.h>
#define deferred_t struct tq_struct
#define DEFERRED_INIT(d, f) INIT_TQUEUE((d), (f), NULL)
#define defer(d) schedule_task(d)
#define flush_deferred() flush_scheduled_tasks()
#else
#include <linux/workqueue.h>
#define deferred_t work_t
#define DEFERRED_INIT(d, f) INIT_WORK((d), (f), NULL)
#define defer(d) schedule_work(d)
#define flush_deferred() flush_scheduled_work()
#endif

static int events_seen; /* no lock: keventd ran one task at a time */
static deferred_t rx_work, tx_work;

static void count_event(void *unused)
{
	int seen = events_seen;

	udelay(5); /* let the hardware settle */
	events_seen = seen + 1;
}

static void kick(void *arg)
{
	defer(arg);
}

int main(void)
{
	struct shim_thread *t[2];

	DEFERRED_INIT(&rx_work, count_event);
	DEFERRED_INIT(&tx_work, count_event);
	t[0] = shim_thread_start("rx", kick, &rx_work);
	t[1] = shim_thread_start("tx", kick, &tx_work);
	shim_thread_join(t[0]);
	shim_thread_join(t[1]);
	flush_deferred();
	if (events_seen != 2) {
		fprintf(stderr,
			"shared_counter: an update was lost: %d events "
			"counted of 2\n",
			events_seen);
		return 1;
	}
	printf("shared_counter: 2 events counted\n");
	return 0;
}
