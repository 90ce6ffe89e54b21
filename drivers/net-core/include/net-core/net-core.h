/*
 * net-core/net-core.h - what the network core of the sandbox offers the
 * programs around a driver (a class exerciser, the tests): where received
 * frames go, in place of the protocols, and what the debug checks count.
 * Stack-neutral: no deferred-work type, and no kernel type but by pointer.
 */
#ifndef _NET_CORE_NET_CORE_H
#define _NET_CORE_NET_CORE_H

#include <stddef.h>

struct sk_buff;
struct net_device;

/*
 * The protocols' delivery point: NET_RX_SOFTIRQ hands each frame from
 * the backlog, in order, to @hook (softirq context), which then owns it.
 * No hook: the frame is counted as unclaimed and freed.  NULL removes it.
 */
void net_core_set_rx_hook(void (*hook)(struct sk_buff *skb, void *arg),
			  void *arg);

struct net_core_counts {
	unsigned long rx_queued;    /* netif_rx() took it */
	unsigned long rx_dropped;   /* netif_rx() dropped it: backlog full */
	unsigned long rx_delivered; /* to the hook */
	unsigned long rx_unclaimed; /* no hook: freed */
	unsigned long tx_timeouts;  /* the watchdog called tx_timeout() */
	unsigned long irq_frees;    /* kfree_skb() in a hard interrupt */
};

void net_core_counts(struct net_core_counts *c);

/*
 * sk_buffs allocated (or cloned, or copied) and not yet freed: their
 * count, and in @buf (if not NULL) by whom ("3 from fk_rx(), 1 from
 * fk_xmit()"), the functions that called alloc_skb(), skb_clone() or
 * skb_copy().
 */
long net_core_skbs_held(char *buf, size_t len);

/*
 * At a module's exit (@when: "module exit"): one line naming the
 * sk_buffs still held, as the kmalloc leak report does; their count.
 */
long net_core_check_held(const char *when);

#endif /* _NET_CORE_NET_CORE_H */
