/*
 * xmit.c - the transmit path of 2.4: a device's queue, its driver and the
 * network's transmit bottom half.
 *
 * A device that is up has a FIFO of tx_queue_len frames (2.4's default
 * pfifo_fast, less its three bands: nothing here sets priorities); one
 * with tx_queue_len 0 has none and goes straight to its driver, as
 * 2.4's noqueue did.  hard_start_xmit() runs under the device's
 * xmit_lock; a driver that returns nonzero has not taken the frame,
 * which goes back to the head of the queue until netif_wake_queue().
 * NET_TX_SOFTIRQ frees what dev_kfree_skb_irq() left and restarts the
 * queues netif_wake_queue() scheduled.  A device that is down takes
 * nothing: the frame is freed (2.4's noop queue).
 *
 * Locks as 2.4's: queue_lock (the FIFO) and xmit_lock (the driver) are
 * never held together.
 */
#include <linux/kernel.h>
#include <linux/interrupt.h>

#include "core.h"

struct Qdisc {
	struct sk_buff_head q;
	int active; /* up: dev_activate() to dev_deactivate() */
};

/* one ksoftirqd stands for every CPU: one output and completion queue */
static spinlock_t softnet_lock = SPIN_LOCK_UNLOCKED;
static struct net_device *output_queue;
static struct sk_buff *completion_queue;

/* the device whose hard_start_xmit() this task is in: a loop back to it */
static __thread struct net_device *xmit_in;

int dev_init_scheduler(struct net_device *dev)
{
	struct Qdisc *q = kmalloc(sizeof(*q), GFP_KERNEL);

	if (!q)
		return -ENOBUFS;
	skb_queue_head_init(&q->q);
	q->active = 0;
	dev->qdisc = dev->qdisc_sleeping = q;
	spin_lock_init(&dev->queue_lock);
	spin_lock_init(&dev->xmit_lock);
	dev->xmit_lock_owner = -1;
	dev_watchdog_init(dev);
	return 0;
}

void dev_shutdown(struct net_device *dev)
{
	struct Qdisc *q = dev->qdisc;

	if (!q)
		return;
	skb_queue_purge(&q->q);
	dev->qdisc = dev->qdisc_sleeping = NULL;
	kfree(q);
}

/*
 * The frames still queued, dropped: 2.4's qdisc_reset(), which drivers
 * called when a link went down (isdn_net.c's hangup).  As 2.4's, it
 * takes no lock: its callers held queue_lock, or ran where nothing sent.
 */
void qdisc_reset(struct Qdisc *q)
{
	struct sk_buff *skb;

	if (!q)
		return;
	while ((skb = __skb_dequeue(&q->q)) != NULL)
		kfree_skb(skb);
}

void __netif_schedule(struct net_device *dev)
{
	unsigned long flags;

	if (test_and_set_bit(__LINK_STATE_SCHED, &dev->state))
		return;
	spin_lock_irqsave(&softnet_lock, flags);
	dev->next_sched = output_queue;
	output_queue = dev;
	spin_unlock_irqrestore(&softnet_lock, flags);
	__cpu_raise_softirq(smp_processor_id(), NET_TX_SOFTIRQ);
}

/* the driver's, under xmit_lock; 0 if it took the frame */
static int xmit_one(struct sk_buff *skb, struct net_device *dev)
{
	int ret;

	dev->xmit_lock_owner = smp_processor_id();
	xmit_in = dev;
	ret = dev->hard_start_xmit(skb, dev);
	xmit_in = NULL;
	dev->xmit_lock_owner = -1;
	return ret;
}

/*
 * One frame from the queue to the driver, called and returning with
 * queue_lock held: -1 sent (or dropped), 0 the queue is empty, 1 it went
 * back to the queue (driver busy or refusing) and the device is
 * scheduled again.
 */
static int qdisc_restart(struct net_device *dev)
{
	struct Qdisc *q = dev->qdisc;
	struct sk_buff *skb = __skb_dequeue(&q->q);

	if (!skb)
		return 0;
	if (xmit_in == dev) {
		/* the driver queued to itself: 2.4 dropped it, and said so */
		dev_kfree_skb_any(skb);
		printk(KERN_DEBUG "Dead loop on netdevice %s, fix it "
				  "urgently!\n",
		       dev->name);
		return -1;
	}
	if (spin_trylock(&dev->xmit_lock)) {
		spin_unlock(&dev->queue_lock);
		if (!netif_queue_stopped(dev) && xmit_one(skb, dev) == 0) {
			spin_unlock(&dev->xmit_lock);
			spin_lock(&dev->queue_lock);
			return -1;
		}
		spin_unlock(&dev->xmit_lock);
		spin_lock(&dev->queue_lock);
	}
	__skb_queue_head(&q->q, skb);
	netif_schedule(dev);
	return 1;
}

