/*
 * spinlock.c - spinlocks that spin a little, then sleep.
 *
 * The lock word is 0 (free), 1 (held) or 2 (held, maybe with sleepers).  A
 * waiter spins for a short while, as on SMP hardware, then sleeps on the
 * word in the host kernel: on a 2-core machine the holder may be preempted,
 * and spinning until it runs again would burn the other core.
 *
 * The checks of CONFIG_DEBUG_SPINLOCK come with it: a lock must have been
 * initialised (its magic), is released only by the task that holds it,
 * and is never taken again by its holder (which would spin for ever).
 * What they report is a BUG.  With SHIM_DEBUG=0 they cost a test of
 * shim_debug_checks; recursion is looked for only when the lock is busy.
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

/* the first use seen of the other kind: a BUG naming both places */
static noinline __attribute__((cold)) void
mark_irq_usage(spinlock_t *lock, unsigned int bit, void *ip)
{
	char a[128], b[128];
	unsigned int old;

	/* two CPUs may mark the same first use at once: atomics, not a race */
	__atomic_store_n(&lock->usage_ip[bit - 1], ip, __ATOMIC_RELEASE);
	old = __atomic_fetch_or(&lock->usage, bit, __ATOMIC_ACQ_REL);
	if ((old & bit) || !(old & (USED_IN_HARDIRQ | USED_HARDIRQ_ON)))
		return;
	printk(KERN_EMERG "BUG: inconsistent lock state: spinlock %p taken in "
			  "hard-irq context in %s and with interrupts enabled "
			  "in %s (%s/%d)\n",
	       (void *) lock,
	       shim_symbol((unsigned long) __atomic_load_n(&lock->usage_ip[0],
							   __ATOMIC_ACQUIRE),
			   a, sizeof(a)),
	       shim_symbol((unsigned long) __atomic_load_n(&lock->usage_ip[1],
							   __ATOMIC_ACQUIRE),
			   b, sizeof(b)),
	       current->comm, current->pid);
	BUG();
}

static inline void check_irq_usage(spinlock_t *lock, void *ip)
{
	unsigned int bit;

	/* off, one branch: the usage bits are only ever read with it on */
	if (!shim_debug_checks)
		return;
	if (shim_preempt & HARDIRQ_MASK)
		bit = USED_IN_HARDIRQ;
	else if (!(shim_preempt & IRQSOFF_OFFSET))
		bit = USED_HARDIRQ_ON;
	else
		return;
	if (likely(__atomic_load_n(&lock->usage, __ATOMIC_RELAXED) & bit))
		return;
	mark_irq_usage(lock, bit, ip);
}

/*
 * The lock's holder: the task that took it, as DEBUG_SPINLOCK's owner.
 * Read by waiters (recursion) while the holder writes it: relaxed atomics.
 */
static inline struct task_struct *get_owner(spinlock_t *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
}

/* @tsk: current, or NULL in a thread that has no task (yet, or any more) */
static inline void set_owner(spinlock_t *lock, struct task_struct *tsk)
{
	__atomic_store_n(&lock->owner, tsk, __ATOMIC_RELAXED);
	if (tsk)
		lock->owner_pid = tsk->pid;
}

static noinline __attribute__((cold, noreturn)) void
spin_bug(spinlock_t *lock, const char *msg, void *ip)
{
	char where[128];

	/* the owner may have exited since: only its pid is safe to show */
	printk(KERN_EMERG "BUG: spinlock %s: lock %p (magic %08x, owner pid "
			  "%d) in %s, by %s/%d\n",
	       msg, (void *) lock, lock->magic,
	       get_owner(lock) ? lock->owner_pid : -1,
	       shim_symbol_caller(ip, where, sizeof(where)), current->comm,
	       current->pid);
	BUG();
}

noinline void shim_uninitialised(const spinlock_t *lock, const char *func,
				 const char *type, const void *obj)
{
	if (!shim_debug_checks)
		return;
	printk(KERN_EMERG "BUG: %s(%p): %s not initialised (its lock %p has "
			  "magic %08x, not %08x), by %s/%d\n",
	       func, obj, type, (void *) lock, lock->magic, SPINLOCK_MAGIC,
	       current->comm, current->pid);
	BUG();
}

static inline void check_magic(spinlock_t *lock, void *ip)
{
	if (unlikely(lock->magic != SPINLOCK_MAGIC))
		spin_bug(lock, "bad magic (not initialised)", ip);
}

static inline int cmpxchg_lock(spinlock_t *lock, int old, int new)
{
	return __atomic_compare_exchange_n(&lock->slock, &old, new, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void shim_spin_lock(spinlock_t *lock)
{
	struct task_struct *me = NULL;
	int i;

	if (shim_debug_checks) {
		me = shim_current;
		check_magic(lock, __builtin_return_address(0));
	}
	check_irq_usage(lock, __builtin_return_address(0));
	shim_preempt_add(PREEMPT_OFFSET);
	shim_point(SHIM_POINT_LOCK);
	/* fibers: no other thread can take it between the test and the set */
	if (unlikely(shim_fibers)) {
		if (likely(!__atomic_load_n(&lock->slock, __ATOMIC_RELAXED))) {
			__atomic_store_n(&lock->slock, 1, __ATOMIC_RELAXED);
			goto out;
		}
	} else if (likely(cmpxchg_lock(lock, 0, 1))) {
		goto out;
	}
	/* held: by us, it would never be released */
	if (unlikely(me && get_owner(lock) == me))
		spin_bug(lock, "recursion", __builtin_return_address(0));
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
	if (me)
		set_owner(lock, me);
}

int shim_spin_trylock(spinlock_t *lock)
{
	if (shim_debug_checks)
		check_magic(lock, __builtin_return_address(0));
	shim_preempt_add(PREEMPT_OFFSET);
	if (cmpxchg_lock(lock, 0, 1)) {
		shim_tsan_acquire(lock);
		if (shim_debug_checks)
			set_owner(lock, shim_current);
		return 1;
	}
	shim_preempt_sub(PREEMPT_OFFSET);
	/* a loop of failed tries alone may be a busy wait */
	shim_poll(&lock->slock, 0);
	return 0;
}

static noinline __attribute__((cold, noreturn)) void
unlock_unlocked(spinlock_t *lock)
{
	printk(KERN_EMERG "BUG: spin_unlock of unlocked spinlock %p by %s/%d\n",
	       (void *) lock, current->comm, current->pid);
	BUG();
}

void shim_spin_unlock(spinlock_t *lock)
{
	void *ip = __builtin_return_address(0);
	int old;

	if (shim_debug_checks) {
		struct task_struct *owner = get_owner(lock);

		check_magic(lock, ip);
		/* no owner: taken by a thread that had no task yet */
		if (unlikely(owner != shim_current) && owner &&
		    __atomic_load_n(&lock->slock, __ATOMIC_RELAXED))
			spin_bug(lock,
				 "wrong owner (released by a task that "
				 "does not hold it)",
				 ip);
		set_owner(lock, NULL);
	}
	shim_tsan_release(lock);
	if (unlikely(shim_fibers)) {
		old = __atomic_load_n(&lock->slock, __ATOMIC_RELAXED);
		__atomic_store_n(&lock->slock, 0, __ATOMIC_RELAXED);
	} else {
		old = __atomic_exchange_n(&lock->slock, 0, __ATOMIC_RELEASE);
	}
	if (unlikely(old == 0))
		unlock_unlocked(lock);
	if (old == 2)
		shim_host_wake(&lock->slock, 1);
	shim_preempt_sub(PREEMPT_OFFSET);
	shim_point(SHIM_POINT_UNLOCK);
}
