/*
 *  xloop.c  -- the loopback card of the xcore family.
 *
 *  A card with no hardware, as 2.4's isdnloop was for isdn4linux: it
 *  registers with the core (register_xcard(), the core's export), takes
 *  what a user writes on its line into a ring, and once the write is
 *  handed over gives it back from keventd (its own tq_struct,
 *  schedule_task()): what it sent comes
 *  back through xcore_receive(), and xcore_sent() says there is room
 *  again.  Its exit waits for its task before it leaves the core.
 *
 *  Written for the sandbox's tests; no kernel had it.
 */

#include <linux/config.h>
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/tqueue.h>
#include <linux/errno.h>
#include <linux/spinlock.h>
#include <linux/init.h>

#include "../xcore/xcard.h"

#define XLOOP_RING 4096

MODULE_AUTHOR("the workqueue sandbox");
MODULE_DESCRIPTION("xcore loopback card (made up)");

static unsigned char xloop_ring[XLOOP_RING];
static int xloop_head, xloop_cnt;
static spinlock_t xloop_lock = SPIN_LOCK_UNLOCKED;
static struct tq_struct xloop_task;
static struct xcard xloop_card;

/* from keventd: what was sent comes back */
static void xloop_bh(void *data)
{
	struct xcard *card = (struct xcard *) data;
	static unsigned char buf[XLOOP_RING]; /* keventd's alone */
	unsigned long flags;
	int i, n, tail;

	spin_lock_irqsave(&xloop_lock, flags);
	n = xloop_cnt;
	tail = (xloop_head - n + XLOOP_RING) % XLOOP_RING;
	for (i = 0; i < n; i++)
		buf[i] = xloop_ring[(tail + i) % XLOOP_RING];
	xloop_cnt = 0;
	spin_unlock_irqrestore(&xloop_lock, flags);
	if (n)
		xcore_receive(card, buf, n);
	xcore_sent(card);
}

static int xloop_send(struct xcard *card, const unsigned char *buf, int count)
{
	unsigned long flags;
	int c = 0;

	spin_lock_irqsave(&xloop_lock, flags);
	while (c < count && xloop_cnt < XLOOP_RING) {
		xloop_ring[xloop_head] = buf[c++];
		xloop_head = (xloop_head + 1) % XLOOP_RING;
		xloop_cnt++;
	}
	spin_unlock_irqrestore(&xloop_lock, flags);
	return c;
}

static void xloop_kick(struct xcard *card)
{
	schedule_task(&xloop_task);
}

static int xloop_room(struct xcard *card)
{
	return XLOOP_RING - xloop_cnt;
}

static int __init xloop_init(void)
{
	int error;

	xloop_card.name = "xloop";
	xloop_card.send = xloop_send;
	xloop_card.kick = xloop_kick;
	xloop_card.room = xloop_room;
	xloop_task.routine = xloop_bh;
	xloop_task.data = &xloop_card;
	error = register_xcard(&xloop_card);
	if (error)
		printk(KERN_ERR "xloop: the core took no card\n");
	return error;
}

static void __exit xloop_exit(void)
{
	flush_scheduled_tasks();
	unregister_xcard(&xloop_card);
}

module_init(xloop_init);
module_exit(xloop_exit);
