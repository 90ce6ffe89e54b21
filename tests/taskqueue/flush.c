/*
 * flush.c - flush_scheduled_tasks(): from several callers at once, and
 * from keventd itself.
 */
#include "tasks.h"

static struct {
	struct counted_task before;
	atomic_t entering;
	int runs_seen[2];
} flushers;

static void *flusher(void *arg)
{
	long i = (long) arg;

	atomic_inc_return(&flushers.entering);
	flush_scheduled_tasks();
	flushers.runs_seen[i] = runs(&flushers.before);
	return NULL;
}

Test(taskqueue, two_concurrent_flushers_both_return)
{
	struct blocker b;
	pthread_t t[2];
	long i;

	block_keventd(&b);
	counted_task_init(&flushers.before);
	cr_assert_eq(schedule_task(&flushers.before.tq), 1);
	for (i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, flusher, (void *) i),
			     0);
	spin_until(atomic_add_return(0, &flushers.entering) == 2);
	complete(&b.release);
	for (i = 0; i < 2; i++) {
		join(t[i]); /* a hang here is the failure */
		cr_assert_eq(flushers.runs_seen[i], 1,
			     "flusher %ld returned before the task ran", i);
	}
}

struct keventd_flusher {
	struct tq_struct tq;
	int returned;
};

static void keventd_flush_fn(void *data)
{
	struct keventd_flusher *f = data;

	flush_scheduled_tasks();
	f->returned = 1;
}

Test(taskqueue, flush_scheduled_tasks_from_keventd_warns_and_returns)
{
	struct keventd_flusher f = { .returned = 0 };

	INIT_TQUEUE(&f.tq, keventd_flush_fn, &f);
	shim_printk_clear();
	cr_assert_eq(schedule_task(&f.tq), 1);
	flush_scheduled_tasks();
	cr_assert_eq(f.returned, 1);
	cr_assert_printk(
		"<4>WARNING: flush_scheduled_tasks() called from keventd");
}

/* --- a routine about to run with freed memory ---------------------------- */

static struct blocker poll_blocker;
static struct tq_struct poll_task;

static void gadget_poll(void *data)
{
}

CHILD_SCENARIO(routine_with_freed_data)
{
	char *data = kmalloc(32, GFP_KERNEL);

	child_check(data != NULL);
	INIT_TQUEUE(&poll_blocker.tq, blocker_fn, &poll_blocker);
	init_completion(&poll_blocker.started);
	init_completion(&poll_blocker.release);
	schedule_task(&poll_blocker.tq);
	wait_for_completion(&poll_blocker.started);
	INIT_TQUEUE(&poll_task, gadget_poll, data);
	schedule_task(&poll_task);
	kfree(data); /* the task is not in it: kfree() cannot tell */
	complete(&poll_blocker.release);
	flush_scheduled_tasks();
}

Test(taskqueue, a_routine_about_to_run_with_freed_data_is_a_bug_naming_it)
{
	struct child_result res;

	run_child("routine_with_freed_data", NULL, &res);
	assert_child_bug(
		&res,
		"BUG: routine gadget_poll on keventd is about to run "
		"with freed memory: its data",
		"is byte 0 of 32 allocated by child_routine_with_freed_data() "
		"and freed by child_routine_with_freed_data()");
}
