/*
 * debug.c - the debugging kernel's checks on sk_buffs (drivers/net-core/
 * skbuff.c), each a one-line diagnostic naming the function and the
 * buffer: freed twice, used after it was freed (BUGs, read back from a
 * child), kfree_skb() in a hard interrupt (a warning, once per call
 * site), and buffers still held at a module's exit.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <shim/test.h>
#include <net-core/net-core.h>
#include "suite.h"
#include "child.h"
#include "n24.h"

static void teardown(void)
{
	shim_quiesce();
	cr_assert_eq(net_core_skbs_held(NULL, 0), 0, "an sk_buff was left");
	cr_assert_eq(shim_kmalloc_outstanding(), 0, "memory was left");
}

TestSuite(skbdebug24, .fini = teardown, .timeout = SUITE_TIMEOUT);

CHILD_SCENARIO(double_free)
{
	void *skb = n24_alloc_skb(64);

	child_note("skb", skb);
	n24_kfree_skb(skb);
	n24_kfree_skb(skb);
}

Test(skbdebug24, a_buffer_freed_twice_is_a_bug_naming_it)
{
	struct child_result res;
	char skb[32];

	run_child("double_free", NULL, &res);
	assert_child_bug(&res, "BUG: kfree_skb(", "from n24_kfree_skb()",
			 "sk_buff freed twice", "allocated by alloc_skb()");
	assert_child_said(&res, child_noted(&res, "skb", skb, sizeof(skb)));
}

CHILD_SCENARIO(use_after_free)
{
	void *skb = n24_alloc_skb(64);

	n24_put(skb, 4);
	n24_kfree_skb(skb);
	n24_put(skb, 4);
}

Test(skbdebug24, a_buffer_used_after_it_was_freed_is_a_bug)
{
	struct child_result res;

	run_child("use_after_free", NULL, &res);
	assert_child_bug(&res, "BUG: skb_put(", "from n24_put()",
			 "sk_buff used after it was freed");
}

CHILD_SCENARIO(use_after_irq_free)
{
	void *skb = n24_alloc_skb(64);

	/* freed in an interrupt: not yet reaped, already no one's */
	n24_free_in_irq(skb, 1);
	n24_clone(skb);
}

Test(skbdebug24, a_buffer_freed_in_an_interrupt_is_no_ones_at_once)
{
	struct child_result res;

	run_child("use_after_irq_free", NULL, &res);
	assert_child_bug(&res, "BUG: skb_clone(",
			 "sk_buff used after it was freed");
}

CHILD_SCENARIO(put_past_end)
{
	void *skb = n24_alloc_skb(16);

	n24_put(skb, 20);
}

Test(skbdebug24, a_put_past_the_end_names_the_function_and_the_sizes)
{
	struct child_result res;

	run_child("put_past_end", NULL, &res);
	assert_child_bug(&res, "skput:over: n24_put:20 put:20 dev:<NULL>",
			 "4 bytes past the end of a 16-byte buffer");
}

Test(skbdebug24, kfree_skb_in_a_hard_interrupt_is_said_once_per_site)
{
	struct net_core_counts before, after;
	char log[4096];

	shim_printk_clear();
	net_core_counts(&before);
	n24_free_in_irq(n24_alloc_skb(16), 0);
	n24_free_in_irq(n24_alloc_skb(16), 0);
	net_core_counts(&after);
	cr_assert_eq(after.irq_frees - before.irq_frees, 2);
	shim_printk_read(log, sizeof(log));
	cr_assert_not_null(strstr(log, "WARNING: kfree_skb("), "%s", log);
	cr_assert_not_null(strstr(log, "from n24_free_in_irq() in a hard "
				       "interrupt"),
			   "%s", log);
	cr_assert_null(strstr(strstr(log, "WARNING: kfree_skb(") + 1,
			      "WARNING: kfree_skb("),
		       "said twice: %s", log);
	cr_assert_eq(net_core_skbs_held(NULL, 0), 0, "freed all the same");
}

Test(skbdebug24, the_irq_variants_are_quiet_and_free_after_the_interrupt)
{
	struct net_core_counts before, after;
	char log[4096];

	shim_printk_clear();
	net_core_counts(&before);
	n24_free_in_irq(n24_alloc_skb(16), 1);
	n24_free_in_irq(n24_alloc_skb(16), 2);
	shim_quiesce();
	net_core_counts(&after);
	cr_assert_eq(after.irq_frees, before.irq_frees);
	shim_printk_read(log, sizeof(log));
	cr_assert_null(strstr(log, "hard interrupt"), "%s", log);
	cr_assert_eq(net_core_skbs_held(NULL, 0), 0,
		     "NET_TX_SOFTIRQ freed them");
}

Test(skbdebug24, buffers_held_at_module_exit_are_named_by_owner)
{
	void *a = n24_leak(), *b = n24_leak(), *c = n24_alloc_skb(8);
	char log[4096], owners[256];

	shim_printk_clear();
	cr_assert_eq(net_core_check_held("module exit"), 3);
	shim_printk_read(log, sizeof(log));
	cr_assert_not_null(strstr(log, "net-core: 3 sk_buff(s) still held "
				       "at module exit: 2 from n24_leak()"),
			   "%s", log);
	n24_kfree_skb(a);
	n24_kfree_skb(b);
	cr_assert_eq(net_core_skbs_held(owners, sizeof(owners)), 1);
	cr_assert_null(strstr(owners, "n24_leak"), "%s", owners);
	n24_kfree_skb(c);
	cr_assert_eq(net_core_check_held("module exit"), 0);
}

CHILD_SCENARIO(held_at_exit)
{
	n24_leak();
}

Test(skbdebug24, buffers_held_when_the_program_ends_are_reported)
{
	struct child_result res;

	run_child("held_at_exit", NULL, &res);
	assert_child_said(&res, "net-core: 1 sk_buff(s) still held at exit: "
				"1 from n24_leak()");
}
