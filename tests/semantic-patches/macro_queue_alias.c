#include <linux/tqueue.h>
#include <linux/interrupt.h>

/*
 * The driver names the queue it defers to through a macro of its own,
 * so that one line chooses it.  The calls spell the queue out, and the
 * rules convert them; the macro goes once nothing else names it.
 */
#define PORT_BH_QUEUE	tq_immediate

struct port {
	struct tq_struct tqueue;
	int event;
};

static void port_softint(void *private_)
{
	struct port *info = private_;

	info->event = 0;
}

static void port_sched_event(struct port *info, int event)
{
	info->event |= 1 << event;
	queue_task(&info->tqueue, &PORT_BH_QUEUE);
	mark_bh(IMMEDIATE_BH);
}

static void port_init(struct port *info)
{
	INIT_TQUEUE(&info->tqueue, port_softint, info);
}
