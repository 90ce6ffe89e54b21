/*
 * tasklet.c - 2.4's tasklets: run in softirq context on ksoftirqd, once
 * per schedule, never beside themselves, held while disabled, and gone
 * once killed.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(tasklet, .timeout = SUITE_TIMEOUT);

static struct {
	int runs, softirq, running, beside;
	int handler_done, saw_done;
	unsigned long data;
	char comm[16];
	struct completion ran;
	struct tasklet_struct *again; /* schedules itself again once */
} seen;

static void func(unsigned long data)
{
	if (__atomic_add_fetch(&seen.running, 1, __ATOMIC_SEQ_CST) > 1)
		seen.beside = 1;
	seen.data = data;
	seen.saw_done = __atomic_load_n(&seen.handler_done, __ATOMIC_ACQUIRE);
	seen.softirq = in_softirq();
	memcpy(seen.comm, current->comm, sizeof(seen.comm));
	if (seen.again) {
		struct tasklet_struct *t = seen.again;

		seen.again = NULL;
		tasklet_schedule(t);
	}
	seen.runs++;
	__atomic_sub_fetch(&seen.running, 1, __ATOMIC_SEQ_CST);
	complete(&seen.ran);
}

static DECLARE_TASKLET(declared, func, 42);

Test(tasklet, runs_once_in_softirq_context_on_ksoftirqd)
{
	memset(&seen, 0, sizeof(seen));
	init_completion(&seen.ran);
	tasklet_schedule(&declared);
	wait_for_completion(&seen.ran);
	cr_assert_eq(seen.data, 42);
	cr_assert(seen.softirq, "not in softirq context");
	cr_assert_str_eq(seen.comm, "ksoftirqd/0");
	tasklet_kill(&declared);
	cr_assert_eq(seen.runs, 1);
	cr_assert_not(test_bit(TASKLET_STATE_SCHED, &declared.state));
}

Test(tasklet, scheduled_twice_before_it_runs_runs_once)
{
	struct tasklet_struct t;

	memset(&seen, 0, sizeof(seen));
	init_completion(&seen.ran);
	tasklet_init(&t, func, 7);
	tasklet_disable(&t);
	tasklet_schedule(&t);
	tasklet_schedule(&t);
	tasklet_hi_schedule(&t);
	tasklet_enable(&t);
	wait_for_completion(&seen.ran);
	tasklet_kill(&t);
	cr_assert_eq(seen.runs, 1, "ran %d times", seen.runs);
}

Test(tasklet, scheduled_from_its_own_run_runs_again_after_it)
{
	struct tasklet_struct t;

	memset(&seen, 0, sizeof(seen));
	init_completion(&seen.ran);
	tasklet_init(&t, func, 1);
	seen.again = &t;
	tasklet_schedule(&t);
	wait_for_completion(&seen.ran);
	wait_for_completion(&seen.ran);
	tasklet_kill(&t);
	cr_assert_eq(seen.runs, 2);
	cr_assert_not(seen.beside, "it ran beside itself");
}

Test(tasklet, disabled_it_waits_and_enabled_it_runs)
{
	struct tasklet_struct t;

	memset(&seen, 0, sizeof(seen));
	init_completion(&seen.ran);
	tasklet_init(&t, func, 3);
	tasklet_disable(&t);
	tasklet_schedule(&t);
	/* every marked bottom half and softirq has run: not it */
	shim_softirq_sync();
	cr_assert_eq(seen.runs, 0, "a disabled tasklet ran");
	cr_assert(test_bit(TASKLET_STATE_SCHED, &t.state));
	tasklet_enable(&t);
	wait_for_completion(&seen.ran);
	tasklet_kill(&t);
	cr_assert_eq(seen.runs, 1);
}

Test(tasklet, scheduled_in_an_interrupt_runs_after_it)
{
	struct tasklet_struct t;

	memset(&seen, 0, sizeof(seen));
	init_completion(&seen.ran);
	tasklet_init(&t, func, 5);
	shim_clock_virtual();
	irq_enter();
	tasklet_hi_schedule(&t);
	/* the rest of the handler, which the tasklet must not overlap */
	udelay(20000);
	__atomic_store_n(&seen.handler_done, 1, __ATOMIC_RELEASE);
	irq_exit();
	wait_for_completion(&seen.ran);
	tasklet_kill(&t);
	cr_assert_eq(seen.runs, 1);
	cr_assert(seen.saw_done, "the tasklet ran while the handler still ran");
}
