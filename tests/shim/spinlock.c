/*
 * spinlock.c - spinlocks, local_irq_save and the atomic-context rules.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(spinlock, .timeout = SUITE_TIMEOUT);

#define SPIN_LOOPS 100000

struct counting {
	spinlock_t lock;
	long counter;
	int arrived;
	struct completion done;
};

static int counting_thread(void *arg)
{
	struct counting *c = arg;
	long i;

	meet(&c->arrived, 2);
	for (i = 0; i < SPIN_LOOPS; i++) {
		spin_lock(&c->lock);
		c->counter++;
		spin_unlock(&c->lock);
	}
	complete(&c->done);
	return 0;
}

Test(spinlock, mutual_exclusion_two_threads_100k_increments)
{
	struct counting c = { .lock = SPIN_LOCK_UNLOCKED, .counter = 0 };

	init_completion(&c.done);
	start_kthread(counting_thread, &c);
	start_kthread(counting_thread, &c);
	wait_for_completion(&c.done);
	wait_for_completion(&c.done);
	cr_assert_eq(c.counter, 2 * SPIN_LOOPS);
	cr_assert_not(spin_is_locked(&c.lock));
}

Test(spinlock, holder_is_atomic)
{
	DEFINE_SPINLOCK(lock);

	cr_assert_not(in_atomic());
	spin_lock(&lock);
	cr_assert(in_atomic());
	cr_assert(spin_is_locked(&lock));
	spin_unlock(&lock);
	cr_assert_not(in_atomic());
	cr_assert_not(spin_is_locked(&lock));
}

Test(spinlock, trylock_fails_on_a_held_lock)
{
	spinlock_t lock;

	spin_lock_init(&lock);
	cr_assert_eq(spin_trylock(&lock), 1);
	cr_assert_eq(preempt_count(), PREEMPT_OFFSET);
	cr_assert_eq(spin_trylock(&lock), 0);
	cr_assert_eq(preempt_count(), PREEMPT_OFFSET,
		     "a failed trylock is not held");
	spin_unlock(&lock);
	cr_assert_eq(preempt_count(), 0);
}

Test(spinlock, irqsave_assigns_flags_and_restores)
{
	unsigned long outer = 0xdeadbeef, inner = 0xdeadbeef;
	DEFINE_SPINLOCK(a);
	DEFINE_SPINLOCK(b);

	cr_assert_not(irqs_disabled());
	spin_lock_irqsave(&a, outer);
	cr_assert_neq(outer, 0xdeadbeef, "flags not assigned");
	cr_assert(irqs_disabled());
	spin_lock_irqsave(&b, inner);
	cr_assert_neq(inner, 0xdeadbeef, "flags not assigned");
	cr_assert_neq(inner, outer, "the two saves saw different states");
	spin_unlock_irqrestore(&b, inner);
	cr_assert(irqs_disabled(), "the inner restore enabled interrupts");
	spin_unlock_irqrestore(&a, outer);
	cr_assert_not(irqs_disabled());
	cr_assert_eq(preempt_count(), 0);
}

Test(spinlock, local_irq_save_nests)
{
	unsigned long f1, f2;

	local_irq_save(f1);
	cr_assert(irqs_disabled());
	cr_assert(in_atomic());
	local_irq_save(f2);
	local_irq_restore(f2);
	cr_assert(irqs_disabled());
	local_irq_restore(f1);
	cr_assert_not(irqs_disabled());
	cr_assert_not(in_atomic());
}

Test(spinlock, lock_irq_disables_until_unlock)
{
	DEFINE_SPINLOCK(lock);

	spin_lock_irq(&lock);
	cr_assert(irqs_disabled());
	spin_unlock_irq(&lock);
	cr_assert_not(irqs_disabled());
	cr_assert_eq(preempt_count(), 0);
}

Test(spinlock, lock_bh_disables_bottom_halves)
{
	DEFINE_SPINLOCK(lock);

	spin_lock_bh(&lock);
	cr_assert(in_softirq());
	cr_assert_not(in_irq());
	spin_unlock_bh(&lock);
	cr_assert_not(in_softirq());
	cr_assert_eq(preempt_count(), 0);
}

Test(spinlock, schedule_under_spinlock_aborts, .signal = SIGABRT,
     .init = quiet_console)
{
	DEFINE_SPINLOCK(lock);

	spin_lock(&lock);
	schedule();
}

/* the diagnostics, read from a child that makes the mistake */

CHILD_SCENARIO(schedule_under_spinlock)
{
	DEFINE_SPINLOCK(lock);

	strcpy(current->comm, "spinner");
	spin_lock(&lock);
	schedule();
}

Test(spinlock, schedule_under_spinlock_names_the_task)
{
	struct child_result res;

	run_child("schedule_under_spinlock", NULL, &res);
	assert_child_bug(&res, "BUG: scheduling while atomic: spinner/");
}

CHILD_SCENARIO(schedule_with_irqs_off)
{
	unsigned long flags;

	strcpy(current->comm, "irqsoff");
	local_irq_save(flags);
	schedule();
	local_irq_restore(flags);
}

Test(spinlock, schedule_with_irqs_disabled_is_a_bug)
{
	struct child_result res;

	run_child("schedule_with_irqs_off", NULL, &res);
	assert_child_bug(&res, "BUG: scheduling while atomic: irqsoff/");
	assert_child_said(&res, "/0x01000000");
}

CHILD_SCENARIO(unlock_unlocked)
{
	DEFINE_SPINLOCK(lock);

	strcpy(current->comm, "unlocker");
	spin_unlock(&lock);
}

Test(spinlock, unlock_of_unlocked_lock_is_a_bug)
{
	struct child_result res;

	run_child("unlock_unlocked", NULL, &res);
	assert_child_bug(&res, "BUG: spin_unlock of unlocked spinlock");
	assert_child_said(&res, "by unlocker/");
}

