#include <linux/tqueue.h>
#include <linux/interrupt.h>

/* A card driver under the ISDN layer: its interrupt marks the bottom half. */
struct BCState {
	struct tq_struct tqueue;
	int event;
};

static void hscx_bh(void *data)
{
	struct BCState *bcs = data;

	bcs->event = 0;
}

void hscx_sched_event(struct BCState *bcs, int event)
{
	bcs->event |= 1 << event;
	queue_task(&bcs->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

void hscx_setup(struct BCState *bcs)
{
	INIT_TQUEUE(&bcs->tqueue, hscx_bh, bcs);
}
