/*
 * fake_net.c - "fknet", a 2.4 network driver over no hardware: its
 * transmitter takes a frame, or fills up, or refuses, as a test sets it;
 * its receive interrupt hands a frame to netif_rx().  And the receive
 * hook, in place of the protocols, recording what reaches it.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/interrupt.h>
#include <net-core/net-core.h>

#include "n24.h"

struct fn_priv {
	struct net_device_stats stats;
	int mode;
	struct fn_stats st;
};

static struct net_device *devs[FN_DEVS];

static int fn_dev_open(struct net_device *dev)
{
	struct fn_priv *p = dev->priv;

	p->st.opens++;
	netif_start_queue(dev);
	return 0;
}

static int fn_dev_stop(struct net_device *dev)
{
	struct fn_priv *p = dev->priv;

	p->st.stops++;
	netif_stop_queue(dev);
	return 0;
}

static int fn_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct fn_priv *p = dev->priv;
	size_t n;

	if (p->mode == FN_BUSY) {
		p->st.refused++;
		netif_stop_queue(dev);
		return 1;
	}
	p->st.xmits++;
	p->st.tx_bytes += skb->len;
	n = strlen(p->st.tx_log);
	snprintf(p->st.tx_log + n, sizeof(p->st.tx_log) - n, "%.*s;",
		 (int) (skb->len - ETH_HLEN), skb->data + ETH_HLEN);
	dev->trans_start = jiffies;
	if (p->mode == FN_TAKE_AND_STOP)
		netif_stop_queue(dev);
	dev_kfree_skb(skb);
	return 0;
}

static void fn_tx_timeout(struct net_device *dev)
{
	struct fn_priv *p = dev->priv;

	p->st.timeouts++;
	/* the ring reset: the transmitter takes frames again */
	p->mode = FN_TAKE;
	dev->trans_start = jiffies;
	netif_wake_queue(dev);
}

static struct net_device_stats *fn_get_stats(struct net_device *dev)
{
	return &((struct fn_priv *) dev->priv)->stats;
}

static int fn_probe(struct net_device *dev)
{
	static const unsigned char mac[ETH_ALEN] = { 0, 0x24, 0, 0, 0, 1 };

	ether_setup(dev);
	memcpy(dev->dev_addr, mac, ETH_ALEN);
	dev->open = fn_dev_open;
	dev->stop = fn_dev_stop;
	dev->hard_start_xmit = fn_start_xmit;
	dev->tx_timeout = fn_tx_timeout;
	dev->get_stats = fn_get_stats;
	return 0;
}

