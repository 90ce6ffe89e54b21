/*
 * linux/spinlock.h - the shim's spinlocks, and the reader-writer locks 2.4
 * had besides: any number of readers or one writer, spinning, atomic
 * while held (they count in the preempt count, as a spinlock does).
 */
#ifndef _LINUX24_SPINLOCK_H
#define _LINUX24_SPINLOCK_H

#include_next <linux/spinlock.h>
#include <asm/processor.h>

typedef struct {
	volatile int lock; /* readers, or -1: a writer */
} rwlock_t;

#define RW_LOCK_UNLOCKED ((rwlock_t){ 0 })
#define rwlock_init(x)                   \
	do {                             \
		*(x) = RW_LOCK_UNLOCKED; \
	} while (0)

static inline void read_lock(rwlock_t *rw)
{
	preempt_disable();
	for (;;) {
		int n = __atomic_load_n(&rw->lock, __ATOMIC_RELAXED);

		if (n >= 0 && __atomic_compare_exchange_n(&rw->lock, &n, n + 1,
							  0, __ATOMIC_ACQUIRE,
							  __ATOMIC_RELAXED))
			return;
		cpu_relax();
	}
}

static inline void read_unlock(rwlock_t *rw)
{
	__atomic_sub_fetch(&rw->lock, 1, __ATOMIC_RELEASE);
	preempt_enable();
}

static inline void write_lock(rwlock_t *rw)
{
	preempt_disable();
	for (;;) {
		int n = 0;

		if (__atomic_compare_exchange_n(&rw->lock, &n, -1, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		cpu_relax();
	}
}

static inline void write_unlock(rwlock_t *rw)
{
	__atomic_store_n(&rw->lock, 0, __ATOMIC_RELEASE);
	preempt_enable();
}

#define read_lock_irqsave(lock, flags) \
	do {                           \
		local_irq_save(flags); \
		read_lock(lock);       \
	} while (0)
#define read_unlock_irqrestore(lock, flags) \
	do {                                \
		read_unlock(lock);          \
		local_irq_restore(flags);   \
	} while (0)
#define write_lock_irqsave(lock, flags) \
	do {                            \
		local_irq_save(flags);  \
		write_lock(lock);       \
	} while (0)
#define write_unlock_irqrestore(lock, flags) \
	do {                                 \
		write_unlock(lock);          \
		local_irq_restore(flags);    \
	} while (0)
#define read_lock_irq(lock)          \
	do {                         \
		local_irq_disable(); \
		read_lock(lock);     \
	} while (0)
#define read_unlock_irq(lock)       \
	do {                        \
		read_unlock(lock);  \
		local_irq_enable(); \
	} while (0)
#define write_lock_irq(lock)         \
	do {                         \
		local_irq_disable(); \
		write_lock(lock);    \
	} while (0)
#define write_unlock_irq(lock)      \
	do {                        \
		write_unlock(lock); \
		local_irq_enable(); \
	} while (0)
#define read_lock_bh(lock)          \
	do {                        \
		local_bh_disable(); \
		read_lock(lock);    \
	} while (0)
#define read_unlock_bh(lock)       \
	do {                       \
		read_unlock(lock); \
		local_bh_enable(); \
	} while (0)
#define write_lock_bh(lock)         \
	do {                        \
		local_bh_disable(); \
		write_lock(lock);   \
	} while (0)
#define write_unlock_bh(lock)       \
	do {                        \
		write_unlock(lock); \
		local_bh_enable();  \
	} while (0)

#define spin_unlock_wait(lock)               \
	do {                                 \
		while (spin_is_locked(lock)) \
			cpu_relax();         \
	} while (0)

#endif /* _LINUX24_SPINLOCK_H */
