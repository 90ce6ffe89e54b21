/*
 * wait.c - wait queues: wait_event, wake_up and their variants.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/wait.h>
#include <linux/completion.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(wait, .timeout = SUITE_TIMEOUT);

Test(wait, wait_event_returns_at_once_when_condition_holds)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	int cond = 1;

	wait_event(q, cond);
	cr_assert_not(waitqueue_active(&q));
	cr_assert_eq(current->state, TASK_RUNNING);
}

Test(wait, waitqueue_active_follows_add_and_remove)
{
	wait_queue_head_t q;
	DECLARE_WAITQUEUE(w, current);

	init_waitqueue_head(&q);
	cr_assert_not(waitqueue_active(&q));
	add_wait_queue(&q, &w);
	cr_assert(waitqueue_active(&q));
	remove_wait_queue(&q, &w);
	cr_assert_not(waitqueue_active(&q));
}

Test(wait, wake_up_interruptible_leaves_uninterruptible_sleepers)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	DECLARE_WAITQUEUE(w, current);

	add_wait_queue(&q, &w);
	set_current_state(TASK_UNINTERRUPTIBLE);
	wake_up_interruptible(&q);
	cr_assert_eq(current->state, TASK_UNINTERRUPTIBLE);
	wake_up(&q);
	cr_assert_eq(current->state, TASK_RUNNING);
	remove_wait_queue(&q, &w);
}

/*
 * Which waiters a wake-up takes, seen on tasks that only exist as state:
 * every non-exclusive one, and as many exclusive ones as asked for.
 */
Test(wait, wake_up_takes_all_plain_and_nr_exclusive_waiters)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	struct task_struct t[5];
	wait_queue_t w[5];
	int i;

	memset(t, 0, sizeof(t));
	for (i = 0; i < 5; i++) {
		atomic_set(&t[i].usage, 1); /* never freed: not a thread's */
		t[i].state = TASK_UNINTERRUPTIBLE;
		init_waitqueue_entry(&w[i], &t[i]);
	}
	add_wait_queue_exclusive(&q, &w[1]);
	add_wait_queue_exclusive(&q, &w[2]);
	add_wait_queue_exclusive(&q, &w[3]);
	add_wait_queue_exclusive(&q, &w[4]);
	add_wait_queue(&q, &w[0]);

	wake_up(&q);
	cr_assert_eq(t[0].state, TASK_RUNNING,
		     "plain waiters are always woken");
	cr_assert_eq(t[1].state, TASK_RUNNING, "the first exclusive waiter");
	for (i = 2; i < 5; i++)
		cr_assert_eq(t[i].state, TASK_UNINTERRUPTIBLE,
			     "waiter %d woken", i);

	wake_up_nr(&q, 2);
	cr_assert_eq(t[2].state, TASK_RUNNING);
	cr_assert_eq(t[3].state, TASK_RUNNING);
	cr_assert_eq(t[4].state, TASK_UNINTERRUPTIBLE);

	for (i = 0; i < 4; i++)
		t[i].state = TASK_UNINTERRUPTIBLE;
	wake_up_all(&q);
	for (i = 0; i < 5; i++)
		cr_assert_eq(t[i].state, TASK_RUNNING, "waiter %d not woken",
			     i);

	for (i = 0; i < 5; i++)
		remove_wait_queue(&q, &w[i]);
	cr_assert_not(waitqueue_active(&q));
}

/* wait_event/wake_up ping-pong between the test and a kernel thread */
#define WAIT_ROUNDS 20000

struct ping {
	wait_queue_head_t q[2];
	int turn;
	long rounds[2];
	struct completion done;
};

static int ping_thread(void *arg)
{
	struct ping *p = arg;
	long i;

	for (i = 0; i < WAIT_ROUNDS; i++) {
		wait_event(p->q[1],
			   __atomic_load_n(&p->turn, __ATOMIC_SEQ_CST) == 1);
		p->rounds[1]++;
		__atomic_store_n(&p->turn, 0, __ATOMIC_SEQ_CST);
		wake_up(&p->q[0]);
	}
	complete(&p->done);
	return 0;
}

Test(wait, wait_event_wakes_on_wake_up)
{
	struct ping p = { .turn = 0 };
	long i;

	init_waitqueue_head(&p.q[0]);
	init_waitqueue_head(&p.q[1]);
	init_completion(&p.done);
	start_kthread(ping_thread, &p);
	for (i = 0; i < WAIT_ROUNDS; i++) {
		wait_event(p.q[0],
			   __atomic_load_n(&p.turn, __ATOMIC_SEQ_CST) == 0);
		p.rounds[0]++;
		__atomic_store_n(&p.turn, 1, __ATOMIC_SEQ_CST);
		wake_up(&p.q[1]);
	}
	wait_for_completion(&p.done);
	cr_assert_eq(p.rounds[0], WAIT_ROUNDS);
	cr_assert_eq(p.rounds[1], WAIT_ROUNDS);
	cr_assert_eq(p.turn, 0);
	cr_assert_not(waitqueue_active(&p.q[0]));
	cr_assert_not(waitqueue_active(&p.q[1]));
}

