/*
 * linux/netdevice.h - the network device of 2.4.0.
 *
 * struct net_device in 2.4.0's order: the fields up to init are what a
 * driver's static initialiser sets by position ("", 0, 0, 0, 0, 0x300,
 * 5, 0, 0, 0, NULL, probe).  The core behind it (registration and names,
 * ifconfig's up and down, the transmit queue and its watchdog, the
 * receive backlog drained by NET_RX_SOFTIRQ) is drivers/net-core/.
 */
#ifndef _LINUX24_NETDEVICE_H
#define _LINUX24_NETDEVICE_H

#include <linux/if.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <asm/atomic.h>
#include <asm/byteorder.h>
#include <linux/cache.h>

#ifdef __KERNEL__
#include <linux/config.h>

#define NET_XMIT_SUCCESS 0
#define NET_XMIT_DROP 1	   /* skb dropped */
#define NET_XMIT_CN 2	   /* congestion notification */
#define NET_XMIT_POLICED 3 /* skb shot by police */
#define NET_XMIT_BYPASS 4

/* netif_rx(): how congested the backlog is */
#define NET_RX_SUCCESS 0
#define NET_RX_DROP 1
#define NET_RX_CN_LOW 2
#define NET_RX_CN_MOD 3
#define NET_RX_CN_HIGH 4
#define NET_RX_BAD 5

#define net_xmit_errno(e) ((e) != NET_XMIT_CN ? -ENOBUFS : 0)
#endif

#define MAX_ADDR_LEN 7 /* longest hardware address */
#define LL_MAX_HEADER 32
#define MAX_HEADER LL_MAX_HEADER

struct net_device_stats {
	unsigned long rx_packets;
	unsigned long tx_packets;
	unsigned long rx_bytes;
	unsigned long tx_bytes;
	unsigned long rx_errors;
	unsigned long tx_errors;
	unsigned long rx_dropped;
	unsigned long tx_dropped;
	unsigned long multicast;
	unsigned long collisions;

	/* what rx_errors were */
	unsigned long rx_length_errors;
	unsigned long rx_over_errors;
	unsigned long rx_crc_errors;
	unsigned long rx_frame_errors;
	unsigned long rx_fifo_errors;
	unsigned long rx_missed_errors;

	/* what tx_errors were */
	unsigned long tx_aborted_errors;
	unsigned long tx_carrier_errors;
	unsigned long tx_fifo_errors;
	unsigned long tx_heartbeat_errors;
	unsigned long tx_window_errors;

	unsigned long rx_compressed;
	unsigned long tx_compressed;
};

/* media (dev->if_port) */
enum {
	IF_PORT_UNKNOWN = 0,
	IF_PORT_10BASE2,
	IF_PORT_10BASET,
	IF_PORT_AUI,
	IF_PORT_100BASET,
	IF_PORT_100BASETX,
	IF_PORT_100BASEFX
};

#ifdef __KERNEL__

#include <linux/skbuff.h>
#include <linux/timer.h>

extern const char *if_port_text[];

struct neighbour;
struct neigh_parms;
struct hh_cache;
struct Qdisc; /* net-core's own: a FIFO of tx_queue_len */
/* the frames queued, dropped (2.4 declared it in net/pkt_sched.h) */
extern void qdisc_reset(struct Qdisc *q);
struct iw_statistics;
struct net_bridge_port;

struct dev_mc_list {
	struct dev_mc_list *next;
	__u8 dmi_addr[MAX_ADDR_LEN];
	unsigned char dmi_addrlen;
	int dmi_users;
	int dmi_gusers;
};

/* dev->state: the core's; drivers go through netif_*() */
enum netdev_state_t {
	__LINK_STATE_XOFF = 0, /* the driver stopped the queue */
	__LINK_STATE_START,    /* up: open() succeeded */
	__LINK_STATE_PRESENT,
	__LINK_STATE_SCHED, /* on the NET_TX softirq's output queue */
	__LINK_STATE_NOCARRIER
};

struct net_device {
	/* set by position in 2.4's static initialisers: keep the order */
	char name[IFNAMSIZ];
	unsigned long rmem_end;
	unsigned long rmem_start;
	unsigned long mem_end;
	unsigned long mem_start;
	unsigned long base_addr;
	unsigned int irq;
	unsigned char if_port;
	unsigned char dma;
	unsigned long state;
	struct net_device *next;
	int (*init)(struct net_device *dev); /* the probe, once */

