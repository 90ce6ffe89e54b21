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
		cr_assert_eq(pthread_create(&t[i], NULL, flusher, (void *) i), 0);
	spin_until(atomic_add_return(0, &flushers.entering) == 2);
	complete(&b.release);
	for (i = 0; i < 2; i++) {
		join(t[i]);	/* a hang here is the failure */
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
	cr_assert_printk("<4>WARNING: flush_scheduled_tasks() called from keventd");
}
