/*
 * bottomhalf.c - tq_immediate in bottom-half context and tq_timer at the
 * next tick: no sleeping in either.
 */
#include "tasks.h"

Test(taskqueue, tq_immediate_runs_in_bottom_half_context_on_ksoftirqd)
{
	struct counted_task ct;

	counted_task_init(&ct);
	cr_assert_eq(queue_task(&ct.tq, &tq_immediate), 1);
	mark_bh(IMMEDIATE_BH);
	wait_for_completion(&ct.done);
	cr_assert_eq(runs(&ct), 1);
	cr_assert_eq(ct.in_interrupt, 1);
	cr_assert_eq(ct.in_softirq, 1);
	cr_assert_str_eq(ct.comm, "ksoftirqd/0");
	cr_assert_eq(ct.keventd, 0);
}

static void sleep_briefly_fn(void *data)
{
	set_current_state(TASK_INTERRUPTIBLE);
	schedule_timeout(1);
}

static void wait_forever_fn(void *data)
{
	wait_for_completion(data);
}

CHILD_SCENARIO(schedule_timeout_in_an_immediate_task)
{
	static struct tq_struct t;
	DECLARE_COMPLETION(never);

	INIT_TQUEUE(&t, sleep_briefly_fn, NULL);
	queue_task(&t, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	wait_for_completion(&never); /* ksoftirqd BUGs meanwhile */
}

Test(taskqueue, sleeping_in_an_immediate_task_is_a_bug)
{
	struct child_result res;

	run_child("schedule_timeout_in_an_immediate_task", CHILD_ALL_PRINTK,
		  &res);
	assert_child_bug(&res, "BUG: scheduling while atomic: ksoftirqd/0/");
}

CHILD_SCENARIO(wait_for_completion_in_an_immediate_task)
{
	static struct tq_struct t;
	static DECLARE_COMPLETION(never);

	INIT_TQUEUE(&t, wait_forever_fn, &never);
	queue_task(&t, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	wait_for_completion(&never);
}

Test(taskqueue, waiting_for_a_completion_in_an_immediate_task_is_a_bug)
{
	struct child_result res;

	run_child("wait_for_completion_in_an_immediate_task", CHILD_ALL_PRINTK,
		  &res);
	assert_child_bug(&res,
			 "BUG: sleeping function called from invalid "
			 "context: wait_for_completion() in ksoftirqd/0/");
}

Test(taskqueue, tq_timer_runs_at_the_next_tick_in_timer_context)
{
	struct counted_task ct;

	shim_clock_virtual();
	counted_task_init(&ct);
	cr_assert_eq(queue_task(&ct.tq, &tq_timer), 1);
	cr_assert_eq(queue_task(&ct.tq, &tq_timer), 0);
	cr_assert_eq(runs(&ct), 0);
	shim_clock_advance(1); /* timers run in this thread, in virtual time */
	cr_assert_eq(runs(&ct), 1);
	cr_assert_eq(ct.in_interrupt, 1);
	cr_assert_eq(ct.task, current);

	/* and again at the tick after it is queued again */
	cr_assert_eq(queue_task(&ct.tq, &tq_timer), 1);
	shim_clock_advance(1);
	cr_assert_eq(runs(&ct), 2);
	shim_clock_advance(10);
	cr_assert_eq(runs(&ct), 2);
}

CHILD_SCENARIO(sleep_in_a_tq_timer_task)
{
	static struct tq_struct t;

	shim_clock_virtual();
	INIT_TQUEUE(&t, sleep_briefly_fn, NULL);
	queue_task(&t, &tq_timer);
	shim_clock_advance(1);
}

Test(taskqueue, sleeping_in_a_tq_timer_task_is_a_bug)
{
	struct child_result res;

	run_child("sleep_in_a_tq_timer_task", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: scheduling while atomic");
}
