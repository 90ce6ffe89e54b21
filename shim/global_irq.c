/*
 * global_irq.c - 2.4's global interrupt lock: cli(), sti(), save_flags()
 * and restore_flags() as an SMP i386 kernel of 2.4 had them.
 *
 * 2.4 code (shim/include-2.4) calls these; 2.5 code never does, and pays
 * for them only a load at schedule() and, at each hard interrupt, a count
 * and a load.  The rules, from 2.4.0 (arch/i386/kernel/irq.c,
 * include/asm-i386/hardirq.h, smplock.h, kernel/softirq.c):
 *
 * - cli() outside an interrupt handler, with interrupts enabled locally,
 *   disables them locally and takes the global lock: once no hard
 *   interrupt handler runs anywhere and, unless the caller is a bottom
 *   half itself, no bottom half runs (get_irqlock(), wait_on_irq()).
 *   The holder may take it again (it holds it already); with interrupts
 *   already disabled locally, or in a handler, cli() is only local.
 * - A hard interrupt handler does not start while another task holds the
 *   lock: interrupt entry counts itself, then waits (irq_enter()).
 * - A bottom half (timers included: TIMER_BH) does not start while the
 *   lock is held (bh_action()'s hardirq_trylock()).
 * - sti() outside a handler lets the lock go if the caller holds it, and
 *   enables interrupts locally.
 * - schedule() lets the lock go and enables interrupts (release_kernel_
 *   lock()); the task does not get it back when it runs again.  So a
 *   holder may sleep, and sleeping ends its critical section.
 * - save_flags() says 0 (the caller holds the lock), 1 (interrupts on,
 *   lock not held), 2 or 3 (interrupts off or on locally, and in a handler
 *   always one of these); restore_flags() takes the lock again for 0,
 *   lets it go for 1, and disables or enables locally for 2 and 3.
 *
 * "Interrupts disabled locally" is the shim's per-task flag
 * (IRQSOFF_OFFSET in the preempt count); a task, not a CPU, holds the
 * lock.  The 2.4 kernel spun; waiting here sleeps on a wait word, so that
 * a controlled run (SHIM_SCHED) schedules the waiters too.
 */
#include "shim.h"
#include <linux/interrupt.h>
#include <asm/bitops.h>

struct task_struct *shim_global_irq_holder;
static unsigned long global_irq_lock; /* bit 0: held, or being taken */
static int irqs_running;	      /* hard irq handlers, in every task */
static int bh_running;		      /* a bottom half or timers run */
static unsigned int irq_lock_seq;     /* wait word: bumped at each release */
static int irq_lock_waiters;

/* Something a waiter may wait for has changed: wake them, if there are any. */
static void irq_lock_changed(void)
{
	if (__atomic_load_n(&irq_lock_waiters, __ATOMIC_SEQ_CST)) {
		__atomic_add_fetch(&irq_lock_seq, 1, __ATOMIC_SEQ_CST);
		shim_host_wake(&irq_lock_seq, INT_MAX);
	}
}

/*
 * Sleep until @ready() holds.  The waiter counts itself in before it
 * reads the word, and the word before the condition: a change after the
 * test sees the waiter and bumps the word, so no wake-up is lost.
 */
static void irq_lock_wait(int (*ready)(void))
{
	__atomic_add_fetch(&irq_lock_waiters, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		unsigned int seq =
			__atomic_load_n(&irq_lock_seq, __ATOMIC_SEQ_CST);

		if (ready())
			break;
		shim_host_wait(&irq_lock_seq, seq, -1);
	}
	__atomic_sub_fetch(&irq_lock_waiters, 1, __ATOMIC_SEQ_CST);
}

static int lock_free(void)
{
	return !test_bit(0, &global_irq_lock);
}

/* What wait_on_irq() waits for, with the lock free: a bottom half too? */
static int lock_free_quiet_bh(void)
{
	return lock_free() &&
	       !__atomic_load_n(&irqs_running, __ATOMIC_SEQ_CST) &&
	       !__atomic_load_n(&bh_running, __ATOMIC_SEQ_CST);
}

static int lock_free_quiet(void)
{
	return lock_free() && !__atomic_load_n(&irqs_running, __ATOMIC_SEQ_CST);
}

/* get_irqlock(): the lock, with no handler and no other bottom half running */
static void get_irqlock(struct task_struct *me)
{
	int in_bh = in_softirq();

	if (shim_irqlock_held_by(me))
		return;
	for (;;) {
		/* a test-and-set: who takes it is a scheduling point */
		if (!test_and_set_bit(0, &global_irq_lock)) {
			if (!__atomic_load_n(&irqs_running, __ATOMIC_SEQ_CST) &&
			    (in_bh ||
			     !__atomic_load_n(&bh_running, __ATOMIC_SEQ_CST)))
				break;
			/* let the handlers that wait on it in, then try again */
			clear_bit(0, &global_irq_lock);
			irq_lock_changed();
		}
		irq_lock_wait(in_bh ? lock_free_quiet : lock_free_quiet_bh);
	}
	shim_tsan_acquire(&global_irq_lock);
	__atomic_store_n(&shim_global_irq_holder, me, __ATOMIC_RELAXED);
}

