/*
 * kernel_lock.c - the big kernel lock (linux/smp_lock.h).
 *
 * The lock word is a spinlock's (spinlock.c): 0 free, 1 held, 2 held and
 * maybe slept on; a waiter spins briefly, then sleeps on the word in the
 * host.  Unlike a spinlock it leaves the preempt count alone, since its
 * holder may sleep, and schedule() lets it go for as long as the holder
 * sleeps (shim_schedule_kernel_locked): code that relies on it is
 * protected only between two sleeps, as it was in 2.5.
 */
#include "shim.h"
#include <linux/smp_lock.h>
#include <asm/processor.h>

#define SPIN_TRIES 100

static unsigned int kernel_flag;

static inline int cmpxchg_flag(unsigned int old, unsigned int new)
{
	return __atomic_compare_exchange_n(&kernel_flag, &old, new, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void get_kernel_lock(void)
{
	int i;

	if (likely(cmpxchg_flag(0, 1)))
		goto out;
	for (i = 0; i < SPIN_TRIES; i++) {
		cpu_relax();
		if (__atomic_load_n(&kernel_flag, __ATOMIC_RELAXED) == 0 &&
		    cmpxchg_flag(0, 1))
			goto out;
	}
	while (__atomic_exchange_n(&kernel_flag, 2, __ATOMIC_ACQUIRE) != 0)
		shim_host_wait(&kernel_flag, 2, -1);
out:
	shim_tsan_acquire(&kernel_flag);
}

static void put_kernel_lock(void)
{
	shim_tsan_release(&kernel_flag);
	if (__atomic_exchange_n(&kernel_flag, 0, __ATOMIC_RELEASE) == 2)
		shim_host_wake(&kernel_flag, 1);
}

void lock_kernel(void)
{
	struct task_struct *tsk = current;
	int depth = tsk->lock_depth + 1;

	if (!depth)
		get_kernel_lock();
	tsk->lock_depth = depth;
}

void unlock_kernel(void)
{
	struct task_struct *tsk = current;

	if (unlikely(tsk->lock_depth < 0)) {
		printk(KERN_EMERG
		       "BUG: unlock_kernel() by %s/%d, which does not "
		       "hold the big kernel lock\n",
		       tsk->comm, tsk->pid);
		BUG();
	}
	if (--tsk->lock_depth < 0)
		put_kernel_lock();
}

/*
 * schedule() of a task that holds the lock: let it go while the task
 * sleeps (or yields), take it back before the task runs on, at the depth
 * it had.
 */
void shim_schedule_kernel_locked(struct task_struct *tsk)
{
	int depth = tsk->lock_depth;

	tsk->lock_depth = -1;
	put_kernel_lock();
	schedule();
	get_kernel_lock();
	tsk->lock_depth = depth;
}