CHILD_SCENARIO(bh_enable_without_disable)
{
	local_bh_enable();
}

Test(spinlock, preempt_count_underflow_is_a_bug)
{
	struct child_result res;

	run_child("bh_enable_without_disable", NULL, &res);
	assert_child_bug(&res, "BUG: preempt count underflow");
}

/* --- CONFIG_DEBUG_SPINLOCK's checks ------------------------------------- */

CHILD_SCENARIO(lock_uninitialised)
{
	static spinlock_t lock; /* zeroed: no SPIN_LOCK_UNLOCKED, no init */

	strcpy(current->comm, "locker");
	spin_lock(&lock);
	exit(0); /* not a tail call: the report names this function */
}

Test(spinlock, taking_an_uninitialised_lock_is_a_bug)
{
	struct child_result res;

	run_child("lock_uninitialised", NULL, &res);
	assert_child_bug(&res, "BUG: spinlock bad magic (not initialised)",
			 "(magic 00000000", "in child_lock_uninitialised",
			 "by locker/");
}

Test(spinlock, every_initialiser_makes_a_lock_that_works)
{
	spinlock_t a = SPIN_LOCK_UNLOCKED, b, c[2] = { SPIN_LOCK_UNLOCKED };
	DEFINE_SPINLOCK(d);

	spin_lock_init(&b);
	c[1] = b;
	spin_lock(&a);
	spin_lock(&b);
	spin_lock(&c[0]);
	spin_lock(&c[1]);
	spin_lock(&d);
	cr_assert_eq(preempt_count(), 5 * PREEMPT_OFFSET);
	spin_unlock(&d);
	spin_unlock(&c[1]);
	spin_unlock(&c[0]);
	spin_unlock(&b);
	spin_unlock(&a);
	cr_assert_eq(preempt_count(), 0);
}

CHILD_SCENARIO(lock_recursion)
{
	DEFINE_SPINLOCK(lock);

	strcpy(current->comm, "twice");
	spin_lock(&lock);
	spin_lock(&lock); /* spins for ever on a kernel */
}

Test(spinlock, taking_a_lock_one_holds_is_a_bug)
{
	struct child_result res;

	run_child("lock_recursion", NULL, &res);
	assert_child_bug(&res, "BUG: spinlock recursion",
			 "(magic dead4ead, owner pid ",
			 "in child_lock_recursion", "by twice/");
}

struct handoff {
	spinlock_t lock;
	struct completion locked;
};

static int lock_and_leave(void *arg)
{
	struct handoff *h = arg;

	strcpy(current->comm, "taker");
	spin_lock(&h->lock);
	preempt_enable(); /* leave atomic context, still holding the lock */
	complete(&h->locked);
	return 0;
}

CHILD_SCENARIO(unlock_by_non_owner)
{
	static struct handoff h = { .lock = SPIN_LOCK_UNLOCKED };

	init_completion(&h.locked);
	strcpy(current->comm, "releaser");
	kernel_thread(lock_and_leave, &h, 0);
	wait_for_completion(&h.locked);
	preempt_disable(); /* as if we had taken it: only the owner differs */
	spin_unlock(&h.lock);
	exit(0);
}

Test(spinlock, releasing_a_lock_another_task_holds_is_a_bug)
{
	struct child_result res;

	run_child("unlock_by_non_owner", NULL, &res);
	assert_child_bug(&res,
			 "BUG: spinlock wrong owner (released by a task that "
			 "does not hold it)",
			 "owner pid ", "in child_unlock_by_non_owner",
			 "by releaser/");
}

Test(spinlock, shim_debug_0_takes_an_uninitialised_lock)
{
	struct child_result res;

	run_child("lock_uninitialised", "SHIM_DEBUG=0", &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "status 0x%x: %s", res.status, res.out);
}

/* --- interrupt flags: CONFIG_DEBUG_IRQFLAGS's check ------------------------ */

CHILD_SCENARIO(unlock_irq_inside_irqsave)
{
	DEFINE_SPINLOCK(outer);
	DEFINE_SPINLOCK(inner);
	unsigned long flags;

	strcpy(current->comm, "irqs");
	spin_lock_irqsave(&outer, flags);
	spin_lock_irq(&inner);
	spin_unlock_irq(&inner); /* enables interrupts under outer */
	spin_unlock_irqrestore(&outer, flags);
	exit(irqs_disabled() ? 3 : 0);
}

Test(spinlock, restoring_flags_with_interrupts_enabled_warns)
{
	struct child_result res;

	run_child("unlock_irq_inside_irqsave", NULL, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "a warning goes on: status 0x%x: %s", res.status, res.out);
	assert_child_said(&res, "WARNING: local_irq_restore(0) called with "
				"interrupts enabled in "
				"child_unlock_irq_inside_irqsave");
	assert_child_said(&res, "(irqs/");
}

CHILD_SCENARIO(irqs_nested_properly)
{
	DEFINE_SPINLOCK(outer);
	DEFINE_SPINLOCK(inner);
	unsigned long f1, f2;

	spin_lock_irqsave(&outer, f1);
	spin_lock_irqsave(&inner, f2);
	spin_unlock_irqrestore(&inner, f2);
	spin_unlock_irqrestore(&outer, f1);
	local_irq_enable(); /* already enabled: harmless */
	spin_lock_irq(&outer);
	spin_unlock_irq(&outer);
	exit(0);
}

Test(spinlock, nested_saves_and_restores_do_not_warn)
{
	struct child_result res;

	run_child("irqs_nested_properly", NULL, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "status 0x%x: %s", res.status, res.out);
	cr_assert_not(strstr(res.out, "WARNING"), "%s", res.out);
}
