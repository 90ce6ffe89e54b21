/*
 * printk.c - the log with its levels, the console, BUG, BUG_ON, WARN_ON
 * and panic.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <shim/test.h>
#include "helpers.h"

/* an empty log, and a quiet console: the suite reads the log instead */
static void clear_log(void)
{
	shim_printk_clear();
	shim_printk_set_console_level(0);
}

TestSuite(printk, .timeout = SUITE_TIMEOUT, .init = clear_log);

static const char *read_log(void)
{
	static char log[4096];

	shim_printk_read(log, sizeof(log));
	return log;
}

Test(printk, level_prefix_is_kept)
{
	printk(KERN_ERR "disk on fire\n");
	cr_assert_str_eq(read_log(), "<3>disk on fire\n");
}

Test(printk, no_prefix_means_level_4)
{
	printk("plain %d\n", 42);
	cr_assert_str_eq(read_log(), "<4>plain 42\n");
}

Test(printk, messages_are_kept_in_order)
{
	printk(KERN_DEBUG "one\n");
	printk(KERN_INFO "two\n");
	printk(KERN_EMERG "three\n");
	cr_assert_str_eq(read_log(), "<7>one\n<6>two\n<0>three\n");
}

Test(printk, clear_empties_the_log)
{
	char buf[16] = "garbage";

	printk(KERN_INFO "something\n");
	shim_printk_clear();
	cr_assert_eq(shim_printk_read(buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "");
}

Test(printk, read_into_a_small_buffer_keeps_the_newest)
{
	char buf[6];

	printk("aaaa\n");
	printk("bbbb\n");
	cr_assert_eq(shim_printk_read(buf, sizeof(buf)), 5);
	cr_assert_str_eq(buf, "bbbb\n");
}

static void console_to_pipe(void)
{
	shim_printk_clear();
	cr_redirect_stderr();
}

Test(printk, urgent_messages_reach_the_console, .init = console_to_pipe)
{
	shim_printk_set_console_level(4);
	printk(KERN_ERR "to the console\n");
	printk(KERN_WARNING "log only\n");
	printk(KERN_DEBUG "log only\n");
	fflush(stderr);
	cr_assert_stderr_eq_str("<3>to the console\n");
}

Test(printk, warn_on_prints_and_carries_on)
{
	char want[256];
	int x = 1, ret, line;

	/* the warning must name the line of the WARN_ON, the next one */
	line = __LINE__ + 1;
	ret = WARN_ON(x == 1);
	cr_assert_eq(ret, 1);
	snprintf(want, sizeof(want), "<4>WARNING: at %s:%d %s(): x == 1\n",
		 __FILE__, line, __func__);
	cr_assert_str_eq(read_log(), want);
}

Test(printk, warn_on_false_is_silent)
{
	int x = 0;

	cr_assert_eq(WARN_ON(x == 1), 0);
	cr_assert_str_eq(read_log(), "");
}

Test(printk, bug_on_false_does_nothing)
{
	int broken = 0;

	BUG_ON(broken);
	cr_assert_str_eq(read_log(), "");
}

Test(printk, bug_aborts, .signal = SIGABRT, .init = quiet_console)
{
	BUG();
}

/* BUG_ON here, and say where "here" is */
#define BUG_ON_HERE(cond)                                                  \
	do {                                                               \
		printf("expect: kernel BUG at %s:%d in %s()!\n", __FILE__, \
		       __LINE__, __func__);                                \
		fflush(stdout);                                            \
		BUG_ON(cond);                                              \
	} while (0)

CHILD_SCENARIO(bug_on)
{
	volatile int broken = 1;

	BUG_ON_HERE(broken);
	printf("carried on after BUG_ON\n");
}

Test(printk, bug_on_prints_file_and_line_then_aborts)
{
	struct child_result res;
	char *expect, *nl, want[512];

	run_child("bug_on", NULL, &res);
	expect = strstr(res.out, "expect: ");
	cr_assert_not_null(expect, "%s", res.out);
	nl = strchr(expect, '\n');
	cr_assert_not_null(nl);
	snprintf(want, sizeof(want), "<0>%.*s", (int) (nl - expect - 8),
		 expect + 8);
	cr_assert(strstr(res.out, __FILE__));
	assert_child_bug(&res, want);
	cr_assert_not(strstr(res.out, "carried on"));
}

CHILD_SCENARIO(warn_on)
{
	int x = 3;

	if (WARN_ON(x > 2))
		printf("carried on after WARN_ON\n");
}

Test(printk, warn_on_does_not_crash)
{
	struct child_result res;

	run_child("warn_on", NULL, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "status 0x%x: %s", res.status, res.out);
	assert_child_said(&res, "WARNING: at ");
	assert_child_said(&res, "child_warn_on(): x > 2");
	assert_child_said(&res, "carried on after WARN_ON");
}

CHILD_SCENARIO(panic)
{
	panic("out of %s", "luck");
}

Test(printk, panic_says_why_and_aborts)
{
	struct child_result res;

	run_child("panic", NULL, &res);
	assert_child_bug(&res, "Kernel panic: out of luck");
}

CHILD_SCENARIO(console_levels)
{
	printk(KERN_ERR "an error\n");
	printk(KERN_EMERG "an emergency\n");
}

Test(printk, shim_loglevel_sets_the_console_level)
{
	struct child_result res;

	run_child("console_levels", "SHIM_LOGLEVEL=1", &res);
	cr_assert_str_eq(res.out, "<0>an emergency\n");
	run_child("console_levels", NULL, &res);
	cr_assert_str_eq(res.out, "<3>an error\n<0>an emergency\n");
}
