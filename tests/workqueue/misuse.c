/*
 * misuse.c - what would corrupt state is a BUG with a one-line message
 * that names the function and the object.  Each misuse runs in a child
 * (see helpers.h); the parent checks that it died of SIGABRT and what it
 * said.  Two also run in the test's own process, as Criterion's
 * .signal = SIGABRT tests.
 */
#include "works.h"

static void noop_fn(void *data)
{
}

/* A queue whose worker on the caller's CPU is busy for good: what is then
 * queued from this CPU stays pending until the child dies. */
static workqueue_t *held_queue(const char *name)
{
	static struct blocker b;
	workqueue_t *wq;

	child_check(pin_thread(nth_online_cpu(0)) == 0);
	wq = create_workqueue(name);
	child_check(wq);
	child_check(start_blocker(wq, &b) == 1);
	return wq;
}

/* --- INIT_WORK on pending work ------------------------------------------ */

static work_t pending_work;

CHILD_SCENARIO(init_work_on_a_pending_work)
{
	workqueue_t *wq = held_queue("initpend");

	INIT_WORK(&pending_work, noop_fn, NULL);
	child_check(queue_work(wq, &pending_work) == 1);
	child_note("work", &pending_work);
	INIT_WORK(&pending_work, noop_fn, NULL);
}

Test(workqueue, init_work_on_a_pending_work_is_a_bug_naming_it)
{
	struct child_result res;
	char work[32];

	run_child("init_work_on_a_pending_work", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res,
			 "BUG: INIT_WORK(&pending_work) in "
			 "child_init_work_on_a_pending_work()",
			 child_noted(&res, "work", work, sizeof(work)),
			 "is pending on initpend/");
}

struct driver_state {
	int irq;
	work_t work;
};

CHILD_SCENARIO(init_work_on_a_delayed_work)
{
	static struct driver_state ds, *dev = &ds;
	workqueue_t *wq;

	shim_clock_virtual();
	wq = create_workqueue("initdelay");
	INIT_WORK(&dev->work, noop_fn, dev);
	child_check(queue_delayed_work(wq, &dev->work, 100) == 1);
	child_note("work", &dev->work);
	INIT_WORK(&dev->work, noop_fn, dev);
}

Test(workqueue, init_work_on_a_work_waiting_for_its_timer_is_a_bug)
{
	struct child_result res;
	char work[32];

	run_child("init_work_on_a_delayed_work", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: INIT_WORK(&dev->work)",
			 child_noted(&res, "work", work, sizeof(work)),
			 "pending");
}

Test(workqueue, init_work_on_a_pending_work_aborts, .signal = SIGABRT)
{
	static work_t w;
	struct blocker b;
	workqueue_t *wq = create_workqueue("abort");

	pin_to_cpu(nth_online_cpu(0));
	block_worker(wq, &b);
	INIT_WORK(&w, noop_fn, NULL);
	cr_assert_eq(queue_work(wq, &w), 1);
	INIT_WORK(&w, noop_fn, NULL);
}

/* --- freeing pending work ----------------------------------------------- */

CHILD_SCENARIO(kfree_of_a_pending_work)
{
	workqueue_t *wq = held_queue("kfreepend");
	struct driver_state *dev = kmalloc(sizeof(*dev), GFP_KERNEL);

	child_check(dev);
	INIT_WORK(&dev->work, noop_fn, dev);
	child_check(queue_work(wq, &dev->work) == 1);
	child_note("dev", dev);
	child_note("work", &dev->work);
	kfree(dev);
}

Test(workqueue, kfree_of_memory_holding_a_pending_work_is_a_bug_naming_it)
{
	struct child_result res;
	char dev[32], work[32], freeing[64];

	run_child("kfree_of_a_pending_work", CHILD_ALL_PRINTK, &res);
	snprintf(freeing, sizeof(freeing),
		 "BUG: kfree(%s) in child_kfree_of_a_"
		 "pending_work()",
		 child_noted(&res, "dev", dev, sizeof(dev)));
	assert_child_bug(&res, freeing, "work_struct",
			 child_noted(&res, "work", work, sizeof(work)),
			 "pending on kfreepend/");
}

CHILD_SCENARIO(kfree_of_a_delayed_work)
{
	workqueue_t *wq = held_queue("kfreedelay");
	struct driver_state *dev = kmalloc(sizeof(*dev), GFP_KERNEL);

	child_check(dev);
	INIT_WORK(&dev->work, noop_fn, dev);
	child_check(queue_delayed_work(wq, &dev->work, 1000) == 1);
	child_note("dev", dev);
	kfree(dev);
}