	struct net_device *next_sched;
	int ifindex;
	int iflink;

	struct net_device_stats *(*get_stats)(struct net_device *dev);
	struct iw_statistics *(*get_wireless_stats)(struct net_device *dev);

	unsigned long trans_start; /* jiffies at the last transmit */
	unsigned long last_rx;

	unsigned short flags; /* IFF_* */
	unsigned short gflags;
	unsigned mtu;
	unsigned short type; /* ARPHRD_* */
	unsigned short hard_header_len;
	void *priv;

	struct net_device *master;

	unsigned char broadcast[MAX_ADDR_LEN];
	unsigned char pad;
	unsigned char dev_addr[MAX_ADDR_LEN];
	unsigned char addr_len;

	struct dev_mc_list *mc_list;
	int mc_count;
	int promiscuity;
	int allmulti;

	int watchdog_timeo; /* jiffies stopped before tx_timeout() */
	struct timer_list watchdog_timer;

	void *atalk_ptr;
	void *ip_ptr;
	void *dn_ptr;
	void *ip6_ptr;
	void *ec_ptr;

	struct Qdisc *qdisc;
	struct Qdisc *qdisc_sleeping;
	struct Qdisc *qdisc_list;
	struct Qdisc *qdisc_ingress;
	unsigned long tx_queue_len; /* 0: no queue, straight to the driver */

	spinlock_t xmit_lock; /* held around hard_start_xmit() */
	int xmit_lock_owner;  /* the CPU holding it, or -1 */
	spinlock_t queue_lock;
	atomic_t refcnt;
	int deadbeaf;

	int features;
#define NETIF_F_SG 1
#define NETIF_F_IP_CSUM 2
#define NETIF_F_NO_CSUM 4
#define NETIF_F_HW_CSUM 8
#define NETIF_F_DYNALLOC 16 /* freed when the last reference goes */
#define NETIF_F_HIGHDMA 32
#define NETIF_F_FRAGLIST 1

	void (*uninit)(struct net_device *dev);
	void (*destructor)(struct net_device *dev);

	int (*open)(struct net_device *dev);
	int (*stop)(struct net_device *dev);
	/* 0: taken; nonzero: not taken, requeued for when the queue wakes */
	int (*hard_start_xmit)(struct sk_buff *skb, struct net_device *dev);
	int (*hard_header)(struct sk_buff *skb, struct net_device *dev,
			   unsigned short type, void *daddr, void *saddr,
			   unsigned len);
	int (*rebuild_header)(struct sk_buff *skb);
#define HAVE_MULTICAST
	void (*set_multicast_list)(struct net_device *dev);
#define HAVE_SET_MAC_ADDR
	int (*set_mac_address)(struct net_device *dev, void *addr);
#define HAVE_PRIVATE_IOCTL
	int (*do_ioctl)(struct net_device *dev, struct ifreq *ifr, int cmd);
#define HAVE_SET_CONFIG
	int (*set_config)(struct net_device *dev, struct ifmap *map);
#define HAVE_HEADER_CACHE
	int (*hard_header_cache)(struct neighbour *neigh, struct hh_cache *hh);
	void (*header_cache_update)(struct hh_cache *hh, struct net_device *dev,
				    unsigned char *haddr);
#define HAVE_CHANGE_MTU
	int (*change_mtu)(struct net_device *dev, int new_mtu);
#define HAVE_TX_TIMEOUT
	void (*tx_timeout)(struct net_device *dev);
	int (*hard_header_parse)(struct sk_buff *skb, unsigned char *haddr);
	int (*neigh_setup)(struct net_device *dev, struct neigh_parms *);
	int (*accept_fastpath)(struct net_device *, struct dst_entry *);

	struct module *owner;
	struct net_bridge_port *br_port;
};

/* a protocol's receive function (dev_add_pack()), for 2.4's declarations */
struct packet_type {
	unsigned short type; /* htons(ETH_P_*) */
	struct net_device *dev;
	int (*func)(struct sk_buff *, struct net_device *,
		    struct packet_type *);
	void *data;
	struct packet_type *next;
};

#include <linux/interrupt.h>

extern struct net_device *dev_base; /* every registered device */
extern rwlock_t dev_base_lock;

