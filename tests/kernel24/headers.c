/*
 * headers.c - the 2.4 headers (shim/include-2.4) do what 2.4's did: a
 * module's init and exit and use count, the global interrupt lock's
 * macros, user memory, pages, device numbers, regions, i386's termios
 * ABI, jiffies in a busy wait.  The 2.4 code is kernel/headers.c.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <shim/test.h>
#include <shim/modparam.h>
#include "suite.h"
#include "k24.h"

TestSuite(headers, .timeout = SUITE_TIMEOUT);

Test(headers, module_init_and_exit_are_the_modules_init_module_and_cleanup)
{
	int in_use, inits, exits;

	cr_assert_eq(shim_modparam_set("param", "7"), 0,
		     "MODULE_PARM recorded it");
	cr_assert_eq(k24_module(&in_use, &inits, &exits), 7);
	cr_assert_eq(inits, 1);
	cr_assert_eq(exits, 1);
	cr_assert_eq(in_use, 1, "MOD_INC_USE_COUNT counts in THIS_MODULE");
}

Test(headers, save_flags_cli_restore_flags_are_the_global_lock)
{
	unsigned long before, inside, restored;

	k24_flags(&before, &inside, &restored);
	cr_assert_eq(before, 1);
	cr_assert_eq(inside, 0, "after cli(), the holder's flags");
	cr_assert_eq(restored, 1);
}

Test(headers, user_memory_is_the_callers_and_page_zero_faults)
{
	char buf[8] = { 0 };
	unsigned long not_copied;
	int get;

	cr_assert_eq(k24_uaccess(buf, &not_copied, &get), 0);
	cr_assert_str_eq(buf, "2.4");
	cr_assert_eq(not_copied, 3, "copy_to_user(NULL) copied nothing");
	cr_assert_eq(get, -14, "get_user() from page 0: -EFAULT");
}

Test(headers, get_user_reads_through_a_const_pointer)
{
	static const unsigned char text[] = "AT";
	int c = 0;

	cr_assert_eq(k24_get_const(text, &c), 0);
	cr_assert_eq(c, 'T');
	cr_assert_eq(k24_get_const(NULL, &c), -14);
	cr_assert_eq(c, 0, "what get_user() could not read is 0");
}

Test(headers, an_address_past_the_user_half_faults)
{
	unsigned long not_copied;
	int zeroed, get, v;

	v = k24_uaccess_high(&not_copied, &zeroed, &get);
	cr_assert_eq(not_copied, 8, "a seeded word taken for a pointer");
	cr_assert(zeroed, "what was not copied is zeroed, as 2.4 did");
	cr_assert_eq(get, -14);
	cr_assert_eq(v, 0);
}

Test(headers, pages_are_counted_zeroed_and_freed)
{
	long before = shim_kmalloc_outstanding(), with;

	cr_assert(k24_pages(&with), "get_free_page() gives a zeroed page");
	cr_assert_eq(with, before + 2);
	cr_assert_eq(shim_kmalloc_outstanding(), before);
}

Test(headers, device_numbers_regions_and_the_abi)
{
	cr_assert_str_eq(k24_kdevname(), "04:40");
	cr_assert_eq(k24_regions(), 0);
	cr_assert(k24_abi(), "i386's termios, ioctls and speeds of 2.4");
}

Test(headers, a_busy_wait_on_jiffies_ends_in_virtual_time)
{
	shim_clock_virtual();
	cr_assert_eq(k24_busy_wait_ticks(3), 3);
}

Test(headers, a_member_named_jiffies_compiles_and_jiffies_still_move)
{
	shim_clock_virtual();
	cr_assert_eq(k24_jiffies_member(shim_clock_advance, 7), 7);
}

Test(headers, no_proc_entry_is_made_and_the_root_links)
{
	/* 2.4 drivers take NULL for "no /proc" (ip2main.c says so, goes on) */
	cr_assert(k24_proc());
}
