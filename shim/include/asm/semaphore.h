#ifndef _ASM_SEMAPHORE_H
#define _ASM_SEMAPHORE_H

#include <linux/wait.h>

/*
 * A counting semaphore: down() sleeps while the count is not positive.
 * One made a mutex (init_MUTEX, DECLARE_MUTEX and their _LOCKED forms)
 * counts to 1 at most: an up() of a mutex nobody holds (released twice)
 * is a BUG, as a mutex-debugging kernel refuses it.  Using a semaphore
 * nobody initialised is a BUG too (its wait queue's lock has no magic).
 */
struct semaphore {
	int count;
	int limit; /* 1 for a mutex, 0 for a counting semaphore */
	wait_queue_head_t wait;
};

/* clang-format off */
#define __SEMAPHORE_INIT(name, n, max) {				\
	.count = (n),							\
	.limit = (max),							\
	.wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait) }
#define __SEMAPHORE_INITIALIZER(name, n) __SEMAPHORE_INIT(name, n, 0)
/* clang-format on */

#define __DECLARE_SEMAPHORE_GENERIC(name, count) \
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, count)
#define DECLARE_MUTEX(name) struct semaphore name = __SEMAPHORE_INIT(name, 1, 1)
#define DECLARE_MUTEX_LOCKED(name) \
	struct semaphore name = __SEMAPHORE_INIT(name, 0, 1)

static inline void sema_init(struct semaphore *sem, int val)
{
	sem->count = val;
	sem->limit = 0;
	init_waitqueue_head(&sem->wait);
}

static inline void __init_mutex(struct semaphore *sem, int val)
{
	sema_init(sem, val);
	sem->limit = 1;
}

#define init_MUTEX(sem) __init_mutex((sem), 1)
#define init_MUTEX_LOCKED(sem) __init_mutex((sem), 0)

extern void down(struct semaphore *sem);
extern int down_interruptible(struct semaphore *sem);
extern int down_trylock(struct semaphore *sem);
extern void up(struct semaphore *sem);

#endif /* _ASM_SEMAPHORE_H */