extern struct net_device *dev_get_by_name(const char *name);
extern struct net_device *__dev_get_by_name(const char *name);
extern int dev_get(const char *name);
extern struct net_device *dev_get_by_index(int ifindex);
extern struct net_device *__dev_get_by_index(int ifindex);
extern struct net_device *dev_alloc(const char *name, int *err);
extern int dev_alloc_name(struct net_device *dev, const char *name);
extern int dev_open(struct net_device *dev);
extern int dev_close(struct net_device *dev);
extern int dev_queue_xmit(struct sk_buff *skb);
extern int register_netdevice(struct net_device *dev);
extern int unregister_netdevice(struct net_device *dev);
extern int dev_new_index(void);
extern int dev_change_flags(struct net_device *dev, unsigned flags);

extern void __netif_schedule(struct net_device *dev);

#define HAVE_NETIF_QUEUE

static inline void netif_schedule(struct net_device *dev)
{
	if (!test_bit(__LINK_STATE_XOFF, &dev->state))
		__netif_schedule(dev);
}

static inline void netif_start_queue(struct net_device *dev)
{
	clear_bit(__LINK_STATE_XOFF, &dev->state);
}

/* and what waits on the queue is sent, from NET_TX_SOFTIRQ */
static inline void netif_wake_queue(struct net_device *dev)
{
	if (test_and_clear_bit(__LINK_STATE_XOFF, &dev->state))
		__netif_schedule(dev);
}

static inline void netif_stop_queue(struct net_device *dev)
{
	set_bit(__LINK_STATE_XOFF, &dev->state);
}

static inline int netif_queue_stopped(struct net_device *dev)
{
	return test_bit(__LINK_STATE_XOFF, &dev->state);
}

static inline int netif_running(struct net_device *dev)
{
	return test_bit(__LINK_STATE_START, &dev->state);
}

/* from a hard interrupt: freed later, by NET_TX_SOFTIRQ */
extern void dev_kfree_skb_irq(struct sk_buff *skb);

static inline void dev_kfree_skb_any(struct sk_buff *skb)
{
	if (in_irq())
		dev_kfree_skb_irq(skb);
	else
		dev_kfree_skb(skb);
}

#define HAVE_NETIF_RX 1
extern int netif_rx(struct sk_buff *skb);
extern int netdev_max_backlog;

static inline void dev_init_buffers(struct net_device *dev)
{
}

extern int netdev_finish_unregister(struct net_device *dev);

static inline void dev_put(struct net_device *dev)
{
	if (atomic_dec_and_test(&dev->refcnt))
		netdev_finish_unregister(dev);
}

#define __dev_put(dev) atomic_dec(&(dev)->refcnt)
#define dev_hold(dev) atomic_inc(&(dev)->refcnt)

static inline int netif_carrier_ok(struct net_device *dev)
{
	return !test_bit(__LINK_STATE_NOCARRIER, &dev->state);
}

extern void __netdev_watchdog_up(struct net_device *dev);

static inline void netif_carrier_on(struct net_device *dev)
{
	clear_bit(__LINK_STATE_NOCARRIER, &dev->state);
	if (netif_running(dev))
		__netdev_watchdog_up(dev);
}

static inline void netif_carrier_off(struct net_device *dev)
{
	set_bit(__LINK_STATE_NOCARRIER, &dev->state);
}

static inline int netif_device_present(struct net_device *dev)
{
	return test_bit(__LINK_STATE_PRESENT, &dev->state);
}

static inline void netif_device_detach(struct net_device *dev)
{
	if (test_and_clear_bit(__LINK_STATE_PRESENT, &dev->state) &&
	    netif_running(dev))
		netif_stop_queue(dev);
}

static inline void netif_device_attach(struct net_device *dev)
{
	if (!test_and_set_bit(__LINK_STATE_PRESENT, &dev->state) &&
	    netif_running(dev)) {
		netif_wake_queue(dev);
		__netdev_watchdog_up(dev);
	}
}

/* drivers/net/net_init.c's */
extern void ether_setup(struct net_device *dev);
extern int ether_config(struct net_device *dev, struct ifmap *map);
extern int register_netdev(struct net_device *dev);
extern void unregister_netdev(struct net_device *dev);

/* no protocol keeps a multicast list here: nothing to upload */
static inline void dev_mc_upload(struct net_device *dev)
{
	if (dev->set_multicast_list && (dev->flags & IFF_UP))
		dev->set_multicast_list(dev);
}

#endif /* __KERNEL__ */
#endif /* _LINUX24_NETDEVICE_H */