static void qdisc_run(struct net_device *dev)
{
	while (!netif_queue_stopped(dev) && qdisc_restart(dev) < 0)
		;
}

/* no queue: straight to the driver, which must take it */
static int xmit_direct(struct sk_buff *skb, struct net_device *dev)
{
	if (xmit_in != dev) {
		spin_lock(&dev->xmit_lock);
		if (!netif_queue_stopped(dev) && xmit_one(skb, dev) == 0) {
			spin_unlock_bh(&dev->xmit_lock);
			return 0;
		}
		spin_unlock_bh(&dev->xmit_lock);
		printk(KERN_DEBUG "Virtual device %s asks to queue packet!\n",
		       dev->name);
	} else {
		local_bh_enable();
		printk(KERN_DEBUG "Dead loop on virtual device %s, fix it "
				  "urgently!\n",
		       dev->name);
	}
	kfree_skb(skb);
	return -ENETDOWN;
}

/*
 * dev_queue_xmit - send skb by skb->dev: queued, and the queue run now
 * if the driver can take it.  Any context but a hard interrupt.
 * NET_XMIT_SUCCESS, NET_XMIT_DROP (queue full), NET_XMIT_CN (device
 * down) or -ENETDOWN (no queue and the driver would not take it); the
 * frame is the core's in every case.
 */
int dev_queue_xmit(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	struct Qdisc *q;

	skb_check_live(skb, "dev_queue_xmit");
	spin_lock_bh(&dev->queue_lock);
	q = dev->qdisc;
	if (!q || !q->active) {
		spin_unlock_bh(&dev->queue_lock);
		kfree_skb(skb);
		return NET_XMIT_CN;
	}
	if (!dev->tx_queue_len) {
		spin_unlock(&dev->queue_lock);
		return xmit_direct(skb, dev);
	}
	if (skb_queue_len(&q->q) >= dev->tx_queue_len) {
		spin_unlock_bh(&dev->queue_lock);
		kfree_skb(skb);
		return NET_XMIT_DROP;
	}
	__skb_queue_tail(&q->q, skb);
	qdisc_run(dev);
	spin_unlock_bh(&dev->queue_lock);
	return NET_XMIT_SUCCESS;
}

void dev_kfree_skb_irq(struct sk_buff *skb)
{
	unsigned long flags;

	skb_check_live(skb, "dev_kfree_skb_irq");
	if (!atomic_dec_and_test(&skb->users))
		return;
	spin_lock_irqsave(&softnet_lock, flags);
	skb->next = completion_queue;
	completion_queue = skb;
	spin_unlock_irqrestore(&softnet_lock, flags);
	__cpu_raise_softirq(smp_processor_id(), NET_TX_SOFTIRQ);
}

/* NET_TX_SOFTIRQ: the frames freed in interrupts, then the woken queues */
void net_tx_action(struct softirq_action *h)
{
	struct sk_buff *clist;
	struct net_device *head;
	unsigned long flags;

	spin_lock_irqsave(&softnet_lock, flags);
	clist = completion_queue;
	completion_queue = NULL;
	head = output_queue;
	output_queue = NULL;
	spin_unlock_irqrestore(&softnet_lock, flags);

	while (clist) {
		struct sk_buff *skb = clist;

		clist = clist->next;
		skb->next = NULL;
		__kfree_skb(skb);
	}
	while (head) {
		struct net_device *dev = head;

		head = head->next_sched;
		smp_mb__before_clear_bit();
		clear_bit(__LINK_STATE_SCHED, &dev->state);
		if (spin_trylock(&dev->queue_lock)) {
			if (dev->qdisc)
				qdisc_run(dev);
			spin_unlock(&dev->queue_lock);
		} else {
			netif_schedule(dev);
		}
	}
}

/* up: the queue takes frames, the watchdog watches */
void dev_activate(struct net_device *dev)
{
	spin_lock_bh(&dev->queue_lock);
	if (dev->qdisc)
		dev->qdisc->active = 1;
	spin_unlock_bh(&dev->queue_lock);
	dev_watchdog_up(dev);
}

/* down: what waits is freed, and no softirq still runs the queue */
void dev_deactivate(struct net_device *dev)
{
	spin_lock_bh(&dev->queue_lock);
	if (dev->qdisc) {
		dev->qdisc->active = 0;
		skb_queue_purge(&dev->qdisc->q);
	}
	spin_unlock_bh(&dev->queue_lock);
	dev_watchdog_down(dev);
	while (test_bit(__LINK_STATE_SCHED, &dev->state))
		yield();
	/* and a driver still in hard_start_xmit() has left it */
	spin_lock_bh(&dev->xmit_lock);
	spin_unlock_bh(&dev->xmit_lock);
}
