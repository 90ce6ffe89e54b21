/*
 * linux/timer.h - timers as 2.4 code arms them.
 *
 * The expires 2.4 code gives add_timer() and mod_timer() is in its own
 * count of jiffies, from 0 at boot (linux/jiffies.h here): these arm
 * the timer for expires + SHIM_INITIAL_JIFFIES of the shim's count, so
 * that it runs when the code's jiffies reach its expires, which reads
 * back as the code set it.
 */
#ifndef _LINUX24_TIMER_H
#define _LINUX24_TIMER_H

#include_next <linux/timer.h>

extern void shim_add_timer24(struct timer_list *timer);
extern int shim_mod_timer24(struct timer_list *timer, unsigned long expires);
#define add_timer shim_add_timer24
#define mod_timer shim_mod_timer24

#endif /* _LINUX24_TIMER_H */
