/*
 * irq.c - interrupt lines as 2.4 had them (world/irq.h): shared lines,
 * disable and enable with a held raise, autodetection, the lines with a
 * handler; and the device raising its line when probed.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <linux/interrupt.h>
#include <linux/errno.h>
#include <shim/test.h>
#include <world/irq.h>
#include "child.h"
#include "suite.h"

static char order[64];
static int calls[4];

static void handler(int irq, void *dev_id, struct pt_regs *regs)
{
	int who = (int) (long) dev_id;

	calls[who]++;
	strncat(order,
		who == 1 ? "a" :
		who == 2 ? "b" :
			   "c",
		sizeof(order) - strlen(order) - 1);
}

TestSuite(irq, .timeout = SUITE_TIMEOUT);

Test(irq, a_shared_line_calls_every_handler_and_frees_by_dev_id)
{
	cr_assert_eq(request_irq(9, handler, SA_SHIRQ, "a", (void *) 1L), 0);
	cr_assert_eq(request_irq(9, handler, SA_SHIRQ, "b", (void *) 2L), 0);
	cr_assert_eq(sim_raise_irq(9), 1);
	cr_assert_str_eq(order, "ab", "each, in the order requested");
	cr_assert_eq(sim_irq_count(9), 1, "one interrupt");
	free_irq(9, (void *) 1L);
	sim_raise_irq(9);
	cr_assert_str_eq(order, "abb");
	free_irq(9, (void *) 2L);
	cr_assert_eq(sim_raise_irq(9), 0, "no handler left");
	cr_assert_eq(sim_irq_requests(9), 2);
}

Test(irq, a_line_is_shared_only_if_every_handler_agrees)
{
	cr_assert_eq(request_irq(5, handler, 0, "a", (void *) 1L), 0);
	cr_assert_eq(request_irq(5, handler, SA_SHIRQ, "b", (void *) 2L),
		     -EBUSY);
	cr_assert_eq(request_irq(7, handler, SA_SHIRQ, "a", (void *) 1L), 0);
	cr_assert_eq(request_irq(7, handler, SA_INTERRUPT, "b", (void *) 2L),
		     -EBUSY);
	cr_assert_eq(request_irq(NR_SIM_IRQS, handler, 0, "c", NULL), -EINVAL);
	sim_raise_irq(5);
	sim_raise_irq(7);
	cr_assert_str_eq(order, "aa");
}

CHILD_SCENARIO(free_wrong_dev_id)
{
	child_check(!request_irq(4, handler, SA_SHIRQ, "a", (void *) 1L));
	free_irq(4, (void *) 2L);
	child_check(sim_raise_irq(4) == 1 && calls[1] == 1);
}

Test(irq, freeing_a_dev_id_not_there_says_so_and_frees_nothing)
{
	struct child_result res;

	run_child("free_wrong_dev_id", CHILD_ALL_PRINTK, &res);
	cr_assert(WIFEXITED(res.status) && !WEXITSTATUS(res.status), "%s",
		  res.out);
	assert_child_said(&res, "Trying to free free IRQ4");
}

Test(irq, a_disabled_line_holds_its_raise_until_enabled)
{
	cr_assert_eq(request_irq(3, handler, 0, "a", (void *) 1L), 0);
	disable_irq(3);
	cr_assert_eq(sim_raise_irq(3), 1, "taken, to be delivered");
	sim_raise_irq(3);
	cr_assert_eq(calls[1], 0);
	disable_irq_nosync(3);
	enable_irq(3);
	cr_assert_eq(calls[1], 0, "still disabled: the nesting counts");
	enable_irq(3);
	cr_assert_eq(calls[1], 1, "delivered once at the enable");
	sim_raise_irq(3);
	cr_assert_eq(calls[1], 2, "enabled: at once");
}

CHILD_SCENARIO(enable_unbalanced)
{
	child_check(!request_irq(3, handler, 0, "a", (void *) 1L));
	enable_irq(3);
}

Test(irq, an_unbalanced_enable_says_so)
{
	struct child_result res;

	run_child("enable_unbalanced", CHILD_ALL_PRINTK, &res);
	assert_child_said(&res, "enable_irq(3) unbalanced");
}

static int started, release, finished, seen;

static void slow_handler(int irq, void *dev_id, struct pt_regs *regs)
{
	__atomic_store_n(&started, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&release, __ATOMIC_SEQ_CST))
		;
	__atomic_store_n(&finished, 1, __ATOMIC_SEQ_CST);
}

static void raiser(void *arg)
{
	sim_raise_irq(6);
}

static void disabler(void *arg)
{
	disable_irq(6);
	__atomic_store_n(&seen, __atomic_load_n(&finished, __ATOMIC_SEQ_CST),
			 __ATOMIC_SEQ_CST);
}

Test(irq, disable_irq_waits_for_a_running_handler)
{
	struct shim_thread *r, *d;

	cr_assert_eq(request_irq(6, slow_handler, 0, "slow", NULL), 0);
	r = shim_thread_start("raiser", raiser, NULL);
	while (!__atomic_load_n(&started, __ATOMIC_SEQ_CST))
		;
	d = shim_thread_start("disabler", disabler, NULL);
	__atomic_store_n(&release, 1, __ATOMIC_SEQ_CST);
	shim_thread_join(d);
	shim_thread_join(r);
	cr_assert_eq(seen, 1, "disable_irq returned before the handler ended");
}

static void reraise(int irq, void *dev_id, struct pt_regs *regs)
{
	if (!calls[0]++)
		cr_assert_eq(sim_raise_irq(irq), 1);
}

Test(irq, a_raise_while_running_runs_the_handler_once_more)
{
	cr_assert_eq(request_irq(8, reraise, 0, "again", NULL), 0);
	sim_raise_irq(8);
	cr_assert_eq(calls[0], 2);
	cr_assert_eq(sim_irq_count(8), 2);
}

Test(irq, lists_the_lines_with_a_handler_now)
{
	unsigned int lines[NR_SIM_IRQS];

	cr_assert_eq(sim_irq_lines(lines, NR_SIM_IRQS), 0);
	request_irq(11, handler, SA_SHIRQ, "a", (void *) 1L);
	request_irq(11, handler, SA_SHIRQ, "b", (void *) 2L);
	request_irq(4, handler, 0, "c", (void *) 3L);
	cr_assert_eq(sim_irq_lines(lines, NR_SIM_IRQS), 2);
	cr_assert(lines[0] == 4 && lines[1] == 11);
	cr_assert_eq(sim_irq_lines(lines, 1), 1, "no more than asked");
	free_irq(11, (void *) 1L);
	cr_assert_eq(sim_irq_lines(lines, NR_SIM_IRQS), 2, "one left on 11");
	free_irq(11, (void *) 2L);
	cr_assert_eq(sim_irq_lines(lines, NR_SIM_IRQS), 1);
	cr_assert_eq(lines[0], 4);
}

Test(irq, a_probe_finds_the_line_raised_meanwhile)
{
	unsigned long mask;

	request_irq(4, handler, 0, "c", (void *) 3L);
	mask = probe_irq_on();
	cr_assert(mask & (1UL << 5));
	cr_assert_not(mask & (1UL << 4),
		      "a line with a handler is no candidate");
	cr_assert_neq(sim_irq_probing(), 0);
	cr_assert_eq(sim_raise_irq(5), 0, "no handler took it");
	cr_assert_eq(probe_irq_off(mask), 5);
	cr_assert_eq(sim_irq_probing(), 0);
	cr_assert_eq(sim_irq_spurious(5), 0,
		     "a probe's raise is no spurious one");
	sim_raise_irq(5);
	cr_assert_eq(sim_irq_spurious(5), 1, "but one after it is");

	mask = probe_irq_on();
	cr_assert_eq(probe_irq_off(mask), 0, "none raised");
}

Test(irq, a_probe_finds_none_or_several)
{
	unsigned long mask;
	int found[4];

	mask = probe_irq_on();
	cr_assert_eq(probe_irq_off(mask), 0);
	mask = probe_irq_on();
	sim_raise_irq(7);
	sim_raise_irq(3);
	cr_assert_eq(probe_irq_off(mask), -3, "several: minus the first");
	mask = probe_irq_on();
	sim_raise_irq(7);
	sim_raise_irq(3);
	sim_raise_irq(20);
	cr_assert_eq(probe_irq_mask(mask), (1u << 3) | (1u << 7),
		     "below 16 only");
	cr_assert_eq(sim_irq_probe_results(found, 4), 3);
	cr_assert(found[0] == 0 && found[1] == -3 && found[2] == -3);
}

static void other_handler(int irq, void *dev_id, struct pt_regs *regs)
{
	calls[2]++;
}

Test(irq, a_raise_during_a_probe_on_a_line_in_use_runs_its_handler)
{
	unsigned long mask;

	request_irq(10, other_handler, SA_SHIRQ, "other", (void *) 2L);
	mask = probe_irq_on();
	sim_raise_irq(10);
	cr_assert_eq(calls[2], 1);
	cr_assert_eq(probe_irq_off(mask), 0);
}
