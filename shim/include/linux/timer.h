#ifndef _LINUX_TIMER_H
#define _LINUX_TIMER_H

#include <linux/list.h>
#include <linux/jiffies.h>

/*
 * Kernel timers.  Handlers run in timer (softirq) context, one at a time:
 * on the ksoftirqd thread in real time, and in the thread that advances the
 * clock in virtual time.
 *
 * With the debug checks a pending timer is in the debug-object registry,
 * as debugobjects tracks timer_list: init_timer() of a pending timer,
 * add_timer(), mod_timer() or del_timer() of one that init_timer() never
 * saw (garbage where the list pointers are), and kfree() of memory
 * holding a pending timer are BUGs naming the timer and its function.
 * Zeroed memory is an initialised, idle timer, as it was in 2.5.
 */
struct timer_list {
	struct list_head entry; /* .next is NULL when not pending */
	unsigned long expires;
	void (*function)(unsigned long);
	unsigned long data;
	unsigned long shim_seq;	  /* arming order, to break ties */
	unsigned long shim_armed; /* jiffies when armed: its first tick after */
	unsigned long shim_due;	  /* expires, in the shim's jiffies */
};

/* clang-format off */
#define TIMER_INITIALIZER(_function, _expires, _data) {			\
	.entry = { NULL, NULL },					\
	.expires = (_expires),						\
	.function = (_function),					\
	.data = (_data),						\
}
/* clang-format on */

extern void init_timer(struct timer_list *timer);
extern void add_timer(struct timer_list *timer);
extern int mod_timer(struct timer_list *timer, unsigned long expires);
extern int del_timer(struct timer_list *timer);
extern int del_timer_sync(struct timer_list *timer);
extern int timer_pending(const struct timer_list *timer);

#endif /* _LINUX_TIMER_H */