/* a delayed work whose timer has not fired is on no worker's list yet */
Test(workqueue, kfree_of_a_delayed_work_says_it_is_on_its_timer)
{
	struct child_result res;
	char dev[32], freeing[64];

	run_child("kfree_of_a_delayed_work", CHILD_ALL_PRINTK, &res);
	snprintf(freeing, sizeof(freeing),
		 "BUG: kfree(%s) in child_kfree_of_a_delayed_work()",
		 child_noted(&res, "dev", dev, sizeof(dev)));
	assert_child_bug(&res, freeing, "work_struct",
			 "(pending on its timer, for kfreedelay/");
}

/* --- a routine about to run with freed memory ---------------------------- */

static struct blocker poll_blocker;
static work_t poll_work;

static void gadget_poll(void *data)
{
}

CHILD_SCENARIO(routine_with_freed_data)
{
	char *data = kmalloc(32, GFP_KERNEL);
	workqueue_t *wq;

	child_check(pin_thread(nth_online_cpu(0)) == 0);
	wq = create_workqueue("freedata");
	child_check(wq && data);
	child_check(start_blocker(wq, &poll_blocker) == 1);
	INIT_WORK(&poll_work, gadget_poll, data);
	child_check(queue_work(wq, &poll_work) == 1);
	kfree(data); /* the work is not in it: kfree() cannot tell */
	unblock_worker(&poll_blocker);
	flush_workqueue(wq);
}

Test(workqueue, a_routine_about_to_run_with_freed_data_is_a_bug_naming_it)
{
	struct child_result res;

	run_child("routine_with_freed_data", NULL, &res);
	assert_child_bug(
		&res, "BUG: routine gadget_poll on freedata/",
		"is about to run with freed memory: its data",
		"is byte 0 of 32 allocated by child_routine_with_freed_data() "
		"and freed by child_routine_with_freed_data()");
}

/* --- dead and missing queues --------------------------------------------- */

CHILD_SCENARIO(queue_work_on_a_destroyed_queue)
{
	static work_t w;
	workqueue_t *wq = create_workqueue("gone");

	INIT_WORK(&w, noop_fn, NULL);
	destroy_workqueue(wq);
	child_note("wq", wq);
	child_note("work", &w);
	queue_work(wq, &w);
}

Test(workqueue, queue_work_on_a_destroyed_queue_is_a_bug_naming_both)
{
	struct child_result res;
	char wq[32], work[32];

	run_child("queue_work_on_a_destroyed_queue", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: queue_work: workqueue",
			 child_noted(&res, "wq", wq, sizeof(wq)), "not live",
			 child_noted(&res, "work", work, sizeof(work)));
}

CHILD_SCENARIO(queue_delayed_work_on_a_destroyed_queue)
{
	static work_t w;
	workqueue_t *wq = create_workqueue("gone");

	shim_clock_virtual();
	INIT_WORK(&w, noop_fn, NULL);
	destroy_workqueue(wq);
	child_note("wq", wq);
	queue_delayed_work(wq, &w, 10);
}

Test(workqueue, queue_delayed_work_on_a_destroyed_queue_is_a_bug)
{
	struct child_result res;
	char wq[32];

	run_child("queue_delayed_work_on_a_destroyed_queue", CHILD_ALL_PRINTK,
		  &res);
	assert_child_bug(&res, "BUG: queue_delayed_work: workqueue",
			 child_noted(&res, "wq", wq, sizeof(wq)), "not live");
}

CHILD_SCENARIO(flush_of_a_destroyed_queue)
{
	workqueue_t *wq = create_workqueue("flushed");

	destroy_workqueue(wq);
	child_note("wq", wq);
	flush_workqueue(wq);
	exit(0);
}

