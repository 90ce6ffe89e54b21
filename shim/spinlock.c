/*
 * spinlock.c - spinlocks that spin a little, then sleep.
 *
 * The lock word is 0 (free), 1 (held) or 2 (held, maybe with sleepers).  A
 * waiter spins for a short while, as on SMP hardware, then sleeps on the
 * word in the host kernel: on a 2-core machine the holder may be preempted,
 * and spinning until it runs again would burn the other core.
 */
#include "shim.h"
#include <linux/spinlock.h>
#include <asm/processor.h>

#define SPIN_TRIES 100

/*
 * lockdep's irq-safety rule: a lock taken in hard-irq context must never
 * be taken with interrupts enabled, or the interrupt can come on the CPU
 * that holds it and spin there for ever.  Whether that interleaving shows
 * is luck, so each lock remembers which of the two ways it was taken, and
 * where first; the second way seen is a BUG naming both places.  It is
 * the mistake of a routine moved from a bottom half to a worker that
 * drops the irqsave because "it runs in process context now".
 */
#define USED_IN_HARDIRQ 1
#define USED_HARDIRQ_ON 2

static void check_irq_usage(spinlock_t *lock, void *ip)
{
	char a[128], b[128];
	unsigned int bit, old;

	if (shim_preempt & HARDIRQ_MASK)
		bit = USED_IN_HARDIRQ;
	else if (!(shim_preempt & IRQSOFF_OFFSET))
		bit = USED_HARDIRQ_ON;
	else
		return;
	if (likely(__atomic_load_n(&lock->usage, __ATOMIC_RELAXED) & bit) ||
	    !shim_debug_enabled())
		return;
	lock->usage_ip[bit - 1] = ip;
	old = __atomic_fetch_or(&lock->usage, bit, __ATOMIC_ACQ_REL);
	if ((old & bit) || !(old & (USED_IN_HARDIRQ | USED_HARDIRQ_ON)))
		return;
	printk(KERN_EMERG "BUG: inconsistent lock state: spinlock %p taken in "
			  "hard-irq context in %s and with interrupts enabled "
			  "in %s (%s/%d)\n",
	       (void *) lock,
	       shim_symbol((unsigned long) lock->usage_ip[0], a, sizeof(a)),
	       shim_symbol((unsigned long) lock->usage_ip[1], b, sizeof(b)),
	       current->comm, current->pid);
	BUG();
}

static inline int cmpxchg_lock(spinlock_t *lock, int old, int new)
{
	return __atomic_compare_exchange_n(&lock->slock, &old, new, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void shim_spin_lock(spinlock_t *lock)
{
	int i;

	check_irq_usage(lock, __builtin_return_address(0));
	shim_preempt_add(PREEMPT_OFFSET);
	shim_point(SHIM_POINT_LOCK);
	if (likely(cmpxchg_lock(lock, 0, 1)))
		goto out;
	/* in a controlled run the holder cannot run while we spin */
	for (i = 0; i < SPIN_TRIES && !shim_controlled; i++) {
		__cpu_relax();
		if (__atomic_load_n(&lock->slock, __ATOMIC_RELAXED) == 0 &&
		    cmpxchg_lock(lock, 0, 1))
			goto out;
	}
	/* mark the lock contended, and sleep until it is released */
	while (__atomic_exchange_n(&lock->slock, 2, __ATOMIC_ACQUIRE) != 0)
		shim_host_wait(&lock->slock, 2, -1);
out:
	shim_tsan_acquire(lock);
}

int shim_spin_trylock(spinlock_t *lock)
{
	shim_preempt_add(PREEMPT_OFFSET);
	if (cmpxchg_lock(lock, 0, 1)) {
		shim_tsan_acquire(lock);
		return 1;
	}
	shim_preempt_sub(PREEMPT_OFFSET);
	return 0;
}

void shim_spin_unlock(spinlock_t *lock)
{
	int old;

	shim_tsan_release(lock);
	old = __atomic_exchange_n(&lock->slock, 0, __ATOMIC_RELEASE);
	if (unlikely(old == 0)) {
		printk(KERN_EMERG "BUG: spin_unlock of unlocked spinlock %p "
				  "by %s/%d\n",
		       (void *) lock, current->comm, current->pid);
		BUG();
	}
	if (old == 2)
		shim_host_wake(&lock->slock, 1);
	shim_preempt_sub(PREEMPT_OFFSET);
	shim_point(SHIM_POINT_UNLOCK);
}
