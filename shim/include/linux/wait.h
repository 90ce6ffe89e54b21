#ifndef _LINUX_WAIT_H
#define _LINUX_WAIT_H

#include <linux/list.h>
#include <linux/spinlock.h>

struct task_struct;

/* The task states the wake-up calls take; linux/sched.h has the rest. */
#ifndef TASK_RUNNING
#define TASK_RUNNING 0
#define TASK_INTERRUPTIBLE 1
#define TASK_UNINTERRUPTIBLE 2
#endif

typedef struct __wait_queue wait_queue_t;
struct __wait_queue {
	unsigned int flags;
#define WQ_FLAG_EXCLUSIVE 0x01
	struct task_struct *task;
	struct list_head task_list;
};

struct __wait_queue_head {
	spinlock_t lock;
	struct list_head task_list;
};
typedef struct __wait_queue_head wait_queue_head_t;

/* clang-format off */
#define __WAITQUEUE_INITIALIZER(name, tsk) {				\
	.flags = 0,							\
	.task = (tsk),							\
	.task_list = { NULL, NULL } }
/* clang-format on */

#define DECLARE_WAITQUEUE(name, tsk) \
	wait_queue_t name = __WAITQUEUE_INITIALIZER(name, tsk)

/* clang-format off */
#define __WAIT_QUEUE_HEAD_INITIALIZER(name) {				\
	.lock = __SPIN_LOCK_UNLOCKED,					\
	.task_list = { &(name).task_list, &(name).task_list } }
/* clang-format on */

#define DECLARE_WAIT_QUEUE_HEAD(name) \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

static inline void init_waitqueue_head(wait_queue_head_t *q)
{
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->task_list);
}

static inline void init_waitqueue_entry(wait_queue_t *q, struct task_struct *p)
{
	q->flags = 0;
	q->task = p;
}

extern int waitqueue_active(wait_queue_head_t *q);
extern void add_wait_queue(wait_queue_head_t *q, wait_queue_t *wait);
extern void add_wait_queue_exclusive(wait_queue_head_t *q, wait_queue_t *wait);
extern void remove_wait_queue(wait_queue_head_t *q, wait_queue_t *wait);

/* Wake every non-exclusive waiter and up to nr_exclusive exclusive ones. */
extern void __wake_up(wait_queue_head_t *q, unsigned int mode,
		      int nr_exclusive);

#define wake_up(x) __wake_up((x), TASK_UNINTERRUPTIBLE | TASK_INTERRUPTIBLE, 1)
#define wake_up_nr(x, nr) \
	__wake_up((x), TASK_UNINTERRUPTIBLE | TASK_INTERRUPTIBLE, (nr))
#define wake_up_all(x) \
	__wake_up((x), TASK_UNINTERRUPTIBLE | TASK_INTERRUPTIBLE, 0)
#define wake_up_interruptible(x) __wake_up((x), TASK_INTERRUPTIBLE, 1)
#define wake_up_interruptible_all(x) __wake_up((x), TASK_INTERRUPTIBLE, 0)

/*
 * Sleep until @condition is true.  The task is on the queue and marked
 * sleeping before the condition is tested, so a wake-up between the test
 * and schedule() is never lost.
 */
#define __wait_event(wq, condition, state)          \
	do {                                        \
		DECLARE_WAITQUEUE(__wait, current); \
                                                    \
		add_wait_queue(&(wq), &__wait);     \
		for (;;) {                          \
			set_current_state(state);   \
			if (condition)              \
				break;              \
			schedule();                 \
		}                                   \
		set_current_state(TASK_RUNNING);    \
		remove_wait_queue(&(wq), &__wait);  \
	} while (0)

/*
 * might_sleep() first, as later kernels have it: waiting in atomic context
 * is a BUG even when the condition happens to hold already.
 */
#define wait_event(wq, condition)                                  \
	do {                                                       \
		might_sleep();                                     \
		if (condition)                                     \
			break;                                     \
		__wait_event(wq, condition, TASK_UNINTERRUPTIBLE); \
	} while (0)

/* No signals are delivered to kernel code here: it never returns -ERESTARTSYS. */
#define wait_event_interruptible(wq, condition)                          \
	({                                                               \
		might_sleep();                                           \
		if (!(condition))                                        \
			__wait_event(wq, condition, TASK_INTERRUPTIBLE); \
		0;                                                       \
	})

/* Returns the jiffies left, or 0 on timeout with @condition still false. */
#define wait_event_timeout(wq, condition, timeout)                       \
	({                                                               \
		long __ret = (timeout);                                  \
		might_sleep();                                           \
		if (!(condition)) {                                      \
			DECLARE_WAITQUEUE(__wait, current);              \
			add_wait_queue(&(wq), &__wait);                  \
			for (;;) {                                       \
				set_current_state(TASK_UNINTERRUPTIBLE); \
				if (condition)                           \
					break;                           \
				__ret = schedule_timeout(__ret);         \
				if (!__ret)                              \
					break;                           \
			}                                                \
			set_current_state(TASK_RUNNING);                 \
			remove_wait_queue(&(wq), &__wait);               \
		}                                                        \
		__ret;                                                   \
	})

#endif /* _LINUX_WAIT_H */