Test(workqueue, flushing_a_destroyed_queue_is_a_bug_naming_it)
{
	struct child_result res;
	char wq[32];

	run_child("flush_of_a_destroyed_queue", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: flush_workqueue(",
			 child_noted(&res, "wq", wq, sizeof(wq)),
			 "): not a live workqueue (destroyed?)");
}

CHILD_SCENARIO(queue_work_on_a_null_queue)
{
	static work_t w;

	INIT_WORK(&w, noop_fn, NULL);
	child_note("work", &w);
	queue_work(NULL, &w);
}

Test(workqueue, queue_work_on_a_null_queue_is_a_bug)
{
	struct child_result res;
	char work[32];

	run_child("queue_work_on_a_null_queue", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: queue_work(NULL,",
			 child_noted(&res, "work", work, sizeof(work)));
}

CHILD_SCENARIO(destroy_workqueue_twice)
{
	workqueue_t *wq = create_workqueue("twice");

	destroy_workqueue(wq);
	child_note("wq", wq);
	destroy_workqueue(wq);
}

Test(workqueue, destroying_a_workqueue_twice_is_a_bug_naming_it)
{
	struct child_result res;
	char wq[32];

	run_child("destroy_workqueue_twice", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: destroy_workqueue(",
			 child_noted(&res, "wq", wq, sizeof(wq)),
			 "destroyed twice");
}

Test(workqueue, destroying_a_workqueue_twice_aborts, .signal = SIGABRT)
{
	workqueue_t *wq = create_workqueue("twice");

	destroy_workqueue(wq);
	destroy_workqueue(wq);
}

struct self_destroyer {
	workqueue_t *wq;
	work_t work;
};

static void self_destroy_fn(void *data)
{
	struct self_destroyer *s = data;

	destroy_workqueue(s->wq);
}

CHILD_SCENARIO(destroy_workqueue_from_its_own_work)
{
	static struct self_destroyer s;

	s.wq = create_workqueue("suicide");
	INIT_WORK(&s.work, self_destroy_fn, &s);
	child_check(queue_work(s.wq, &s.work) == 1);
	flush_workqueue(s.wq);
	child_check(!"the worker destroyed its own queue and went on");
}

Test(workqueue, destroy_workqueue_from_its_own_work_is_a_bug)
{
	struct child_result res;

	run_child("destroy_workqueue_from_its_own_work", CHILD_ALL_PRINTK,
		  &res);
	assert_child_bug(&res,
			 "BUG: destroy_workqueue(suicide) called from its "
			 "own worker suicide/");
}

/* --- works that cannot run ----------------------------------------------- */

CHILD_SCENARIO(queue_work_without_a_routine)
{
	static work_t w;
	workqueue_t *wq = create_workqueue("noroutine");

	INIT_WORK(&w, NULL, NULL);
	child_note("work", &w);
	queue_work(wq, &w);
}

Test(workqueue, queueing_a_work_without_a_routine_is_a_bug_naming_it)
{
	struct child_result res;
	char work[32];

	run_child("queue_work_without_a_routine", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: queue_work(noroutine): work",
			 child_noted(&res, "work", work, sizeof(work)),
			 "has no routine");
}

/* Zeroed memory that was never through INIT_WORK: its list head is NULL. */
CHILD_SCENARIO(queue_work_never_initialised)
{
	static work_t w;
	workqueue_t *wq = create_workqueue("noinit");

	PREPARE_WORK(&w, noop_fn, NULL);
	child_note("work", &w);
	queue_work(wq, &w);
}

Test(workqueue, queueing_a_work_never_set_up_with_init_work_is_a_bug)
{
	struct child_result res;
	char work[32];

	run_child("queue_work_never_initialised", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: queue_work(noinit): work",
			 child_noted(&res, "work", work, sizeof(work)),
			 "not set up with INIT_WORK");
}

/* The checks above are BUGs; a name too long is only refused. */
CHILD_SCENARIO(create_workqueue_name_too_long)
{
	child_check(create_workqueue("abcdefghijk") == NULL);
}

Test(workqueue, a_name_too_long_is_refused_with_a_message_not_a_bug)
{
	struct child_result res;

	run_child("create_workqueue_name_too_long", CHILD_ALL_PRINTK, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "status 0x%x:\n%s", res.status, res.out);
	cr_assert_not_null(strstr(res.out,
				  "create_workqueue: name \"abcdefghijk\""),
			   "%s", res.out);
	cr_assert_null(strstr(res.out, "BUG"), "%s", res.out);
}

/* --- a work that keeps the big kernel lock ------------------------------ */

static void keeps_bkl_fn(void *data)
{
	lock_kernel();
}

static DECLARE_WORK(keeps_bkl_work, keeps_bkl_fn, NULL);

CHILD_SCENARIO(work_returns_holding_the_bkl)
{
	child_note("routine", (void *) keeps_bkl_fn);
	child_check(schedule_work(&keeps_bkl_work) == 1);
	flush_scheduled_work();
}

Test(workqueue, a_work_that_returns_holding_the_big_kernel_lock_is_a_bug)
{
	struct child_result res;
	char routine[32];

	run_child("work_returns_holding_the_bkl", NULL, &res);
	assert_child_bug(&res,
			 "BUG: workqueue leaked the big kernel lock: "
			 "events/",
			 "lock_depth 0, last function ",
			 child_noted(&res, "routine", routine,
				     sizeof(routine)));
}