int fn_register(int i, const char *pattern, int watchdog_timeo)
{
	struct net_device *dev;
	int err;

	dev = kmalloc(sizeof(*dev) + sizeof(struct fn_priv), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	memset(dev, 0, sizeof(*dev) + sizeof(struct fn_priv));
	dev->priv = dev + 1;
	strcpy(dev->name, pattern);
	dev->init = fn_probe;
	dev->watchdog_timeo = watchdog_timeo;
	err = register_netdev(dev);
	if (err) {
		kfree(dev);
		return err;
	}
	devs[i] = dev;
	return 0;
}

void fn_unregister(int i)
{
	unregister_netdev(devs[i]);
	kfree(devs[i]);
	devs[i] = NULL;
}

const char *fn_name(int i)
{
	return devs[i]->name;
}

int fn_lookup(const char *name)
{
	struct net_device *dev = dev_get_by_name(name);
	int i;

	if (!dev)
		return -1;
	dev_put(dev);
	for (i = 0; i < FN_DEVS; i++)
		if (devs[i] == dev)
			return i;
	return -1;
}

int fn_open(int i)
{
	int err;

	rtnl_lock();
	err = dev_open(devs[i]);
	rtnl_unlock();
	return err;
}

int fn_close(int i)
{
	int err;

	rtnl_lock();
	err = dev_close(devs[i]);
	rtnl_unlock();
	return err;
}

int fn_running(int i)
{
	return netif_running(devs[i]);
}

int fn_queue_stopped(int i)
{
	return netif_queue_stopped(devs[i]);
}

void fn_mode(int i, int mode)
{
	((struct fn_priv *) devs[i]->priv)->mode = mode;
}

void fn_wake(int i)
{
	irq_enter();
	netif_wake_queue(devs[i]);
	irq_exit();
}

/* a hangup's qdisc_reset() (isdn_net.c's): what is queued is dropped */
void fn_qdisc_reset(int i)
{
	qdisc_reset(devs[i]->qdisc);
}

void fn_start(int i)
{
	netif_start_queue(devs[i]);
}

void fn_carrier(int i, int on)
{
	if (on)
		netif_carrier_on(devs[i]);
	else
		netif_carrier_off(devs[i]);
}

void fn_stats(int i, struct fn_stats *st)
{
	*st = ((struct fn_priv *) devs[i]->priv)->st;
}

int fn_refcnt(int i)
{
	return atomic_read(&devs[i]->refcnt);
}

/* an Ethernet frame to us, of protocol IP, carrying @payload */
static struct sk_buff *frame(struct net_device *dev, const char *payload,
			     const unsigned char *dest)
{
	int n = strlen(payload);
	struct sk_buff *skb = dev_alloc_skb(ETH_HLEN + n);
	struct ethhdr *eth;

	if (!skb)
		return NULL;
	eth = (struct ethhdr *) skb_put(skb, ETH_HLEN);
	memcpy(eth->h_dest, dest, ETH_ALEN);
	memcpy(eth->h_source, "\0\1\2\3\4\5", ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	memcpy(skb_put(skb, n), payload, n);
	skb->dev = dev;
	return skb;
}

int fn_rx(int i, const char *payload)
{
	struct net_device *dev = devs[i];
	struct sk_buff *skb;
	int ret;

	irq_enter();
	skb = frame(dev, payload, dev->dev_addr);
	if (!skb) {
		irq_exit();
		return -ENOMEM;
	}
	skb->protocol = eth_type_trans(skb, dev);
	ret = netif_rx(skb);
	irq_exit();
	return ret;
}

int fn_rx_burst(int i, int n)
{
	struct net_device *dev = devs[i];
	int k, dropped = 0;

	irq_enter();
	for (k = 0; k < n; k++) {
		char payload[16];
		struct sk_buff *skb;

		snprintf(payload, sizeof(payload), "f%d", k);
		skb = frame(dev, payload, dev->dev_addr);
		skb->protocol = eth_type_trans(skb, dev);
		if (netif_rx(skb) == NET_RX_DROP)
			dropped++;
	}
	irq_exit();
	return dropped;
}

int fn_xmit(int i, const char *payload)
{
	struct net_device *dev = devs[i];
	struct sk_buff *skb = frame(dev, payload, dev->broadcast);

	if (!skb)
		return -ENOMEM;
	return dev_queue_xmit(skb);
}

void fn_set_backlog(int max)
{
	netdev_max_backlog = max;
}

static char received[4096];
static int received_len, received_count;
static spinlock_t received_lock = SPIN_LOCK_UNLOCKED;

/* softirq context: what the protocols would have been handed */
static void fn_hook(struct sk_buff *skb, void *arg)
{
	const char *type = skb->pkt_type == PACKET_HOST ? "host" : "other";

	if (!in_softirq() || in_irq())
		type = "NOT-IN-SOFTIRQ";

	spin_lock(&received_lock);
	if (received_len + skb->len + 32 < sizeof(received))
		received_len += snprintf(received + received_len,
					 sizeof(received) - received_len,
					 "%s:%04x:%s:%.*s;", skb->dev->name,
					 ntohs(skb->protocol), type,
					 (int) skb->len, skb->data);
	received_count++;
	spin_unlock(&received_lock);
	kfree_skb(skb);
}

void fn_hook_install(void)
{
	net_core_set_rx_hook(fn_hook, NULL);
}

void fn_hook_remove(void)
{
	net_core_set_rx_hook(NULL, NULL);
}

const char *fn_received(void)
{
	return received;
}

int fn_received_count(void)
{
	return received_count;
}

void fn_received_clear(void)
{
	spin_lock_bh(&received_lock);
	received[0] = '\0';
	received_len = received_count = 0;
	spin_unlock_bh(&received_lock);
}
