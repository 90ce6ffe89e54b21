/*
 * dev.c - the devices of 2.4: the list of them and their names,
 * registration, and up and down as ifconfig takes a device there.
 *
 * Registration and up and down are serialised by the routing netlink
 * lock, rtnl_lock(), which the caller holds as in 2.4 (register_netdev()
 * and unregister_netdev() take it themselves); lookups take dev_base_lock.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <asm/semaphore.h>

#include "core.h"

struct net_device *dev_base;
rwlock_t dev_base_lock = RW_LOCK_UNLOCKED;

static DECLARE_MUTEX(rtnl_sem);

void rtnl_lock(void)
{
	down(&rtnl_sem);
}

void rtnl_unlock(void)
{
	up(&rtnl_sem);
}

struct net_device *__dev_get_by_name(const char *name)
{
	struct net_device *dev;

	for (dev = dev_base; dev; dev = dev->next)
		if (!strncmp(dev->name, name, IFNAMSIZ))
			return dev;
	return NULL;
}

/* the device named @name, held; dev_put() it */
struct net_device *dev_get_by_name(const char *name)
{
	struct net_device *dev;

	read_lock(&dev_base_lock);
	dev = __dev_get_by_name(name);
	if (dev)
		dev_hold(dev);
	read_unlock(&dev_base_lock);
	return dev;
}

int dev_get(const char *name)
{
	struct net_device *dev;

	read_lock(&dev_base_lock);
	dev = __dev_get_by_name(name);
	read_unlock(&dev_base_lock);
	return dev != NULL;
}

struct net_device *__dev_get_by_index(int ifindex)
{
	struct net_device *dev;

	for (dev = dev_base; dev; dev = dev->next)
		if (dev->ifindex == ifindex)
			return dev;
	return NULL;
}

struct net_device *dev_get_by_index(int ifindex)
{
	struct net_device *dev;

	read_lock(&dev_base_lock);
	dev = __dev_get_by_index(ifindex);
	if (dev)
		dev_hold(dev);
	read_unlock(&dev_base_lock);
	return dev;
}

int dev_new_index(void)
{
	static int ifindex;

	for (;;) {
		if (++ifindex <= 0)
			ifindex = 1;
		if (!__dev_get_by_index(ifindex))
			return ifindex;
	}
}

/*
 * dev_alloc_name - the first free name of @name's pattern ("eth%d":
 * eth0, eth1 ...) into dev->name; the unit, or -ENFILE past 99.  Under
 * rtnl_lock(), so that the name is still free at registration.
 */
int dev_alloc_name(struct net_device *dev, const char *name)
{
	char buf[32];
	int i;

	for (i = 0; i < 100; i++) {
		snprintf(buf, sizeof(buf), name, i);
		if (!__dev_get_by_name(buf)) {
			strncpy(dev->name, buf, IFNAMSIZ - 1);
			dev->name[IFNAMSIZ - 1] = '\0';
			return i;
		}
	}
	return -ENFILE;
}

struct net_device *dev_alloc(const char *name, int *err)
{
	struct net_device *dev = kmalloc(sizeof(*dev), GFP_KERNEL);

	if (!dev) {
		*err = -ENOBUFS;
		return NULL;
	}
	memset(dev, 0, sizeof(*dev));
	*err = dev_alloc_name(dev, name);
	if (*err < 0) {
		kfree(dev);
		return NULL;
	}
	return dev;
}

/*
 * register_netdevice - @dev on the list, present and down: its init()
 * (the probe) first, which may refuse it.  Under rtnl_lock().  0, -EEXIST
 * if its name is taken, or init()'s error.
 */
int register_netdevice(struct net_device *dev)
{
	struct net_device **dp;
	int ret;

	spin_lock_init(&dev->queue_lock);
	spin_lock_init(&dev->xmit_lock);
	dev->xmit_lock_owner = -1;
	if (dev->init) {
		ret = dev->init(dev);
		if (ret)
			return ret;
	}
	if (__dev_get_by_name(dev->name))
		return -EEXIST;
	ret = dev_init_scheduler(dev);
	if (ret)
		return ret;
	dev->ifindex = dev_new_index();
	if (dev->iflink == 0)
		dev->iflink = dev->ifindex;
	set_bit(__LINK_STATE_PRESENT, &dev->state);
	dev->next = NULL;
	dev->deadbeaf = 0;
	atomic_set(&dev->refcnt, 0);
	write_lock_bh(&dev_base_lock);
	for (dp = &dev_base; *dp; dp = &(*dp)->next)
		;
	*dp = dev;
	dev_hold(dev); /* the list's */
	write_unlock_bh(&dev_base_lock);
	return 0;
}

