/*
 * tqueue.h - the task-queue API as 2.4 and 2.5.39 drivers use it.
 *
 * The task queue: a tq_struct is both the queue entry and the work; queues
 * are bare list heads guarded by one global lock; schedule_task() hands a
 * task to the single keventd thread.  Built into build/libtaskqueue.a.
 */
#ifndef _LINUX_TQUEUE_H
#define _LINUX_TQUEUE_H

#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/bitops.h>
#include <asm/system.h>

struct tq_struct {
	struct list_head list;	 /* linked list of active tq's */
	unsigned long sync;	 /* must be initialized to zero */
	void (*routine)(void *); /* function to call */
	void *data;		 /* argument to function */
};

/* Set the routine and data of a task, and nothing else. */
#define PREPARE_TQUEUE(_tq, _routine, _data) \
	do {                                 \
		(_tq)->routine = _routine;   \
		(_tq)->data = _data;         \
	} while (0)

/*
 * Initialise all of a task.  It must not be queued: that is checked against
 * the registry of queued tasks, never against the task itself, and is a
 * BUG naming it.
 */
#define INIT_TQUEUE(_tq, _routine, _data)                   \
	do {                                                \
		__init_tqueue_check((_tq), #_tq, __func__); \
		INIT_LIST_HEAD(&(_tq)->list);               \
		(_tq)->sync = 0;                            \
		PREPARE_TQUEUE((_tq), (_routine), (_data)); \
	} while (0)

extern void __init_tqueue_check(struct tq_struct *tq, const char *name,
				const char *func);

typedef struct list_head task_queue;

#define DECLARE_TASK_QUEUE(q) LIST_HEAD(q)
#define TQ_ACTIVE(q) (!list_empty(&q))

/* Run in bottom-half context after mark_bh(IMMEDIATE_BH), and by the timer. */
extern task_queue tq_timer, tq_immediate, tq_disk;

extern spinlock_t tqueue_lock;

/*
 * Queue @tq on @list; 1 if it was added, 0 if it was already queued
 * somewhere.  Safe from any context.
 */
extern int queue_task(struct tq_struct *tq, task_queue *list);

/* Run and empty @list, in the caller's context; tasks may re-add themselves. */
extern void run_task_queue(task_queue *list);

/* Schedule a task to run in process context, on keventd. */
extern int schedule_task(struct tq_struct *task);

/* Wait until every task scheduled before the call has run; not from irq. */
extern void flush_scheduled_tasks(void);

extern int start_context_thread(void);

/* each queueing call tells a controlled run where it is (shim/site.h) */
#ifndef SHIM_STACK_INTERNAL
#include <shim/site.h>
#define queue_task(tq, list) shim_queued_at(queue_task(tq, list))
#define schedule_task(task) shim_queued_at(schedule_task(task))
#endif
extern int current_is_keventd(void);

#endif /* _LINUX_TQUEUE_H */
