#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H

#include <linux/compiler.h>
#include <linux/cache.h>
#include <linux/preempt.h>
#include <asm/system.h>
#include <shim/point.h>

/*
 * A spinlock spins briefly, then sleeps in the host kernel, so a
 * holder preempted on a 2-core machine does not make waiters burn a core.
 * Holding one makes the holder atomic, exactly as in the kernel.
 *
 * As with CONFIG_DEBUG_SPINLOCK, a lock carries a magic number that only
 * its initialisers write, and its owner: taking a lock nobody initialised
 * (and so a wake-up, complete() or up() on an object nobody initialised),
 * taking one again while holding it, and releasing one held by another
 * task are BUGs naming the lock and the function.
 */
#define SPINLOCK_MAGIC 0xdead4ead

struct task_struct;

typedef struct {
	volatile int slock; /* 0 free, 1 held, 2 held with waiters */
	unsigned int magic; /* SPINLOCK_MAGIC once initialised */
	struct task_struct *owner;
	/* lockdep's irq-safety state: how it was taken, and where first */
	unsigned int usage;
	int owner_pid; /* the owner's, for a report after it has gone */
	void *usage_ip[2];
} spinlock_t;

/* clang-format off */
#define __SPIN_LOCK_UNLOCKED	{ .slock = 0, .magic = SPINLOCK_MAGIC }
/* clang-format on */
#define SPIN_LOCK_UNLOCKED (spinlock_t) __SPIN_LOCK_UNLOCKED
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED

#define spin_lock_init(lock)                    \
	do {                                    \
		(lock)->slock = 0;              \
		(lock)->magic = SPINLOCK_MAGIC; \
		(lock)->owner = NULL;           \
		(lock)->usage = 0;              \
		(lock)->usage_ip[0] = NULL;     \
		(lock)->usage_ip[1] = NULL;     \
	} while (0)
/* a loop of them alone may be a busy wait (shim/point.h) */
#define spin_is_locked(lock)                                            \
	({                                                              \
		shim_poll(&(lock)->slock, 0);                           \
		__atomic_load_n(&(lock)->slock, __ATOMIC_RELAXED) != 0; \
	})

/*
 * BUG, naming @func and the @type object at @obj that holds @lock, unless
 * @lock was initialised: for the APIs whose objects carry a lock
 * (complete() on a completion, up() on a semaphore, wake_up() on a wait
 * queue), so that the report names the object, not just its lock.
 */
#define shim_check_initialised(lock, func, type, obj)                      \
	do {                                                               \
		if (unlikely((lock)->magic != SPINLOCK_MAGIC))             \
			shim_uninitialised((lock), (func), (type), (obj)); \
	} while (0)
extern void shim_uninitialised(const spinlock_t *lock, const char *func,
			       const char *type, const void *obj);

extern void shim_spin_lock(spinlock_t *lock);
extern int shim_spin_trylock(spinlock_t *lock);
extern void shim_spin_unlock(spinlock_t *lock);

#define spin_lock(lock) shim_spin_lock(lock)
#define spin_trylock(lock) shim_spin_trylock(lock)
#define spin_unlock(lock) shim_spin_unlock(lock)

#define spin_lock_irqsave(lock, flags) \
	do {                           \
		local_irq_save(flags); \
		spin_lock(lock);       \
	} while (0)
#define spin_unlock_irqrestore(lock, flags) \
	do {                                \
		spin_unlock(lock);          \
		local_irq_restore(flags);   \
	} while (0)
#define spin_lock_irq(lock)          \
	do {                         \
		local_irq_disable(); \
		spin_lock(lock);     \
	} while (0)
#define spin_unlock_irq(lock)       \
	do {                        \
		spin_unlock(lock);  \
		local_irq_enable(); \
	} while (0)
#define spin_lock_bh(lock)          \
	do {                        \
		local_bh_disable(); \
		spin_lock(lock);    \
	} while (0)
#define spin_unlock_bh(lock)       \
	do {                       \
		spin_unlock(lock); \
		local_bh_enable(); \
	} while (0)

#define local_bh_disable() shim_preempt_add(SOFTIRQ_OFFSET)
#define local_bh_enable() shim_preempt_sub(SOFTIRQ_OFFSET)

#endif /* _LINUX_SPINLOCK_H */
