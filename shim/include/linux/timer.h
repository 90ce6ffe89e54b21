#ifndef _LINUX_TIMER_H
#define _LINUX_TIMER_H

#include <linux/list.h>
#include <linux/jiffies.h>

/*
 * Kernel timers.  Handlers run in timer (softirq) context, one at a time:
 * on the ksoftirqd thread in real time, and in the thread that advances the
 * clock in virtual time.
 */
struct timer_list {
	struct list_head entry; /* .next is NULL when not pending */
	unsigned long expires;
	void (*function)(unsigned long);
	unsigned long data;
	unsigned long shim_seq; /* arming order, to break ties */
};

/* clang-format off */
#define TIMER_INITIALIZER(_function, _expires, _data) {			\
	.entry = { NULL, NULL },					\
	.expires = (_expires),						\
	.function = (_function),					\
	.data = (_data),						\
}
/* clang-format on */

static inline void init_timer(struct timer_list *timer)
{
	timer->entry.next = NULL;
	timer->entry.prev = NULL;
}

extern void add_timer(struct timer_list *timer);
extern int mod_timer(struct timer_list *timer, unsigned long expires);
extern int del_timer(struct timer_list *timer);
extern int del_timer_sync(struct timer_list *timer);
extern int timer_pending(const struct timer_list *timer);

#endif /* _LINUX_TIMER_H */
