/*
 * spinlock.c - spinlocks, local_irq_save and the atomic-context rules.
 */
#include <criterion/criterion.h>
#include <signal.h>
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
