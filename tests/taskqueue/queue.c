/*
 * queue.c - private task queues run with run_task_queue(), and what
 * INIT_TQUEUE and PREPARE_TQUEUE set.
 */
#include "tasks.h"

static int fifo[8], fifo_len;
static struct task_struct *fifo_task;

static void fifo_fn(void *data)
{
	fifo[fifo_len++] = (int) (long) data;
	fifo_task = current;
}

Test(taskqueue, run_task_queue_runs_a_private_queue_in_fifo_order_in_the_caller)
{
	DECLARE_TASK_QUEUE(tq_mine);
	struct tq_struct tasks[5];
	int i;

	for (i = 0; i < 5; i++) {
		INIT_TQUEUE(&tasks[i], fifo_fn, (void *) (long) i);
		cr_assert_eq(queue_task(&tasks[i], &tq_mine), 1);
	}
	cr_assert_eq(queue_task(&tasks[0], &tq_mine), 0, "already queued");
	cr_assert(TQ_ACTIVE(tq_mine));
	cr_assert_eq(fifo_len, 0, "a private queue runs only when run");
	run_task_queue(&tq_mine);
	cr_assert_eq(fifo_len, 5);
	for (i = 0; i < 5; i++)
		cr_assert_eq(fifo[i], i);
	cr_assert_eq(fifo_task, current, "ran in the caller's context");
	cr_assert(!TQ_ACTIVE(tq_mine));
	for (i = 0; i < 5; i++)
		cr_assert_eq(tasks[i].sync, 0);
	run_task_queue(&tq_mine); /* empty: nothing happens */
	cr_assert_eq(fifo_len, 5);
}

static task_queue *readd_queue;
static int readd_runs;

static void readd_fn(void *data)
{
	readd_runs++;
	queue_task(data, readd_queue);
}

Test(taskqueue, task_readding_itself_runs_at_the_next_run_task_queue)
{
	DECLARE_TASK_QUEUE(tq_mine);
	struct tq_struct t;

	readd_queue = &tq_mine;
	INIT_TQUEUE(&t, readd_fn, &t);
	cr_assert_eq(queue_task(&t, &tq_mine), 1);
	run_task_queue(&tq_mine);
	cr_assert_eq(readd_runs, 1,
		     "a task re-added while its queue runs waits");
	cr_assert(TQ_ACTIVE(tq_mine));
	run_task_queue(&tq_mine);
	cr_assert_eq(readd_runs, 2);
	PREPARE_TQUEUE(&t, noop_fn, NULL); /* and now let it go */
	run_task_queue(&tq_mine);
	cr_assert(!TQ_ACTIVE(tq_mine));
}

static int payload = 7, other_payload = 8;

Test(taskqueue, init_tqueue_sets_all_and_prepare_tqueue_only_routine_and_data)
{
	struct tq_struct t;
	DECLARE_TASK_QUEUE(tq_mine);

	memset(&t, 0x5a, sizeof(t));
	INIT_TQUEUE(&t, noop_fn, &payload);
	cr_assert(list_empty(&t.list));
	cr_assert_eq(t.sync, 0);
	cr_assert_eq(t.routine, noop_fn);
	cr_assert_eq(t.data, &payload);

	cr_assert_eq(queue_task(&t, &tq_mine), 1);
	PREPARE_TQUEUE(&t, counted_task_fn, &other_payload);
	cr_assert_eq(t.routine, counted_task_fn);
	cr_assert_eq(t.data, &other_payload);
	cr_assert_eq(t.sync, 1, "PREPARE_TQUEUE left the queued state alone");
	cr_assert_eq(t.list.prev, &tq_mine);
	PREPARE_TQUEUE(&t, noop_fn, NULL);
	run_task_queue(&tq_mine);
	cr_assert_eq(t.sync, 0);
}

/* the debug checks hold a queued task as they hold a pending work */

static struct tq_struct queued_task;

CHILD_SCENARIO(init_tqueue_on_a_queued_task)
{
	DECLARE_TASK_QUEUE(tq_mine);

	INIT_TQUEUE(&queued_task, noop_fn, NULL);
	child_check(queue_task(&queued_task, &tq_mine) == 1);
	child_note("task", &queued_task);
	INIT_TQUEUE(&queued_task, noop_fn, NULL);
	exit(0);
}

Test(taskqueue, init_tqueue_on_a_queued_task_is_a_bug_naming_it)
{
	struct child_result res;
	char task[32];

	run_child("init_tqueue_on_a_queued_task", NULL, &res);
	assert_child_bug(&res,
			 "BUG: INIT_TQUEUE(&queued_task) in "
			 "child_init_tqueue_on_a_queued_task(): task ",
			 child_noted(&res, "task", task, sizeof(task)),
			 " is queued on task_queue");
}

struct driver_task {
	int unit;
	struct tq_struct tq;
};

CHILD_SCENARIO(kfree_of_a_queued_task)
{
	struct driver_task *d = kmalloc(sizeof(*d), GFP_KERNEL);

	INIT_TQUEUE(&d->tq, counted_task_fn, NULL);
	queue_task(&d->tq, &tq_immediate); /* no mark_bh(): it stays queued */
	kfree(d);
	exit(0);
}

Test(taskqueue, kfree_of_memory_holding_a_queued_task_is_a_bug_naming_it)
{
	struct child_result res;

	run_child("kfree_of_a_queued_task", NULL, &res);
	assert_child_bug(&res,
			 "in child_kfree_of_a_queued_task(): frees active "
			 "tq_struct ",
			 "(counted_task_fn) (pending on tq_immediate)");
}

/* a driver's own queue, as 2.4's riscom8 or serial had one */
static DECLARE_TASK_QUEUE(tq_gadget);

CHILD_SCENARIO(kfree_of_a_task_on_a_private_queue)
{
	struct driver_task *d = kmalloc(sizeof(*d), GFP_KERNEL);

	INIT_TQUEUE(&d->tq, counted_task_fn, NULL);
	queue_task(&d->tq, &tq_gadget);
	kfree(d);
	exit(0);
}

/* the queue is named by its variable, in the words convert uses */
Test(taskqueue, a_private_queue_is_named_by_its_variable)
{
	struct child_result res;

	run_child("kfree_of_a_task_on_a_private_queue", NULL, &res);
	assert_child_bug(&res,
			 "in child_kfree_of_a_task_on_a_private_queue(): "
			 "frees active tq_struct ",
			 "(counted_task_fn) (pending on tq_gadget)");
}

static DEFINE_SPINLOCK(leaked_lock);

static void leaks_lock_fn(void *data)
{
	spin_lock(&leaked_lock);
}

static struct tq_struct leaks_lock_tq = { .routine = leaks_lock_fn };

CHILD_SCENARIO(task_returns_holding_a_spinlock)
{
	DECLARE_TASK_QUEUE(tq_mine);

	child_note("routine", (void *) leaks_lock_fn);
	queue_task(&leaks_lock_tq, &tq_mine);
	run_task_queue(&tq_mine);
	exit(0);
}

Test(taskqueue, a_task_that_returns_holding_a_spinlock_is_a_bug)
{
	struct child_result res;
	char routine[32];

	run_child("task_returns_holding_a_spinlock", NULL, &res);
	assert_child_bug(&res, "BUG: task_queue: task ",
			 child_noted(&res, "routine", routine, sizeof(routine)),
			 ") leaked lock or atomic: ",
			 "preempt_count 0x00000001, not 0x00000000");
}
