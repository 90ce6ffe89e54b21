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

static inline int cmpxchg_lock(spinlock_t *lock, int old, int new)
{
	return __atomic_compare_exchange_n(&lock->slock, &old, new, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void shim_spin_lock(spinlock_t *lock)
{
	int i;

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