/* the last reference went: the driver's destructor, or its memory */
int netdev_finish_unregister(struct net_device *dev)
{
	if (!dev->deadbeaf) {
		printk(KERN_ERR "Freeing alive device %p, %s\n", dev,
		       dev->name);
		return 0;
	}
	if (dev->destructor)
		dev->destructor(dev);
	if (dev->features & NETIF_F_DYNALLOC)
		kfree(dev);
	return 0;
}

/*
 * unregister_netdevice - down if up, off the list, its queues emptied;
 * uninit() called.  Under rtnl_lock().  2.4 then waited for the last
 * reference; here it waits a while and says whose is missing.
 */
int unregister_netdevice(struct net_device *dev)
{
	struct net_device **dp;
	int tries;

	if (dev->flags & IFF_UP)
		dev_close(dev);
	write_lock_bh(&dev_base_lock);
	for (dp = &dev_base; *dp && *dp != dev; dp = &(*dp)->next)
		;
	if (!*dp) {
		write_unlock_bh(&dev_base_lock);
		printk(KERN_ERR "unregister_netdevice: device %s/%p never "
				"was registered\n",
		       dev->name, dev);
		return -ENODEV;
	}
	*dp = dev->next;
	dev->deadbeaf = 1;
	write_unlock_bh(&dev_base_lock);

	netif_rx_flush_dev(dev);
	dev_shutdown(dev);
	if (dev->uninit)
		dev->uninit(dev);
	/* a frame being delivered still holds it: let it finish */
	for (tries = 0; atomic_read(&dev->refcnt) > 1 && tries < 1000; tries++)
		yield();
	if (atomic_read(&dev->refcnt) > 1)
		printk(KERN_WARNING "unregister_netdevice: waiting for %s to "
				    "become free. Usage count = %d\n",
		       dev->name, atomic_read(&dev->refcnt));
	dev_put(dev);
	return 0;
}

/*
 * dev_open - ifconfig up: the driver's open(), then the device is
 * running (__LINK_STATE_START, IFF_UP), its queue and watchdog started.
 * Under rtnl_lock().  open()'s error, or -ENODEV if detached.
 */
int dev_open(struct net_device *dev)
{
	int ret = 0;

	if (dev->flags & IFF_UP)
		return 0;
	if (!netif_device_present(dev))
		return -ENODEV;
	if (dev->open) {
		if (dev->owner)
			__MOD_INC_USE_COUNT(dev->owner);
		ret = dev->open(dev);
		if (ret && dev->owner)
			__MOD_DEC_USE_COUNT(dev->owner);
	}
	if (ret)
		return ret;
	dev->flags |= IFF_UP;
	set_bit(__LINK_STATE_START, &dev->state);
	dev_mc_upload(dev);
	dev_activate(dev);
	return 0;
}

/*
 * dev_close - ifconfig down: no longer running, its queue emptied and
 * its watchdog stopped, then the driver's stop().  Under rtnl_lock().
 */
int dev_close(struct net_device *dev)
{
	if (!(dev->flags & IFF_UP))
		return 0;
	/* first, so that a watchdog running now does not re-arm */
	clear_bit(__LINK_STATE_START, &dev->state);
	dev_deactivate(dev);
	if (dev->stop)
		dev->stop(dev);
	dev->flags &= ~IFF_UP;
	if (dev->owner)
		__MOD_DEC_USE_COUNT(dev->owner);
	return 0;
}

/* SIOCSIFFLAGS: IFF_UP opens or closes; the rest is taken as it is */
int dev_change_flags(struct net_device *dev, unsigned flags)
{
	int ret = 0;

	dev->flags =
		(flags & (IFF_DEBUG | IFF_NOTRAILERS | IFF_NOARP | IFF_DYNAMIC |
			  IFF_MULTICAST | IFF_PORTSEL | IFF_AUTOMEDIA)) |
		(dev->flags &
		 (IFF_UP | IFF_VOLATILE | IFF_PROMISC | IFF_ALLMULTI));
	if ((flags ^ dev->flags) & IFF_UP)
		ret = (flags & IFF_UP) ? dev_open(dev) : dev_close(dev);
	if (!ret)
		dev_mc_upload(dev);
	return ret;
}

const char *if_port_text[] = { "unknown",  "BNC",	"10baseT",  "AUI",
			       "100baseT", "100baseTX", "100baseFX" };
