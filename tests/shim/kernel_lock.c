/*
 * kernel_lock.c - the big kernel lock: recursive per task, exclusive
 * between tasks, let go while its holder sleeps and taken back before the
 * holder runs on; unlock_kernel() without it is a BUG.
 *
 * "Blocked on the lock" is seen from outside, in /proc: a task that waits
 * for it sleeps in the host ('S'), on a futex that is not its own wake-up
 * word (the one schedule() sleeps on).
 */
#include <criterion/criterion.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>

#include <linux/sched.h>
#include <linux/smp_lock.h>
#include <linux/completion.h>
#include <asm/processor.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(kernel_lock, .timeout = SUITE_TIMEOUT);

/* Yield until thread @tid sleeps in the host or @flag is set; the flag. */
static int asleep_or_set(pid_t tid, int *flag)
{
	while (!__atomic_load_n(flag, __ATOMIC_SEQ_CST) &&
	       host_state(tid) != 'S')
		sched_yield();
	return __atomic_load_n(flag, __ATOMIC_SEQ_CST);
}

/* The futex word thread @tid sleeps on, or 0 if it is not in futex(). */
static unsigned long futex_waited_on(pid_t tid)
{
	char path[64], line[256];
	unsigned long addr;
	long nr;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int) tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	if (sscanf(line, "%ld %lx", &nr, &addr) != 2 || nr != SYS_futex)
		return 0;
	return addr;
}

static pid_t wait_tid(pid_t *tidp)
{
	pid_t tid;

	while (!(tid = __atomic_load_n(tidp, __ATOMIC_SEQ_CST)))
		sched_yield();
	return tid;
}

struct depth_seen {
	int depth, locked;
	struct completion done;
};

static int report_depth(void *arg)
{
	struct depth_seen *d = arg;

	d->depth = current->lock_depth;
	d->locked = kernel_locked();
	complete(&d->done);
	return 0;
}

Test(kernel_lock, is_taken_recursively_and_counted_in_lock_depth)
{
	struct depth_seen d;

	cr_assert_eq(current->lock_depth, -1);
	cr_assert_not(kernel_locked());
	lock_kernel();
	cr_assert_eq(current->lock_depth, 0);
	cr_assert(kernel_locked());
	lock_kernel();
	cr_assert_eq(current->lock_depth, 1);
	unlock_kernel();
	cr_assert_eq(current->lock_depth, 0);
	cr_assert(kernel_locked(), "the outer lock_kernel() still holds it");

	/* kernel_locked() is about the caller: a new task does not hold it */
	init_completion(&d.done);
	start_kthread(report_depth, &d);
	wait_for_completion(&d.done);
	cr_assert_eq(d.depth, -1);
	cr_assert_not(d.locked);

	unlock_kernel();
	cr_assert_eq(current->lock_depth, -1);
	cr_assert_not(kernel_locked());
}

struct contender {
	pid_t tid;
	int got;
	struct completion done;
};

static int contend(void *arg)
{
	struct contender *c = arg;

	__atomic_store_n(&c->tid, host_tid(), __ATOMIC_SEQ_CST);
	lock_kernel();
	__atomic_store_n(&c->got, 1, __ATOMIC_SEQ_CST);
	unlock_kernel();
	complete(&c->done);
	return 0;
}

Test(kernel_lock, lock_kernel_waits_until_the_holder_lets_go)
{
	struct contender c = { .tid = 0 };
	pid_t tid;

	init_completion(&c.done);
	lock_kernel();
	lock_kernel();
	start_kthread(contend, &c);
	tid = wait_tid(&c.tid);
	cr_assert_not(asleep_or_set(tid, &c.got),
		      "lock_kernel() went through while another task held it");
	unlock_kernel();
	unlock_kernel();
	wait_for_completion(&c.done);
	cr_assert(c.got);
}

/* two kernel threads in one critical section, nested twice, many times */
#define BKL_LOOPS 20000

struct exclusion {
	int inside; /* plain, as the lock's users would keep it */
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
	for (i = 0; i < BKL_LOOPS; i++) {
		lock_kernel();
		if (++e->inside != 1)
			e->overlaps++;
		lock_kernel();
		v = e->counter;
		unlock_kernel();
		/* still held by the outer lock: the other task stays out */
		if (!(i % 256))
			sched_yield();
		e->counter = v + 1;
		e->inside--;
		unlock_kernel();
	}
	complete(&e->done);
	return 0;
}

Test(kernel_lock, two_tasks_never_hold_it_at_once)
{
	struct exclusion e = { .counter = 0 };

	init_completion(&e.done);
	start_kthread(exclusion_thread, &e);
	start_kthread(exclusion_thread, &e);
	wait_for_completion(&e.done);
	wait_for_completion(&e.done);
	cr_assert_eq(e.overlaps, 0);
	cr_assert_eq(e.counter, 2 * BKL_LOOPS);
}

