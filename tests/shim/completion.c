/*
 * completion.c - complete(), complete_all() and wait_for_completion().
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/completion.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(completion, .timeout = SUITE_TIMEOUT);

Test(completion, complete_before_wait_is_remembered)
{
	struct completion c;

	init_completion(&c);
	complete(&c);
	wait_for_completion(&c);
	cr_assert_eq(c.done, 0, "the wait consumed the completion");
}

Test(completion, each_complete_counts_once)
{
	DECLARE_COMPLETION(c);

	complete(&c);
	complete(&c);
	wait_for_completion(&c);
	wait_for_completion(&c);
	cr_assert_eq(c.done, 0);
}

Test(completion, init_completion_forgets)
{
	DECLARE_COMPLETION(c);

	complete(&c);
	INIT_COMPLETION(c);
	cr_assert_eq(c.done, 0);
}

/* waiters: kernel threads that wait on @go and report on @passed */
#define NR_WAITERS 4

struct waiters {
	struct completion go;
	struct completion passed;
	atomic_t count;
};

static int waiter_thread(void *arg)
{
	struct waiters *w = arg;

	wait_for_completion(&w->go);
	atomic_inc(&w->count);
	complete(&w->passed);
	return 0;
}

static void start_waiters(struct waiters *w, int n)
{
	int i;

	init_completion(&w->go);
	init_completion(&w->passed);
	atomic_set(&w->count, 0);
	for (i = 0; i < n; i++)
		start_kthread(waiter_thread, w);
}

Test(completion, complete_all_releases_every_waiter)
{
	struct waiters w;
	int i;

	start_waiters(&w, NR_WAITERS);
	complete_all(&w.go);
	for (i = 0; i < NR_WAITERS; i++)
		wait_for_completion(&w.passed);
	cr_assert_eq(atomic_read(&w.count), NR_WAITERS);
	/* and stays completed for later waiters */
	wait_for_completion(&w.go);
	wait_for_completion(&w.go);
}

Test(completion, complete_n_times_wakes_n_waiters)
{
	struct waiters w;
	int i;

	start_waiters(&w, 3);
	complete(&w.go);
	wait_for_completion(&w.passed);
	cr_assert_eq(atomic_read(&w.count), 1, "one complete() let %d through",
		     atomic_read(&w.count));
	complete(&w.go);
	complete(&w.go);
	for (i = 0; i < 2; i++)
		wait_for_completion(&w.passed);
	cr_assert_eq(atomic_read(&w.count), 3);
	cr_assert_eq(w.go.done, 0);
}

static int completer_thread(void *arg)
{
	complete(arg);
	return 0;
}

Test(completion, wait_sleeps_until_another_thread_completes)
{
	struct completion c;
	int i;

	for (i = 0; i < 1000; i++) {
		init_completion(&c);
		start_kthread(completer_thread, &c);
		wait_for_completion(&c);
	}
}

CHILD_SCENARIO(wait_for_completion_under_spinlock)
{
	DECLARE_COMPLETION(c);
	DEFINE_SPINLOCK(lock);

	complete(&c);
	spin_lock(&lock);
	wait_for_completion(&c);
}

Test(completion, wait_for_completion_under_spinlock_is_a_bug)
{
	struct child_result res;

	run_child("wait_for_completion_under_spinlock", NULL, &res);
	assert_child_bug(&res,
			 "BUG: sleeping function called from invalid context");
	assert_child_said(&res, "wait_for_completion");
}

/* a completion nobody initialised: a debugging kernel's spinlock magic stops it */

CHILD_SCENARIO(complete_uninitialised)
{
	static struct completion done; /* no DECLARE_COMPLETION, no init */

	strcpy(current->comm, "completer");
	complete(&done);
	exit(0);
}

Test(completion, complete_of_an_uninitialised_completion_is_a_bug)
{
	struct child_result res;

	run_child("complete_uninitialised", NULL, &res);
	assert_child_bug(&res, "BUG: complete(",
			 "): completion not initialised (its lock",
			 "magic 00000000", "by completer/");
}

CHILD_SCENARIO(wait_on_kmalloc_completion)
{
	struct completion *c = kmalloc(sizeof(*c), GFP_KERNEL);

	/* fresh kmalloc memory is POISON_INUSE, not zeroes */
	wait_for_completion(c);
	exit(0);
}

Test(completion, waiting_on_a_completion_in_fresh_kmalloc_memory_is_a_bug)
{
	struct child_result res;

	run_child("wait_on_kmalloc_completion", NULL, &res);
	assert_child_bug(&res, "BUG: wait_for_completion(",
			 "): completion not initialised", "magic 5a5a5a5a");
}

CHILD_SCENARIO(complete_all_uninitialised)
{
	static struct completion done;

	complete_all(&done);
	exit(0);
}

Test(completion, complete_all_of_an_uninitialised_completion_is_a_bug)
{
	struct child_result res;

	run_child("complete_all_uninitialised", NULL, &res);
	assert_child_bug(&res, "BUG: complete_all(",
			 "): completion not initialised");
}
