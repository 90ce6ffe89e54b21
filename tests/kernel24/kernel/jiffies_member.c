/*
 * 2.4 code that names a structure member jiffies (2.4.0's cyclades.h
 * did, for its statistics), which the build compiles with jiffies as a
 * plain variable: the member is declared and used as written, and
 * jiffies still reads the clock.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/timer.h>

#include "k24.h"

struct port_times {
	unsigned long jiffies[2]; /* opened, last received */
};

static struct port_times times;

unsigned long k24_jiffies_member(void (*advance)(unsigned long),
				 unsigned long ticks)
{
	times.jiffies[0] = jiffies;
	advance(ticks);
	times.jiffies[1] = jiffies;
	return times.jiffies[1] - times.jiffies[0];
}

unsigned long k24_jiffies_plain(void)
{
	return jiffies;
}