static void release_irqlock(struct task_struct *me)
{
	if (__atomic_load_n(&shim_global_irq_holder, __ATOMIC_RELAXED) != me)
		return;
	__atomic_store_n(&shim_global_irq_holder, NULL, __ATOMIC_RELAXED);
	shim_tsan_release(&global_irq_lock);
	clear_bit(0, &global_irq_lock);
	irq_lock_changed();
}

void __global_cli(void)
{
	if (shim_preempt & IRQSOFF_OFFSET)
		return; /* a local disable stays local */
	shim_preempt |= IRQSOFF_OFFSET;
	if (!in_irq())
		get_irqlock(current);
}

void __global_sti(void)
{
	if (!in_irq())
		release_irqlock(current);
	shim_preempt &= ~IRQSOFF_OFFSET;
}

unsigned long __global_save_flags(void)
{
	int local_enabled = !(shim_preempt & IRQSOFF_OFFSET);
	unsigned long flags = 2 + local_enabled;

	if (!in_irq()) {
		if (local_enabled)
			flags = 1;
		if (shim_irqlock_held_by(current))
			flags = 0;
	}
	return flags;
}

void __global_restore_flags(unsigned long flags)
{
	switch (flags) {
	case 0:
		__global_cli();
		break;
	case 1:
		__global_sti();
		break;
	case 2:
		shim_preempt |= IRQSOFF_OFFSET;
		break;
	case 3:
		shim_preempt &= ~IRQSOFF_OFFSET;
		break;
	default:
		printk(KERN_ERR "global_restore_flags: %08lx (%p)\n", flags,
		       __builtin_return_address(0));
	}
}

/* 2.4's synchronize_irq(): wait until no handler runs anywhere */
void __global_synchronize_irq(void)
{
	if (__atomic_load_n(&irqs_running, __ATOMIC_SEQ_CST)) {
		__global_cli();
		__global_sti();
	}
}

/*
 * schedule() (and yield()) of the holder: release_kernel_lock() lets the
 * lock go and enables interrupts; the task runs on without it.
 */
void shim_irqlock_schedule(struct task_struct *tsk)
{
	release_irqlock(tsk);
	shim_preempt &= ~IRQSOFF_OFFSET;
}

/* Would schedule() take the lock away, and nothing else makes it atomic? */
int shim_irqlock_may_sleep(void)
{
	return shim_irqlock_held_by(current) && shim_preempt == IRQSOFF_OFFSET;
}

static int irq_may_enter(void)
{
	return lock_free() || shim_irqlock_held_by(current);
}

/*
 * irq_enter(): on the CPU the task is on (control.c may move it there),
 * counted first, then no further while another task holds the lock
 */
void shim_irq_enter(void)
{
	if (unlikely(shim_controlled) && !shim_preempt)
		shim_ctl_irq_enter();
	shim_preempt_add(HARDIRQ_OFFSET);
	shim_defer_begin();
	shim_jiffy_polls = 0;
	__atomic_add_fetch(&irqs_running, 1, __ATOMIC_SEQ_CST);
	if (unlikely(test_bit(0, &global_irq_lock)) &&
	    !shim_irqlock_held_by(current))
		irq_lock_wait(irq_may_enter);
}

void shim_irq_exit(void)
{
	__atomic_sub_fetch(&irqs_running, 1, __ATOMIC_SEQ_CST);
	irq_lock_changed();
	shim_preempt_sub(HARDIRQ_OFFSET);
	/* what the handler woke runs now (sched.c) */
	shim_defer_end();
}

/*
 * Before a bottom half or a run of timers: not while the lock is held.
 * The holder itself running them (a test advancing the clock inside
 * cli()) goes on: 2.4 would have run them at its sti(), the shim cannot
 * put them off.
 */
void shim_bh_enter(void)
{
	for (;;) {
		__atomic_store_n(&bh_running, 1, __ATOMIC_SEQ_CST);
		if (!test_bit(0, &global_irq_lock) ||
		    shim_irqlock_held_by(current))
			return;
		__atomic_store_n(&bh_running, 0, __ATOMIC_SEQ_CST);
		irq_lock_changed();
		irq_lock_wait(lock_free);
	}
}

void shim_bh_exit(void)
{
	__atomic_store_n(&bh_running, 0, __ATOMIC_SEQ_CST);
	irq_lock_changed();
}

/* For the test API: does anyone hold it? */
int shim_global_irq_held(void)
{
	return __atomic_load_n(&shim_global_irq_holder, __ATOMIC_RELAXED) !=
	       NULL;
}
