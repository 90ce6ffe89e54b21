/*
 * linux/rtnetlink.h - of 2.4's routing netlink, the lock that serialises
 * the configuration of devices (drivers/net-core/dev.c); no messages.
 */
#ifndef _LINUX24_RTNETLINK_H
#define _LINUX24_RTNETLINK_H

#include <linux/netdevice.h>

extern void rtnl_lock(void);
extern void rtnl_unlock(void);

#endif /* _LINUX24_RTNETLINK_H */
