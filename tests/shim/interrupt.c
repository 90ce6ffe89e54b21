/*
 * interrupt.c - interrupt and bottom-half context: irq_enter/irq_exit,
 * in_interrupt(), mark_bh() and ksoftirqd.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/timer.h>
#include <linux/wait.h>
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

/*
 * In virtual time, what an interrupt wakes, or marks, starts when it has
 * ended, as on the CPU it ran on: the handler (a timer, a bottom half)
 * runs to its end first.  The shim's tasks are host threads, and one
 * woken at once would run beside the rest of the handler, an order the
 * host's timing chose (a scenario run twice with one seed differed):
 * each tail below is long enough for that to show.
 */
static struct {
	wait_queue_head_t wait;
	struct task_struct *task;
	int go;		  /* the sleeper's condition */
	int handler_done; /* the interrupt's tail has run */
	int saw_done;	  /* ... as the woken task (or bottom half) saw it */
	struct completion ran;
	struct timer_list timer;
} woken;

static int sleeper(void *unused)
{
	daemonize();
	woken.task = current;
	wait_event(woken.wait, __atomic_load_n(&woken.go, __ATOMIC_ACQUIRE));
	woken.saw_done = __atomic_load_n(&woken.handler_done, __ATOMIC_ACQUIRE);
	complete(&woken.ran);
	return 0;
}

/* a task asleep in wait_event(), nothing else running */
static void start_sleeper(void)
{
	memset(&woken, 0, sizeof(woken));
	init_waitqueue_head(&woken.wait);
	init_completion(&woken.ran);
	shim_clock_virtual();
	start_kthread(sleeper, NULL);
	shim_quiesce();
	cr_assert_not_null(woken.task);
}

/* the rest of the handler, after its wake-up */
static void handler_tail(void)
{
	udelay(20000);
	__atomic_store_n(&woken.handler_done, 1, __ATOMIC_RELEASE);
}

Test(interrupt, a_task_woken_by_a_handler_runs_after_it)
{
	start_sleeper();
	irq_enter();
	__atomic_store_n(&woken.go, 1, __ATOMIC_RELEASE);
	wake_up(&woken.wait);
	handler_tail();
	irq_exit();
	wait_for_completion(&woken.ran);
	cr_assert(woken.saw_done,
		  "the woken task ran while the handler still ran");
}

static void bh_after_handler(void)
{
	woken.saw_done = __atomic_load_n(&woken.handler_done, __ATOMIC_ACQUIRE);
	complete(&woken.ran);
}

Test(interrupt, a_bottom_half_marked_by_a_handler_runs_after_it,
     .fini = remove_immediate_bh)
{
	memset(&woken, 0, sizeof(woken));
	init_completion(&woken.ran);
	shim_clock_virtual();
	init_bh(IMMEDIATE_BH, bh_after_handler);
	irq_enter();
	mark_bh(IMMEDIATE_BH);
	handler_tail();
	irq_exit();
	wait_for_completion(&woken.ran);
	cr_assert(woken.saw_done,
		  "the bottom half ran while the handler still ran");
}

static void wake_then_tail(unsigned long unused)
{
	__atomic_store_n(&woken.go, 1, __ATOMIC_RELEASE);
	wake_up_process(woken.task);
	handler_tail();
}

Test(interrupt, a_task_woken_by_a_timer_runs_after_it)
{
	start_sleeper();
	init_timer(&woken.timer);
	woken.timer.function = wake_then_tail;
	woken.timer.expires = jiffies + 1;
	add_timer(&woken.timer);
	shim_clock_advance(1);
	wait_for_completion(&woken.ran);
	cr_assert(woken.saw_done,
		  "the woken task ran while the timer still ran");
}
