/*
 * watchdog.c - the transmit watchdog of 2.4 (net/sched/sch_generic.c).
 *
 * A device with a tx_timeout() has a timer while it is up, every
 * watchdog_timeo jiffies (5 s if the driver set none): if the queue is
 * stopped and nothing was sent for longer than that since trans_start,
 * the driver's tx_timeout() is called, under xmit_lock, in timer
 * context.  An armed timer holds a reference to the device.
 */
#include <linux/kernel.h>
#include <linux/sched.h>

#include "core.h"

static void dev_watchdog(unsigned long arg)
{
	struct net_device *dev = (struct net_device *) arg;

	spin_lock(&dev->xmit_lock);
	if (dev->qdisc && netif_device_present(dev) && netif_running(dev) &&
	    netif_carrier_ok(dev)) {
		if (netif_queue_stopped(dev) &&
		    jiffies - dev->trans_start > dev->watchdog_timeo) {
			printk(KERN_INFO "NETDEV WATCHDOG: %s: transmit timed "
					 "out\n",
			       dev->name);
			net_core_count(tx_timeouts);
			dev->tx_timeout(dev);
		}
		if (!mod_timer(&dev->watchdog_timer,
			       jiffies + dev->watchdog_timeo))
			dev_hold(dev);
	}
	spin_unlock(&dev->xmit_lock);
	dev_put(dev);
}

void dev_watchdog_init(struct net_device *dev)
{
	init_timer(&dev->watchdog_timer);
	dev->watchdog_timer.data = (unsigned long) dev;
	dev->watchdog_timer.function = dev_watchdog;
}

/* with xmit_lock held (or nothing else touching the timer) */
void __netdev_watchdog_up(struct net_device *dev)
{
	if (!dev->tx_timeout)
		return;
	if (dev->watchdog_timeo <= 0)
		dev->watchdog_timeo = 5 * HZ;
	if (!mod_timer(&dev->watchdog_timer, jiffies + dev->watchdog_timeo))
		dev_hold(dev);
}

void dev_watchdog_up(struct net_device *dev)
{
	spin_lock_bh(&dev->xmit_lock);
	__netdev_watchdog_up(dev);
	spin_unlock_bh(&dev->xmit_lock);
}

/* a watchdog running now sees the device stopped and does not re-arm */
void dev_watchdog_down(struct net_device *dev)
{
	spin_lock_bh(&dev->xmit_lock);
	if (del_timer(&dev->watchdog_timer))
		__dev_put(dev);
	spin_unlock_bh(&dev->xmit_lock);
}
