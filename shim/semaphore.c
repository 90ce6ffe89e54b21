/*
 * semaphore.c - counting semaphores on a wait queue.
 *
 * The count is guarded by the wait queue's lock; sleepers queue exclusively
 * and in order, so up() hands the semaphore to one of them at a time.
 * A mutex (limit 1) released while nobody holds it is a BUG: the second
 * up() of a double release would let two tasks in at once.
 */
#include "shim.h"
#include <asm/semaphore.h>

static int __down(struct semaphore *sem, long state, const char *func)
{
	__might_sleep(func);
	shim_check_initialised(&sem->wait.lock, func, "semaphore", sem);
	spin_lock_irq(&sem->wait.lock);
	if (sem->count <= 0) {
		DECLARE_WAITQUEUE(wait, current);

		wait.flags |= WQ_FLAG_EXCLUSIVE;
		list_add_tail(&wait.task_list, &sem->wait.task_list);
		do {
			__set_current_state(state);
			spin_unlock_irq(&sem->wait.lock);
			schedule();
			spin_lock_irq(&sem->wait.lock);
		} while (sem->count <= 0);
		list_del(&wait.task_list);
	}
	sem->count--;
	spin_unlock_irq(&sem->wait.lock);
	return 0;
}

void down(struct semaphore *sem)
{
	__down(sem, TASK_UNINTERRUPTIBLE, "down");
}

int down_interruptible(struct semaphore *sem)
{
	return __down(sem, TASK_INTERRUPTIBLE, "down_interruptible");
}

/* 0 if the semaphore was taken, 1 if it was not available. */
int down_trylock(struct semaphore *sem)
{
	unsigned long flags;
	int ret = 1;

	shim_check_initialised(&sem->wait.lock, __func__, "semaphore", sem);
	spin_lock_irqsave(&sem->wait.lock, flags);
	if (sem->count > 0) {
		sem->count--;
		ret = 0;
	}
	spin_unlock_irqrestore(&sem->wait.lock, flags);
	return ret;
}

void up(struct semaphore *sem)
{
	struct shim_wake_q wq = SHIM_WAKE_Q_INIT;
	unsigned long flags;

	shim_check_initialised(&sem->wait.lock, __func__, "semaphore", sem);
	spin_lock_irqsave(&sem->wait.lock, flags);
	if (unlikely(sem->limit && sem->count >= sem->limit)) {
		spin_unlock_irqrestore(&sem->wait.lock, flags);
		printk(KERN_EMERG "BUG: up(%p): mutex released twice: nobody "
				  "holds it (count %d), by %s/%d\n",
		       (void *) sem, sem->count, current->comm, current->pid);
		BUG();
	}
	sem->count++;
	__wake_up_locked(&sem->wait, TASK_NORMAL, 1, &wq);
	spin_unlock_irqrestore(&sem->wait.lock, flags);
	shim_wake_up_q(&wq);
}
