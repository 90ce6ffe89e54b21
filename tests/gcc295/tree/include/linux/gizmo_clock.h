/*
 * A header of the test's 2.4 tree: jiffies as a parameter's name, as
 * 2.4's linux/time.h has it (jiffies_to_timespec), and a type of 2.4's
 * linux/types.h the C library has too.  And a merge left unresolved, as
 * some published copies of 2.4 trees hold (2.4.0's include/net/dst.h in
 * one): its two sides differ in whitespace only.
 */
#ifndef _LINUX_GIZMO_CLOCK_H
#define _LINUX_GIZMO_CLOCK_H

#include <linux/types.h>
#include <asm/param.h>

struct gizmo_stamp {
	time_t		sec;
	suseconds_t	usec;
};

<<<<<<< HEAD
static __inline__ unsigned long
gizmo_ticks_to_ms(unsigned long jiffies)
{
	return jiffies * 1000 / HZ;
}
=======
static __inline__ unsigned long
gizmo_ticks_to_ms(unsigned long  jiffies)
{
	return jiffies * 1000 / HZ;
}
>>>>>>> 0123456789abcdef0123456789abcdef01234567

#endif /* _LINUX_GIZMO_CLOCK_H */
