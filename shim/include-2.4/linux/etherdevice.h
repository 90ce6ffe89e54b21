/*
 * linux/etherdevice.h - Ethernet's helpers of 2.4.0 (net/ethernet/eth.c
 * and drivers/net/net_init.c there; drivers/net-core/eth.c here).
 * 2.4.0 had init_etherdev(); alloc_etherdev() came later in 2.4.
 */
#ifndef _LINUX24_ETHERDEVICE_H
#define _LINUX24_ETHERDEVICE_H

#include <linux/if_ether.h>

#ifdef __KERNEL__
#include <linux/netdevice.h>
#include <linux/string.h>

extern int eth_header(struct sk_buff *skb, struct net_device *dev,
		      unsigned short type, void *daddr, void *saddr,
		      unsigned len);
extern int eth_rebuild_header(struct sk_buff *skb);
extern unsigned short eth_type_trans(struct sk_buff *skb,
				     struct net_device *dev);
extern void eth_header_cache_update(struct hh_cache *hh, struct net_device *dev,
				    unsigned char *haddr);
extern int eth_header_cache(struct neighbour *neigh, struct hh_cache *hh);
extern int eth_header_parse(struct sk_buff *skb, unsigned char *haddr);
extern struct net_device *init_etherdev(struct net_device *dev,
					int sizeof_priv);

/* a copy: no checksum is computed on the way, as on i386 */
static inline void eth_copy_and_sum(struct sk_buff *dest, unsigned char *src,
				    int len, int base)
{
	memcpy(dest->data, src, len);
}

#endif /* __KERNEL__ */
#endif /* _LINUX24_ETHERDEVICE_H */
