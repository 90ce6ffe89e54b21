/*
 * clock.c - the clock: jiffies near wrap-around, time_after and friends,
 * virtual time.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(clock, .timeout = SUITE_TIMEOUT);

Test(clock, hz_is_1000)
{
	cr_assert_eq(HZ, 1000);
}

Test(clock, start_near_initial_jiffies_before_the_wrap)
{
	unsigned long j = jiffies;

	/* the test process has just started; 60 s leaves room for a loaded host */
	cr_assert_lt(j - INITIAL_JIFFIES, 60UL * HZ,
		     "jiffies %lu, %lu after INITIAL_JIFFIES", j,
		     j - INITIAL_JIFFIES);
	cr_assert(time_before(j, 0UL), "jiffies wrapped already");
	cr_assert_gt(j, 0UL - 400UL * HZ,
		     "jiffies do not start close to the wrap");
}

Test(clock, time_after_and_before_across_the_wrap)
{
	unsigned long a = INITIAL_JIFFIES;
	unsigned long b = a + 400 * HZ;

	cr_assert_lt(b, a, "b wrapped past zero");
	cr_assert(time_after(b, a));
	cr_assert_not(time_after(a, b));
	cr_assert(time_before(a, b));
	cr_assert_not(time_before(b, a));
	cr_assert(time_after_eq(b, a));
	cr_assert(time_after_eq(b, b));
	cr_assert(time_before_eq(a, b));
	cr_assert(time_before_eq(a, a));
	cr_assert_not(time_after(a, a));
	cr_assert_not(time_before(a, a));
}

Test(clock, real_jiffies_never_go_back)
{
	unsigned long prev = jiffies, now;
	int i;

	for (i = 0; i < 100000; i++) {
		now = jiffies;
		cr_assert(time_after_eq(now, prev));
		prev = now;
	}
}

Test(clock, virtual_clock_starts_at_initial_jiffies_and_moves_only_when_told)
{
	shim_clock_virtual();
	cr_assert(shim_clock_is_virtual());
	cr_assert_eq(jiffies, INITIAL_JIFFIES);
	cr_assert_eq(jiffies, INITIAL_JIFFIES);
	shim_clock_advance(7);
	cr_assert_eq(jiffies, INITIAL_JIFFIES + 7);
	shim_clock_advance(300 * HZ);
	cr_assert_eq(jiffies, 7UL, "virtual jiffies wrap like real ones");
}

Test(clock, advance_on_the_real_clock_is_refused, .init = quiet_console)
{
	char log[512];

	shim_printk_clear();
	cr_assert_not(shim_clock_is_virtual());
	shim_clock_advance(1000 * HZ);
	cr_assert_lt(jiffies - INITIAL_JIFFIES, 900UL * HZ,
		     "the real clock moved");
	shim_printk_read(log, sizeof(log));
	cr_assert(strstr(log, "shim_clock_advance: the clock is real"),
		  "log: %s", log);
}
