#ifndef _ASM_SEMAPHORE_H
#define _ASM_SEMAPHORE_H

#include <linux/wait.h>

/* A counting semaphore: down() sleeps while the count is not positive. */
struct semaphore {
	int count;
	wait_queue_head_t wait;
};

/* clang-format off */
#define __SEMAPHORE_INITIALIZER(name, n) {				\
	.count = (n),							\
	.wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait) }
/* clang-format on */

#define __DECLARE_SEMAPHORE_GENERIC(name, count) \
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, count)
#define DECLARE_MUTEX(name) __DECLARE_SEMAPHORE_GENERIC(name, 1)
#define DECLARE_MUTEX_LOCKED(name) __DECLARE_SEMAPHORE_GENERIC(name, 0)

static inline void sema_init(struct semaphore *sem, int val)
{
	sem->count = val;
	init_waitqueue_head(&sem->wait);
}

#define init_MUTEX(sem) sema_init((sem), 1)
#define init_MUTEX_LOCKED(sem) sema_init((sem), 0)

extern void down(struct semaphore *sem);
extern int down_interruptible(struct semaphore *sem);
extern int down_trylock(struct semaphore *sem);
extern void up(struct semaphore *sem);

#endif /* _ASM_SEMAPHORE_H */
