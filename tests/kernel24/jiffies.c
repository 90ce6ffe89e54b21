/*
 * jiffies.c - 2.4 code counts jiffies as i386 did, from 0 at boot, so
 * that a value it keeps in an int compares as there (isicom.c's wait
 * for its board), and its timers run when its count reaches their
 * expires, which reads back as it set it; the shim's own jiffies (this
 * file's) keep their start near the wrap.  The 2.4 code is
 * kernel/jiffies.c.
 */
#include <criterion/criterion.h>

#include <linux/jiffies.h>
#include <linux/timer.h>
#include <shim/test.h>
#include "suite.h"
#include "k24.h"

TestSuite(jiffies24, .timeout = SUITE_TIMEOUT);

Test(jiffies24, count_from_zero_at_boot_beside_the_shims)
{
	shim_clock_virtual();
	cr_assert_eq(k24_jiffies(), 0);
	cr_assert_eq(k24_jiffies_plain(), 0, "the plain variable alike");
	cr_assert_eq(jiffies, INITIAL_JIFFIES, "the shim's own start moved");
	shim_clock_advance(7);
	cr_assert_eq(k24_jiffies(), 7);
	cr_assert_eq(k24_jiffies_plain(), 7);
	cr_assert_eq(jiffies, INITIAL_JIFFIES + 7);
}

Test(jiffies24, a_wait_whose_end_is_kept_in_an_int_ends)
{
	shim_clock_virtual();
	shim_clock_advance(50);
	cr_assert_eq(k24_int_wait(HZ / 100), HZ / 100);
}

Test(jiffies24, a_wait_whose_end_is_kept_in_an_int_ends_in_real_time)
{
	cr_assert_geq(k24_int_wait(HZ / 100), HZ / 100);
}

static int shim_fired;
static unsigned long shim_fired_at;

static void shim_timer_fn(unsigned long data)
{
	shim_fired++;
	shim_fired_at = jiffies;
}

Test(jiffies24, a_timer_runs_after_its_ticks_with_its_expires_as_set)
{
	struct timer_list mine;
	unsigned long at, next;

	shim_clock_virtual();
	shim_clock_advance(50);
	k24_timer_add(10);
	cr_assert_eq(k24_timer_expires(), 60, "expires reads back as set");
	cr_assert(k24_timer_pending());
	/* the shim's timer for the same tick: they run together */
	init_timer(&mine);
	mine.function = shim_timer_fn;
	mine.expires = jiffies + 10;
	add_timer(&mine);
	cr_assert(shim_timer_next(&next));
	cr_assert_eq(next, INITIAL_JIFFIES + 60, "due in the shim's jiffies");

	shim_clock_advance(9);
	cr_assert_eq(k24_timer_fired(&at), 0, "ran a tick early");
	cr_assert(k24_timer_pending());
	cr_assert_eq(shim_fired, 0);
	shim_clock_advance(1);
	cr_assert_eq(k24_timer_fired(&at), 1);
	cr_assert_eq(at, 60, "ran at jiffies %lu", at);
	cr_assert_not(k24_timer_pending());
	cr_assert_eq(k24_timer_expires(), 60);
	cr_assert_eq(shim_fired, 1);
	cr_assert_eq(shim_fired_at, INITIAL_JIFFIES + 60);
}

Test(jiffies24, a_timer_whose_expiry_was_kept_in_an_int)
{
	unsigned long at;

	shim_clock_virtual();
	shim_clock_advance(50);
	k24_timer_add_int(10);
	shim_clock_advance(9);
	cr_assert_eq(k24_timer_fired(&at), 0, "ran a tick early");
	shim_clock_advance(1);
	cr_assert_eq(k24_timer_fired(&at), 1, "did not run in its tick");
	cr_assert_eq(at, 60);
}

Test(jiffies24, mod_timer_del_timer_and_timer_pending)
{
	unsigned long at;

	shim_clock_virtual();
	shim_clock_advance(50);
	cr_assert_eq(k24_timer_mod(5), 0, "was not pending");
	cr_assert(k24_timer_pending());
	cr_assert_eq(k24_timer_expires(), 55);
	cr_assert_eq(k24_timer_mod(20), 1, "was pending");
	cr_assert_eq(k24_timer_expires(), 70);
	shim_clock_advance(10);
	cr_assert_eq(k24_timer_fired(&at), 0, "ran at its first expiry");
	shim_clock_advance(9);
	cr_assert_eq(k24_timer_fired(&at), 0, "ran a tick early");
	shim_clock_advance(1);
	cr_assert_eq(k24_timer_fired(&at), 1);
	cr_assert_eq(at, 70);
	cr_assert_not(k24_timer_pending());
	cr_assert_eq(k24_timer_del(), 0, "was not pending");

	k24_timer_add(3);
	cr_assert(k24_timer_pending());
	cr_assert_eq(k24_timer_del(), 1, "was pending");
	cr_assert_not(k24_timer_pending());
	shim_clock_advance(10);
	cr_assert_eq(k24_timer_fired(&at), 1, "a deleted timer ran");
}
