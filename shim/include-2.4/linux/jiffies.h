/*
 * linux/jiffies.h - jiffies as 2.4 code reads them.
 *
 * 2.4 had no such header: jiffies was a volatile variable the timer
 * interrupt moved, and drivers waited for time by reading it in a loop.
 * Each read here is the shim's jiffies, and counts towards a busy wait
 * (shim_jiffies_polled(), shim/time.c), so that such a loop sees time
 * move in virtual time and in a controlled run.
 *
 * 2.4 ran on i386, where jiffies were 32 bits and 0 at boot, and its
 * drivers keep them in ints: isicom.c waits with "unsigned int i; for
 * (i = jiffies + HZ/100; time_before(jiffies, i);)", which never ends
 * on the shim's 64-bit count, five minutes before its wrap (i lands
 * 2^32 ticks ahead).  So 2.4 code counts from 0 at boot
 * (INITIAL_JIFFIES is 0 here), as i386 did for the 49 days before its
 * wrap, which no run reaches; the shim's count is SHIM_INITIAL_JIFFIES
 * more, and the timers 2.4 code arms are moved by as much
 * (linux/timer.h here).
 */
#ifndef _LINUX24_JIFFIES_H
#define _LINUX24_JIFFIES_H

#include_next <linux/jiffies.h>

#undef INITIAL_JIFFIES
#define INITIAL_JIFFIES 0UL

#define __jiffies_str(x) #x
#define __jiffies_line(x) __jiffies_str(x)

#undef jiffies
#ifdef SHIM_JIFFIES_PLAIN
/*
 * Code that names a member jiffies too (the build says so, having seen
 * ->jiffies or .jiffies in it): jiffies is one identifier, a variable
 * the clock keeps current, in 2.4's count, so that the member's
 * declaration and its uses read alike; a busy wait on it in such code
 * is not seen.
 */
extern volatile unsigned long shim_jiffies_plain;
#define jiffies shim_jiffies_plain
#else
extern unsigned long shim_jiffies_polled(const char *site);
#define jiffies                                                       \
	(shim_jiffies_polled(__FILE__ ":" __jiffies_line(__LINE__)) - \
	 SHIM_INITIAL_JIFFIES)
#endif

#endif /* _LINUX24_JIFFIES_H */
