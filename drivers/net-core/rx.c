/*
 * rx.c - the receive backlog and the network's receive bottom half.
 *
 * netif_rx() queues a frame on the backlog, from any context, and raises
 * NET_RX_SOFTIRQ; net_rx_action() hands the frames on in order, in
 * softirq context.  2.4 kept one backlog per CPU; the shim's one
 * ksoftirqd stands for every CPU, so there is one backlog, and the order
 * of frames from one device is kept as 2.4 kept it on one CPU.  In place
 * of the protocols there is one delivery point, which a test or an
 * exerciser sets (net-core/net-core.h).
 */
#include <linux/kernel.h>
#include <linux/interrupt.h>

#include "core.h"

int netdev_max_backlog = 300;

struct net_core_counts net_core_stat;

static struct sk_buff_head backlog;
static int throttle; /* dropping until the backlog has drained */

static void (*rx_hook)(struct sk_buff *skb, void *arg);
static void *rx_hook_arg;
static spinlock_t rx_hook_lock = SPIN_LOCK_UNLOCKED;

void net_core_set_rx_hook(void (*hook)(struct sk_buff *skb, void *arg),
			  void *arg)
{
	spin_lock_bh(&rx_hook_lock);
	rx_hook = hook;
	rx_hook_arg = arg;
	spin_unlock_bh(&rx_hook_lock);
}

void net_core_counts(struct net_core_counts *c)
{
	c->rx_queued =
		__atomic_load_n(&net_core_stat.rx_queued, __ATOMIC_RELAXED);
	c->rx_dropped =
		__atomic_load_n(&net_core_stat.rx_dropped, __ATOMIC_RELAXED);
	c->rx_delivered =
		__atomic_load_n(&net_core_stat.rx_delivered, __ATOMIC_RELAXED);
	c->rx_unclaimed =
		__atomic_load_n(&net_core_stat.rx_unclaimed, __ATOMIC_RELAXED);
	c->tx_timeouts =
		__atomic_load_n(&net_core_stat.tx_timeouts, __ATOMIC_RELAXED);
	c->irq_frees =
		__atomic_load_n(&net_core_stat.irq_frees, __ATOMIC_RELAXED);
}

/*
 * netif_rx - a frame received by skb->dev, for the protocols.  Any
 * context.  NET_RX_DROP if the backlog is full (more than
 * netdev_max_backlog frames), and then until it has drained: the frame
 * is freed.  The device is held while the frame waits.
 */
int netif_rx(struct sk_buff *skb)
{
	unsigned long flags;

	skb_check_live(skb, "netif_rx");
	spin_lock_irqsave(&backlog.lock, flags);
	if (backlog.qlen <= netdev_max_backlog) {
		if (!backlog.qlen)
			throttle = 0;
		if (!throttle) {
			dev_hold(skb->dev);
			__skb_queue_tail(&backlog, skb);
			spin_unlock_irqrestore(&backlog.lock, flags);
			net_core_count(rx_queued);
			__cpu_raise_softirq(smp_processor_id(), NET_RX_SOFTIRQ);
			return NET_RX_SUCCESS;
		}
	} else {
		throttle = 1;
	}
	spin_unlock_irqrestore(&backlog.lock, flags);
	net_core_count(rx_dropped);
	dev_kfree_skb_any(skb);
	return NET_RX_DROP;
}

static void deliver(struct sk_buff *skb)
{
	void (*hook)(struct sk_buff *, void *);
	void *arg;

	spin_lock(&rx_hook_lock);
	hook = rx_hook;
	arg = rx_hook_arg;
	spin_unlock(&rx_hook_lock);
	if (hook) {
		net_core_count(rx_delivered);
		hook(skb, arg);
	} else {
		net_core_count(rx_unclaimed);
		kfree_skb(skb);
	}
}

/*
 * NET_RX_SOFTIRQ: the backlog, in order, at most netdev_max_backlog
 * frames a run (then raised again, as 2.4 gave the CPU back).
 */
static void net_rx_action(struct softirq_action *h)
{
	int budget = netdev_max_backlog;

	while (budget--) {
		struct net_device *dev;
		struct sk_buff *skb = skb_dequeue(&backlog);

		if (!skb)
			return;
		dev = skb->dev;
		dev->last_rx = jiffies;
		skb->h.raw = skb->nh.raw = skb->data;
		deliver(skb);
		dev_put(dev);
	}
	__cpu_raise_softirq(smp_processor_id(), NET_RX_SOFTIRQ);
}

/*
 * A device going away: what of it still waits is freed, as a frame the
 * backlog dropped would be (2.4 let the backlog drain; in virtual time
 * nothing may run it before the caller goes on).
 */
void netif_rx_flush_dev(struct net_device *dev)
{
	struct sk_buff_head doomed;
	struct sk_buff *skb, *next;
	unsigned long flags;

	skb_queue_head_init(&doomed);
	spin_lock_irqsave(&backlog.lock, flags);
	for (skb = backlog.next; skb != (struct sk_buff *) &backlog;
	     skb = next) {
		next = skb->next;
		if (skb->dev == dev) {
			__skb_unlink(skb, &backlog);
			__skb_queue_tail(&doomed, skb);
		}
	}
	spin_unlock_irqrestore(&backlog.lock, flags);
	while ((skb = __skb_dequeue(&doomed)) != NULL) {
		kfree_skb(skb);
		dev_put(dev);
	}
}

/* net_dev_init()'s part: before any driver's init runs */
static void __attribute__((constructor)) net_dev_init(void)
{
	skb_queue_head_init(&backlog);
	open_softirq(NET_TX_SOFTIRQ, net_tx_action, NULL);
	open_softirq(NET_RX_SOFTIRQ, net_rx_action, NULL);
}