/*
 * wait_event_timeout() in virtual time.  The test thread waits; a kernel
 * thread moves the clock once the waiter is asleep, which it knows because
 * the waiter's new name reaches the host at schedule().
 */
struct advancer {
	pid_t waiter;
	unsigned long ticks;
	wait_queue_head_t *q;
	int *cond;
	struct completion done;
};

static int advancer_thread(void *arg)
{
	struct advancer *a = arg;

	wait_host_comm(a->waiter, "waiting");
	shim_clock_advance(a->ticks);
	if (a->cond) {
		__atomic_store_n(a->cond, 1, __ATOMIC_SEQ_CST);
		wake_up(a->q);
	}
	complete(&a->done);
	return 0;
}

static void start_advancer(struct advancer *a, unsigned long ticks,
			   wait_queue_head_t *q, int *cond)
{
	a->waiter = host_tid();
	a->ticks = ticks;
	a->q = q;
	a->cond = cond;
	init_completion(&a->done);
	strcpy(current->comm, "waiting");
	start_kthread(advancer_thread, a);
}

Test(wait, wait_event_timeout_returns_0_on_timeout)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	struct advancer a;
	unsigned long start;
	int cond = 0;
	long ret;

	shim_clock_virtual();
	start = jiffies;
	start_advancer(&a, 10, NULL, NULL);
	ret = wait_event_timeout(q, cond, 10);
	wait_for_completion(&a.done);
	cr_assert_eq(ret, 0);
	cr_assert_eq(jiffies - start, 10);
	cr_assert_not(waitqueue_active(&q));
}

Test(wait, wait_event_timeout_returns_jiffies_left_when_woken)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	struct advancer a;
	int cond = 0;
	long ret;

	shim_clock_virtual();
	start_advancer(&a, 4, &q, &cond);
	ret = wait_event_timeout(q, __atomic_load_n(&cond, __ATOMIC_SEQ_CST),
				 10);
	wait_for_completion(&a.done);
	cr_assert_eq(ret, 6);
	cr_assert_not(waitqueue_active(&q));
}

Test(wait, wait_event_interruptible_returns_0)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	int cond = 1;

	cr_assert_eq(wait_event_interruptible(q, cond), 0);
}

/* misuse: a head nobody initialised, an entry removed that is on no queue */

CHILD_SCENARIO(wake_up_uninitialised)
{
	static wait_queue_head_t q; /* no DECLARE_WAIT_QUEUE_HEAD, no init */

	strcpy(current->comm, "waker");
	wake_up(&q);
	exit(0);
}

Test(wait, wake_up_of_an_uninitialised_head_is_a_bug)
{
	struct child_result res;

	run_child("wake_up_uninitialised", NULL, &res);
	assert_child_bug(&res, "BUG: wake_up(",
			 "): wait queue head not initialised", "by waker/");
}

CHILD_SCENARIO(add_to_uninitialised)
{
	static wait_queue_head_t q;
	DECLARE_WAITQUEUE(w, current);

	add_wait_queue(&q, &w);
	exit(0);
}

Test(wait, add_wait_queue_to_an_uninitialised_head_is_a_bug)
{
	struct child_result res;

	run_child("add_to_uninitialised", NULL, &res);
	assert_child_bug(&res, "BUG: add_wait_queue(",
			 "): wait queue head not initialised");
}

CHILD_SCENARIO(remove_never_added)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	DECLARE_WAITQUEUE(w, current);

	strcpy(current->comm, "remover");
	remove_wait_queue(&q, &w);
	exit(0);
}

Test(wait, removing_an_entry_never_added_is_a_bug)
{
	struct child_result res;

	run_child("remove_never_added", NULL, &res);
	assert_child_bug(&res, "BUG: list_del corruption: ",
			 "->next is NULL (the entry was never added to a list)",
			 "in remove_wait_queue", "by remover/");
}

CHILD_SCENARIO(remove_twice)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	DECLARE_WAITQUEUE(w, current);

	add_wait_queue(&q, &w);
	remove_wait_queue(&q, &w);
	remove_wait_queue(&q, &w);
	exit(0);
}

Test(wait, removing_an_entry_twice_is_a_bug)
{
	struct child_result res;

	run_child("remove_twice", NULL, &res);
	assert_child_bug(&res, "BUG: list_del corruption: ",
			 "->next is LIST_POISON1 (the entry was deleted "
			 "already)",
			 "in remove_wait_queue");
}

CHILD_SCENARIO(wait_event_under_spinlock)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	DEFINE_SPINLOCK(lock);

	strcpy(current->comm, "waiter");
	spin_lock(&lock);
	wait_event(q, 1); /* true already: no sleep, still a bug */
	spin_unlock(&lock);
	exit(0);
}

Test(wait, wait_event_under_a_spinlock_is_a_bug_even_when_true)
{
	struct child_result res;

	run_child("wait_event_under_spinlock", NULL, &res);
	assert_child_bug(&res,
			 "BUG: sleeping function called from invalid context: "
			 "child_wait_event_under_spinlock() in waiter/");
}
