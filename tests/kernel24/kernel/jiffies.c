/*
 * jiffies.c - 2.4 code keeping jiffies as i386 let it: in an int, and in
 * a timer's expires.  For tests/kernel24/jiffies.c.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/timer.h>

#include "k24.h"

unsigned long k24_jiffies(void)
{
	return jiffies;
}

/* isicom.c's wait for its board: the end kept in 32 bits */
unsigned long k24_int_wait(unsigned long ticks)
{
	unsigned long start = jiffies;
	unsigned int i;

	for (i = jiffies + ticks; time_before(jiffies, i);)
		;
	return jiffies - start;
}

static struct timer_list timer;
static int fired;
static unsigned long fired_at;

static void timer_fn(unsigned long data)
{
	fired++;
	fired_at = jiffies;
}

void k24_timer_add(unsigned long ticks)
{
	init_timer(&timer);
	timer.function = timer_fn;
	timer.expires = jiffies + ticks;
	add_timer(&timer);
}

/* the expiry kept in an int first, as 2.4 code did on i386 */
void k24_timer_add_int(unsigned long ticks)
{
	unsigned int when = jiffies + ticks;

	init_timer(&timer);
	timer.function = timer_fn;
	timer.expires = when;
	add_timer(&timer);
}

int k24_timer_mod(unsigned long ticks)
{
	timer.function = timer_fn;
	return mod_timer(&timer, jiffies + ticks);
}

int k24_timer_del(void)
{
	return del_timer(&timer);
}

int k24_timer_pending(void)
{
	return timer_pending(&timer);
}

unsigned long k24_timer_expires(void)
{
	return timer.expires;
}

int k24_timer_fired(unsigned long *at)
{
	*at = fired_at;
	return fired;
}
