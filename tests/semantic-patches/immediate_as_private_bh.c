#include <linux/tqueue.h>
#include <linux/interrupt.h>

/*
 * tq_immediate used as the driver's own bottom half (plusb, the 2.4 USB
 * network drivers): the interrupt queues the receive task and marks the
 * immediate bottom half; disconnect() runs tq_immediate itself so that
 * nothing of the device is still queued when it is freed.  The task
 * becomes work, and the synchronous run a flush of keventd.
 */
struct usbnet { struct tq_struct bh; int connected; };

static void usbnet_bh(void *data)
{
	struct usbnet *s = data;

	s->connected++;
}

static void usbnet_irq(struct usbnet *s)
{
	queue_task(&s->bh, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static void usbnet_probe(struct usbnet *s)
{
	INIT_TQUEUE(&s->bh, usbnet_bh, s);
}

static void usbnet_disconnect(struct usbnet *s)
{
	s->connected = 0;
	run_task_queue(&tq_immediate);
	kfree(s);
}
