/*
 * core.h - what the files of the network core share, and the few host
 * services of the shim they name (<shim/test.h> is the C library's side:
 * 2.4 code declares them itself).
 */
#ifndef _NET_CORE_CORE_H
#define _NET_CORE_CORE_H

#include <linux/netdevice.h>
#include <net-core/net-core.h>

/* the shim's (shim/kallsyms.c, shim/quarantine.c, shim/control.c) */
extern char *shim_symbol(unsigned long addr, char *buf, size_t len);
extern int shim_kmem_freed(const void *addr, char *why, size_t len);
extern int shim_debug_enabled(void);

/* the function holding @addr, without its offset, into @buf */
const char *net_core_function(void *addr, char *buf, size_t len);

/* counted as they happen; read by net_core_counts() */
extern struct net_core_counts net_core_stat;
#define net_core_count(field) \
	__atomic_add_fetch(&net_core_stat.field, 1, __ATOMIC_RELAXED)

/* xmit.c */
void dev_activate(struct net_device *dev);
void dev_deactivate(struct net_device *dev);
int dev_init_scheduler(struct net_device *dev);
void dev_shutdown(struct net_device *dev);
void net_tx_action(struct softirq_action *h);

/* watchdog.c */
void dev_watchdog_init(struct net_device *dev);
void dev_watchdog_up(struct net_device *dev);
void dev_watchdog_down(struct net_device *dev);

/* rx.c: what the backlog holds of @dev is dropped (its unregistration) */
void netif_rx_flush_dev(struct net_device *dev);

#endif /* _NET_CORE_CORE_H */