/*
 * A holder (at depth 1) sleeps in schedule(): the test's task takes the
 * lock meanwhile and wakes the holder while still holding it.  The holder
 * must not run on until the lock is free again, must then hold it at the
 * depth it had, and keep it from the test until it lets go.
 */
struct sleeper {
	struct task_struct *task;
	pid_t tid, tester;
	int asleep, woken, back;
	int tester_trying, tester_got;
	int depth_after, locked_after;
	long timeout_left;
	int use_timeout;
	struct completion done;
};

static int sleep_holding_it(void *arg)
{
	struct sleeper *s = arg;

	lock_kernel();
	lock_kernel();
	s->task = current;
	__atomic_store_n(&s->tid, host_tid(), __ATOMIC_SEQ_CST);
	if (s->use_timeout) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		__atomic_store_n(&s->asleep, 1, __ATOMIC_SEQ_CST);
		s->timeout_left = schedule_timeout(10);
	} else {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			__atomic_store_n(&s->asleep, 1, __ATOMIC_SEQ_CST);
			if (__atomic_load_n(&s->woken, __ATOMIC_SEQ_CST))
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
	}
	__atomic_store_n(&s->back, 1, __ATOMIC_SEQ_CST);
	s->depth_after = current->lock_depth;
	s->locked_after = kernel_locked();
	/* hold on until the tester waits for the lock (or wrongly has it) */
	while (!__atomic_load_n(&s->tester_trying, __ATOMIC_SEQ_CST))
		sched_yield();
	asleep_or_set(s->tester, &s->tester_got);
	__atomic_store_n(&s->back, 0, __ATOMIC_SEQ_CST);
	unlock_kernel();
	unlock_kernel();
	complete(&s->done);
	return 0;
}

static void sleeping_holder_lets_it_go(int use_timeout)
{
	struct sleeper s = { .tid = 0, .use_timeout = use_timeout };
	pid_t tid;

	if (use_timeout)
		shim_clock_virtual();
	s.tester = host_tid();
	init_completion(&s.done);
	start_kthread(sleep_holding_it, &s);
	tid = wait_tid(&s.tid);
	while (!__atomic_load_n(&s.asleep, __ATOMIC_SEQ_CST))
		sched_yield();

	/* a hang here is the failure: the sleeper kept the lock */
	lock_kernel();
	cr_assert_not(__atomic_load_n(&s.back, __ATOMIC_SEQ_CST));
	if (use_timeout) {
		shim_clock_advance(10); /* its timer wakes it */
	} else {
		__atomic_store_n(&s.woken, 1, __ATOMIC_SEQ_CST);
		wake_up_process(s.task);
	}
	/* woken, it leaves schedule()'s sleep for the lock we hold */
	for (;;) {
		unsigned long word = futex_waited_on(tid);

		if (__atomic_load_n(&s.back, __ATOMIC_SEQ_CST) ||
		    (word && word != (unsigned long) &s.task->shim_wake_seq))
			break;
		sched_yield();
	}
	cr_assert_not(__atomic_load_n(&s.back, __ATOMIC_SEQ_CST),
		      "the sleeper ran on without the big kernel lock");
	unlock_kernel();

	while (!__atomic_load_n(&s.back, __ATOMIC_SEQ_CST))
		sched_yield();
	__atomic_store_n(&s.tester_trying, 1, __ATOMIC_SEQ_CST);
	lock_kernel();
	__atomic_store_n(&s.tester_got, 1, __ATOMIC_SEQ_CST);
	cr_assert_not(__atomic_load_n(&s.back, __ATOMIC_SEQ_CST),
		      "the sleeper did not take the lock back");
	unlock_kernel();
	wait_for_completion(&s.done);
	cr_assert_eq(s.depth_after, 1, "lock_depth %d after the sleep",
		     s.depth_after);
	cr_assert(s.locked_after);
	if (use_timeout)
		cr_assert_eq(s.timeout_left, 0);
}

Test(kernel_lock, is_let_go_while_its_holder_sleeps_in_schedule)
{
	sleeping_holder_lets_it_go(0);
}

Test(kernel_lock, is_let_go_while_its_holder_sleeps_in_schedule_timeout)
{
	sleeping_holder_lets_it_go(1);
}

CHILD_SCENARIO(unlock_without_lock)
{
	lock_kernel();
	unlock_kernel();
	unlock_kernel();
}

Test(kernel_lock, unlock_kernel_without_holding_it_is_a_bug)
{
	struct child_result res;

	run_child("unlock_without_lock", NULL, &res);
	assert_child_bug(&res, "BUG: unlock_kernel() by ",
			 "which does not hold the big kernel lock");
}
