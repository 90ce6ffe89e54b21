/*
 * stats.c - a made-up NIC statistics driver, on the task-queue API: two
 * tasks, one per interrupt (receive, transmit), count events into one
 * counter without a lock.  Safe on the task queue: keventd runs one task
 * at a time.  After the conversion the two works run on two CPUs' workers
 * at once, and an update can be lost: the demo must say so, naming both
 * routines and the counter's line.  The driver also peeks at the counter
 * from process context while the tasks run: a race it had on keventd too,
 * which the demo must list apart and not blame on the conversion.
 * (tests/demo/run drives it.)
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/tqueue.h>

static void rx_stats(void *data);
static void tx_stats(void *data);

static struct tq_struct rx_tq = {
	routine : rx_stats,
};
static struct tq_struct tx_tq = {
	routine : tx_stats,
};

static unsigned long events; /* no lock: keventd runs one task at a time */
static atomic_t runs = ATOMIC_INIT(0); /* how often a task ran: the truth */

static void count_event(void)
{
	unsigned long seen = events;

	udelay(2); /* the statistics register is slow */
	events = seen + 1;
	atomic_inc(&runs);
}

static void rx_stats(void *data)
{
	count_event();
}

static void tx_stats(void *data)
{
	count_event();
}

/* interrupt context */
void stats_rx_irq(void)
{
	schedule_task(&rx_tq);
}

void stats_tx_irq(void)
{
	schedule_task(&tx_tq);
}

void stats_sync(void)
{
	flush_scheduled_tasks();
}

unsigned long stats_events(void)
{
	return events;
}

/* process context, unlocked: racy on both stacks alike */
unsigned long stats_peek(void)
{
	return events;
}

unsigned long stats_runs(void)
{
	return atomic_read(&runs);
}

MODULE_LICENSE("GPL");
