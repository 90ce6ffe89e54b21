#include <linux/tqueue.h>
#include <linux/interrupt.h>

/*
 * An ISDN B channel (amd7930.c's way): the receive interrupt queues the
 * channel's task on tq_immediate in each branch, and marks the immediate
 * bottom half after one of them only; the mark runs whatever is queued.
 */
struct BCState {
	struct tq_struct tqueue;
	int event;
	int len;
};

static void Bchan_rcv_bh(void *data)
{
	struct BCState *bcs = data;

	bcs->event = 0;
}

static void Bchan_recv_callback(struct BCState *bcs)
{
	if (bcs->len > 512) {
		bcs->event |= 1;
		queue_task(&bcs->tqueue, &tq_immediate);
	} else if (bcs->len > 0) {
		bcs->event |= 1;
		queue_task(&bcs->tqueue, &tq_immediate);
		mark_bh(IMMEDIATE_BH);
	}
}

static void Bchan_open(struct BCState *bcs)
{
	bcs->tqueue.sync = 0;
	bcs->tqueue.routine = (void (*)(void *)) &Bchan_rcv_bh;
	bcs->tqueue.data = (void *) bcs;
}
