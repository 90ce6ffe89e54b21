/*
 * interrupt.c - interrupt and bottom-half context: irq_enter/irq_exit,
 * in_interrupt(), mark_bh() and ksoftirqd.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(interrupt, .timeout = SUITE_TIMEOUT);

Test(interrupt, process_context_is_not_interrupt)
{
	cr_assert_not(in_interrupt());
	cr_assert_not(in_irq());
	cr_assert_not(in_softirq());
	cr_assert_not(in_atomic());
}

Test(interrupt, in_interrupt_between_irq_enter_and_irq_exit)
{
	irq_enter();
	cr_assert(in_interrupt());
	cr_assert(in_irq());
	cr_assert_not(in_softirq());
	cr_assert(in_atomic());
	irq_enter();
	irq_exit();
	cr_assert(in_irq(), "nested irq_exit ended the outer interrupt");
	irq_exit();
	cr_assert_not(in_interrupt());
	cr_assert_eq(preempt_count(), 0);
}

Test(interrupt, local_bh_disable_is_softirq_context)
{
	local_bh_disable();
	cr_assert(in_softirq());
	cr_assert(in_interrupt());
	local_bh_enable();
	cr_assert_not(in_interrupt());
}

Test(interrupt, preempt_disable_is_atomic_but_not_interrupt)
{
	preempt_disable();
	cr_assert(in_atomic());
	cr_assert_not(in_interrupt());
	preempt_enable();
	cr_assert_not(in_atomic());
}

/* what the bottom half saw */
static struct {
	struct task_struct *task;
	char comm[16];
	int softirq, irq, runs;
	struct completion ran;
} bh;

static void immediate_bh(void)
{
	bh.task = current;
	memcpy(bh.comm, current->comm, sizeof(bh.comm));
	bh.softirq = in_softirq();
	bh.irq = in_irq();
	bh.runs++;
	complete(&bh.ran);
}

static void remove_immediate_bh(void)
{
	remove_bh(IMMEDIATE_BH);
}

Test(interrupt, mark_bh_runs_the_handler_on_ksoftirqd,
     .fini = remove_immediate_bh)
{
	init_completion(&bh.ran);
	init_bh(IMMEDIATE_BH, immediate_bh);
	mark_bh(IMMEDIATE_BH);
	wait_for_completion(&bh.ran);
	cr_assert_neq(bh.task, current);
	cr_assert_str_eq(bh.comm, "ksoftirqd/0");
	cr_assert(bh.softirq, "not in softirq context");
	cr_assert_not(bh.irq);

	mark_bh(IMMEDIATE_BH);
	wait_for_completion(&bh.ran);
	cr_assert_eq(bh.runs, 2, "each mark_bh() after a run runs it again");
}

CHILD_SCENARIO(sleep_in_bottom_half)
{
	DECLARE_COMPLETION(never);

	init_bh(IMMEDIATE_BH, schedule);
	mark_bh(IMMEDIATE_BH);
	wait_for_completion(&never);
}

Test(interrupt, schedule_in_bottom_half_is_a_bug)
{
	struct child_result res;

	run_child("sleep_in_bottom_half", NULL, &res);
	assert_child_bug(&res, "BUG: scheduling while atomic: ksoftirqd/0/");
}

CHILD_SCENARIO(irq_exit_without_enter)
{
	irq_exit();
}

Test(interrupt, irq_exit_without_irq_enter_is_a_bug)
{
	struct child_result res;

	run_child("irq_exit_without_enter", NULL, &res);
	assert_child_bug(&res, "BUG: preempt count underflow");
}
