/*
 * semaphore.c - counting semaphores: down, up, down_trylock.
 */
#include <criterion/criterion.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/completion.h>
#include <asm/semaphore.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(semaphore, .timeout = SUITE_TIMEOUT);

Test(semaphore, down_trylock_takes_a_free_mutex_only)
{
	struct semaphore sem;

	init_MUTEX(&sem);
	cr_assert_eq(down_trylock(&sem), 0);
	cr_assert_eq(down_trylock(&sem), 1);
	up(&sem);
	cr_assert_eq(down_trylock(&sem), 0);
	up(&sem);
}

Test(semaphore, locked_mutex_needs_an_up)
{
	DECLARE_MUTEX_LOCKED(sem);

	cr_assert_eq(down_trylock(&sem), 1);
	up(&sem);
	cr_assert_eq(down_trylock(&sem), 0);
}

Test(semaphore, counting_semaphore_admits_its_count)
{
	struct semaphore sem;
	int i;

	sema_init(&sem, 3);
	for (i = 0; i < 3; i++)
		cr_assert_eq(down_trylock(&sem), 0);
	cr_assert_eq(down_trylock(&sem), 1);
	for (i = 0; i < 3; i++)
		up(&sem);
}

Test(semaphore, down_on_a_free_semaphore_holding_nothing_returns)
{
	DECLARE_MUTEX(sem);

	down(&sem);
	cr_assert_eq(sem.count, 0);
	cr_assert_eq(down_trylock(&sem), 1);
	up(&sem);
	cr_assert_eq(down_interruptible(&sem), 0);
	up(&sem);
	cr_assert_eq(sem.count, 1);
}

struct blocked {
	struct semaphore sem;
	pid_t tid;
	int got;
	struct completion done;
};

static int down_thread(void *arg)
{
	struct blocked *b = arg;

	__atomic_store_n(&b->tid, host_tid(), __ATOMIC_SEQ_CST);
	down(&b->sem);
	__atomic_store_n(&b->got, 1, __ATOMIC_SEQ_CST);
	up(&b->sem);
	complete(&b->done);
	return 0;
}

Test(semaphore, down_sleeps_until_up)
{
	struct blocked b = { .tid = 0 };
	pid_t tid;

	init_MUTEX_LOCKED(&b.sem);
	init_completion(&b.done);
	start_kthread(down_thread, &b);
	while (!(tid = __atomic_load_n(&b.tid, __ATOMIC_SEQ_CST)))
		sched_yield();
	/* asleep in the host, or wrongly through down() */
	while (!__atomic_load_n(&b.got, __ATOMIC_SEQ_CST) &&
	       host_state(tid) != 'S')
		sched_yield();
	cr_assert_not(__atomic_load_n(&b.got, __ATOMIC_SEQ_CST),
		      "down() of a locked semaphore went through");
	up(&b.sem);
	wait_for_completion(&b.done);
	cr_assert(b.got);
}

/* two kernel threads in one critical section, 20000 times each */
#define SEM_LOOPS 20000

struct exclusion {
	struct semaphore sem;
	atomic_t inside;
	int overlaps;
	long counter;
	int arrived;
	struct completion done;
};

static int exclusion_thread(void *arg)
{
	struct exclusion *e = arg;
	long i, v;

	meet(&e->arrived, 2);
	for (i = 0; i < SEM_LOOPS; i++) {
		down(&e->sem);
		if (atomic_inc_return(&e->inside) != 1)
			e->overlaps++;
		v = e->counter;
		if (!(i % 256))
			sched_yield(); /* hold it while the other wants it */
		e->counter = v + 1;
		atomic_dec(&e->inside);
		up(&e->sem);
	}
	complete(&e->done);
	return 0;
}

Test(semaphore, mutual_exclusion_between_two_kernel_threads)
{
	struct exclusion e = { .counter = 0 };

	init_MUTEX(&e.sem);
	atomic_set(&e.inside, 0);
	init_completion(&e.done);
	start_kthread(exclusion_thread, &e);
	start_kthread(exclusion_thread, &e);
	wait_for_completion(&e.done);
	wait_for_completion(&e.done);
	cr_assert_eq(e.overlaps, 0);
	cr_assert_eq(e.counter, 2 * SEM_LOOPS);
	cr_assert_eq(e.sem.count, 1);
}

CHILD_SCENARIO(down_under_spinlock)
{
	DECLARE_MUTEX(sem);
	DEFINE_SPINLOCK(lock);

	spin_lock(&lock);
	down(&sem);
}

Test(semaphore, down_under_spinlock_is_a_bug)
{
	struct child_result res;

	run_child("down_under_spinlock", NULL, &res);
	assert_child_bug(&res,
			 "BUG: sleeping function called from invalid context");
}

/* a mutex released twice; a semaphore nobody initialised */

CHILD_SCENARIO(mutex_up_twice)
{
	DECLARE_MUTEX(sem);

	strcpy(current->comm, "upper");
	down(&sem);
	up(&sem);
	up(&sem);
	exit(0);
}

Test(semaphore, releasing_a_mutex_twice_is_a_bug)
{
	struct child_result res;

	run_child("mutex_up_twice", NULL, &res);
	assert_child_bug(&res,
			 "): mutex released twice: nobody holds it (count 1), "
			 "by upper/");
}

CHILD_SCENARIO(locked_mutex_up_twice)
{
	struct semaphore sem;

	init_MUTEX_LOCKED(&sem);
	up(&sem);
	up(&sem);
	exit(0);
}

Test(semaphore, a_locked_mutex_released_twice_is_a_bug)
{
	struct child_result res;

	run_child("locked_mutex_up_twice", NULL, &res);
	assert_child_bug(&res, "BUG: up(", "mutex released twice");
}

Test(semaphore, a_counting_semaphore_counts_past_its_start)
{
	struct semaphore sem;

	sema_init(&sem, 1); /* a counting semaphore, not a mutex */
	up(&sem);
	up(&sem);
	cr_assert_eq(sem.count, 3);
	cr_assert_eq(down_trylock(&sem), 0);
	cr_assert_eq(down_trylock(&sem), 0);
	cr_assert_eq(down_trylock(&sem), 0);
	cr_assert_eq(down_trylock(&sem), 1);
}

CHILD_SCENARIO(up_uninitialised)
{
	static struct semaphore sem; /* no DECLARE_MUTEX, no init */

	up(&sem);
	exit(0);
}

Test(semaphore, up_of_an_uninitialised_semaphore_is_a_bug)
{
	struct child_result res;

	run_child("up_uninitialised", NULL, &res);
	assert_child_bug(&res, "BUG: up(", "): semaphore not initialised");
}

CHILD_SCENARIO(down_uninitialised)
{
	static struct semaphore sem;

	down(&sem);
	exit(0);
}

Test(semaphore, down_on_an_uninitialised_semaphore_is_a_bug)
{
	struct child_result res;

	run_child("down_uninitialised", NULL, &res);
	assert_child_bug(&res, "BUG: down(", "): semaphore not initialised");
}
