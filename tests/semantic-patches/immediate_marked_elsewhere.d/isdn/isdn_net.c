#include <linux/tqueue.h>
#include <linux/netdevice.h>

/*
 * The ISDN network layer (isdn_net.c's way) queues its transmit task on
 * tq_immediate and never marks the immediate bottom half itself: the
 * card drivers below it mark it from their interrupts, which runs it.
 */
typedef struct isdn_net_local_s {
	struct tq_struct tqueue;
	int frame_cnt;
} isdn_net_local;

static void isdn_net_device_busy_bh(void *data)
{
	isdn_net_local *lp = data;

	lp->frame_cnt = 0;
}

static void isdn_net_dec_frame_cnt(isdn_net_local *lp)
{
	if (--lp->frame_cnt == 0)
		queue_task(&lp->tqueue, &tq_immediate);
}

void isdn_net_init_local(isdn_net_local *lp)
{
	lp->tqueue.sync = 0;
	lp->tqueue.routine = isdn_net_device_busy_bh;
	lp->tqueue.data = lp;
}
