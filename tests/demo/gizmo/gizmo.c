/*
 * gizmo.c - a made-up driver in 2.4's style, with a task queue of its own
 * drained by a bottom half of its own.  convert turns it into
 * schedule_work() on events and says so in a context line; tests/demo/run
 * feeds that line, as printed, back to the demo as the declaration.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/module.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>
#include <linux/tqueue.h>

static DECLARE_TASK_QUEUE(tq_gizmo);

static void gizmo_softint(void *data);

static struct tq_struct gizmo_tqueue = {
	routine : gizmo_softint,
};

static spinlock_t gizmo_lock = SPIN_LOCK_UNLOCKED;
static unsigned long gizmo_events, gizmo_handled, gizmo_runs;

/* the slow half: what the interrupt left for later */
static void gizmo_softint(void *data)
{
	unsigned long flags;

	spin_lock_irqsave(&gizmo_lock, flags);
	gizmo_handled = gizmo_events;
	gizmo_runs++;
	spin_unlock_irqrestore(&gizmo_lock, flags);
}

static void do_gizmo_bh(void)
{
	run_task_queue(&tq_gizmo);
}

/* hard interrupt context */
void gizmo_interrupt(void)
{
	spin_lock(&gizmo_lock);
	gizmo_events++;
	spin_unlock(&gizmo_lock);
	queue_task(&gizmo_tqueue, &tq_gizmo);
	mark_bh(CM206_BH);
}

int gizmo_init(void)
{
	init_bh(CM206_BH, do_gizmo_bh);
	return 0;
}

void gizmo_exit(void)
{
	remove_bh(CM206_BH);
	run_task_queue(&tq_gizmo);
}

unsigned long gizmo_seen(void)
{
	return gizmo_handled;
}

MODULE_LICENSE("GPL");
