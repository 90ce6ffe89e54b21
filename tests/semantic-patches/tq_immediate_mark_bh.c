#include <linux/tqueue.h>
#include <linux/interrupt.h>

struct port { struct tq_struct tqueue; int event; };

/* The 2.4 idiom, both orders, and the conditional form. */
static void rs_sched_event(struct port *info, int event)
{
	info->event |= 1 << event;
	queue_task(&info->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static void kbd_event(struct port *info)
{
	if (info->event) {
		mark_bh(IMMEDIATE_BH);
		queue_task(&info->tqueue, &tq_immediate);
	}
	if (queue_task(&info->tqueue, &tq_immediate))
		mark_bh(IMMEDIATE_BH);
}
