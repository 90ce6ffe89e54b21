#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

#include <asm/param.h>

/*
 * jiffies counts ticks of HZ per second.  It is read-only to kernel code:
 * it reads the clock (real: the monotonic clock; virtual: what a test set).
 * It starts five minutes before it wraps, so that code comparing jiffies
 * without time_after() fails in tests as it would have failed in 2002.
 * 2.4 code counts from 0 (shim/include-2.4/linux/jiffies.h), and names
 * the shim's start SHIM_INITIAL_JIFFIES.
 */
#define SHIM_INITIAL_JIFFIES ((unsigned long) -(300L * HZ))
#define INITIAL_JIFFIES SHIM_INITIAL_JIFFIES
#define MAX_JIFFY_OFFSET ((~0UL >> 1) - 1)

extern unsigned long shim_jiffies(void);
#define jiffies (shim_jiffies())

#define time_after(a, b) ((long) (b) - (long) (a) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long) (a) - (long) (b) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)

#endif /* _LINUX_JIFFIES_H */
