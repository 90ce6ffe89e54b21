/*
 * eth.c - Ethernet's header, as 2.4's net/ethernet/eth.c built and read
 * it for its drivers.  No ARP here: a header whose destination is not
 * known is sent to the broadcast address.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/etherdevice.h>

#include "core.h"

/*
 * eth_header - push the header: @type (host order; the length for
 * 802.3's), the source (@saddr or the device's) and @daddr; the header's
 * length, negated if the destination is still to be resolved.
 */
int eth_header(struct sk_buff *skb, struct net_device *dev, unsigned short type,
	       void *daddr, void *saddr, unsigned len)
{
	struct ethhdr *eth = (struct ethhdr *) skb_push(skb, ETH_HLEN);

	if (type != ETH_P_802_3)
		eth->h_proto = htons(type);
	else
		eth->h_proto = htons(len);
	memcpy(eth->h_source, saddr ? saddr : dev->dev_addr, dev->addr_len);
	if (dev->flags & (IFF_LOOPBACK | IFF_NOARP)) {
		memset(eth->h_dest, 0, dev->addr_len);
		return dev->hard_header_len;
	}
	if (daddr) {
		memcpy(eth->h_dest, daddr, dev->addr_len);
		return dev->hard_header_len;
	}
	return -dev->hard_header_len;
}

/* no neighbour table: the frame goes to everyone */
int eth_rebuild_header(struct sk_buff *skb)
{
	struct ethhdr *eth = (struct ethhdr *) skb->data;

	memcpy(eth->h_dest, skb->dev->broadcast, ETH_ALEN);
	return 0;
}

/*
 * eth_type_trans - for a driver's receive path: the MAC header noted and
 * pulled, the frame classed (broadcast, multicast, someone else's), its
 * protocol returned in network order for skb->protocol.  Below 1536 it
 * is a length: 802.3, Novell's raw 802.3 if FFFF follows, else 802.2.
 */
unsigned short eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
	struct ethhdr *eth;
	unsigned char *rawp;

	skb->mac.raw = skb->data;
	skb_pull(skb, dev->hard_header_len);
	eth = skb->mac.ethernet;
	if (*eth->h_dest & 1) {
		if (!memcmp(eth->h_dest, dev->broadcast, ETH_ALEN))
			skb->pkt_type = PACKET_BROADCAST;
		else
			skb->pkt_type = PACKET_MULTICAST;
	} else if (memcmp(eth->h_dest, dev->dev_addr, ETH_ALEN)) {
		skb->pkt_type = PACKET_OTHERHOST;
	}
	if (ntohs(eth->h_proto) >= 1536)
		return eth->h_proto;
	rawp = skb->data;
	if (*(unsigned short *) rawp == 0xFFFF)
		return htons(ETH_P_802_3);
	return htons(ETH_P_802_2);
}

int eth_header_parse(struct sk_buff *skb, unsigned char *haddr)
{
	memcpy(haddr, skb->mac.ethernet->h_source, ETH_ALEN);
	return ETH_ALEN;
}

/* no neighbour table, so no cached headers */
int eth_header_cache(struct neighbour *neigh, struct hh_cache *hh)
{
	return -1;
}

void eth_header_cache_update(struct hh_cache *hh, struct net_device *dev,
			     unsigned char *haddr)
{
}
