/*
 * net_init.c - what 2.4.0's drivers/net/net_init.c gave Ethernet drivers:
 * the generic Ethernet set-up, init_etherdev(), and registration that
 * names the device from a pattern.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>

#include "core.h"

static int eth_mac_addr(struct net_device *dev, void *p)
{
	struct sockaddr *addr = p;

	if (netif_running(dev))
		return -EBUSY;
	memcpy(dev->dev_addr, addr->sa_data, dev->addr_len);
	return 0;
}

static int eth_change_mtu(struct net_device *dev, int new_mtu)
{
	if (new_mtu < 68 || new_mtu > 1500)
		return -EINVAL;
	dev->mtu = new_mtu;
	return 0;
}

/* ether_setup - Ethernet's values for the fields a driver leaves alone */
void ether_setup(struct net_device *dev)
{
	dev->change_mtu = eth_change_mtu;
	dev->hard_header = eth_header;
	dev->rebuild_header = eth_rebuild_header;
	dev->set_mac_address = eth_mac_addr;
	dev->hard_header_cache = eth_header_cache;
	dev->header_cache_update = eth_header_cache_update;
	dev->hard_header_parse = eth_header_parse;

	dev->type = ARPHRD_ETHER;
	dev->hard_header_len = ETH_HLEN;
	dev->mtu = 1500;
	dev->addr_len = ETH_ALEN;
	dev->tx_queue_len = 100;
	memset(dev->broadcast, 0xFF, ETH_ALEN);
	dev->flags = IFF_BROADCAST | IFF_MULTICAST;
	dev_init_buffers(dev);
}

/* ifconfig's map: what is not -1 is set */
int ether_config(struct net_device *dev, struct ifmap *map)
{
	if (map->mem_start != (u_long) (-1))
		dev->mem_start = map->mem_start;
	if (map->mem_end != (u_long) (-1))
		dev->mem_end = map->mem_end;
	if (map->base_addr != (u_short) (-1))
		dev->base_addr = map->base_addr;
	if (map->irq != (u_char) (-1))
		dev->irq = map->irq;
	if (map->dma != (u_char) (-1))
		dev->dma = map->dma;
	if (map->port != (u_char) (-1))
		dev->if_port = map->port;
	return 0;
}

/*
 * init_etherdev - @dev, or a new one (zeroed, @sizeof_priv of private
 * data 32-byte aligned behind it, and registered), named from "eth%d"
 * if it has no name, set up by ether_setup().  NULL if memory or names
 * ran out.
 */
struct net_device *init_etherdev(struct net_device *dev, int sizeof_priv)
{
	int new_device = 0;

	if (!dev) {
		int size = sizeof(*dev) + sizeof_priv + 31;

		dev = kmalloc(size, GFP_KERNEL);
		if (!dev) {
			printk(KERN_ERR "alloc_dev: Unable to allocate device "
					"memory.\n");
			return NULL;
		}
		memset(dev, 0, size);
		if (sizeof_priv)
			dev->priv = (void *) (((long) (dev + 1) + 31) & ~31);
		new_device = 1;
	}
	rtnl_lock();
	if (dev->name[0] == '\0' || dev->name[0] == ' ') {
		strcpy(dev->name, "eth%d");
		if (dev_alloc_name(dev, "eth%d") < 0) {
			rtnl_unlock();
			if (new_device)
				kfree(dev);
			return NULL;
		}
	}
	ether_setup(dev);
	if (new_device)
		register_netdevice(dev);
	rtnl_unlock();
	return dev;
}

/*
 * register_netdev - register_netdevice() under rtnl_lock(), the name
 * made first if it is a pattern ("isdn%d") or empty ("eth%d", 2.4's
 * back compatibility).  0, -EBUSY if no name was free, -EIO if
 * registration failed.
 */
int register_netdev(struct net_device *dev)
{
	int err = -EBUSY;

	rtnl_lock();
	if (strchr(dev->name, '%') && dev_alloc_name(dev, dev->name) < 0)
		goto out;
	if ((dev->name[0] == '\0' || dev->name[0] == ' ') &&
	    dev_alloc_name(dev, "eth%d") < 0)
		goto out;
	err = register_netdevice(dev) ? -EIO : 0;
out:
	rtnl_unlock();
	return err;
}

void unregister_netdev(struct net_device *dev)
{
	rtnl_lock();
	unregister_netdevice(dev);
	rtnl_unlock();
}
