/*
 * workqueue.h - work queue handling, with the interface of 2.5.40 (the
 * LWN article of 1 October 2002: queue_work(queue, work)) and the
 * semantics of 2.5.41, plus two later additions: cancel_delayed_work()
 * (April 2003) and, to see what a later kernel would change,
 * alloc_workqueue() with WQ_NON_REENTRANT (2.6.36).  Built into
 * build/libworkqueue.a; workqueue.c says which behaviour is which
 * kernel's.
 */
#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H

#include <linux/list.h>
#include <linux/timer.h>

struct workqueue_struct;

struct work_struct {
	unsigned long pending; /* bit 0: queued and not yet started */
	struct list_head entry;
	void (*func)(void *); /* 2.5.41's name: 2.5.39-D6 called it routine */
	void *data;
	void *wq_data;		 /* the cpu queue it was last queued on */
	struct timer_list timer; /* for queue_delayed_work() */
};

typedef struct work_struct work_t;
typedef struct workqueue_struct workqueue_t;

/* clang-format off */
#define __WORK_INITIALIZER(n, f, d) {					\
	.pending = 0,							\
	.entry	= { &(n).entry, &(n).entry },				\
	.func = (f),							\
	.data = (d),							\
	.wq_data = NULL,						\
	.timer = TIMER_INITIALIZER(NULL, 0, 0),				\
	}
/* clang-format on */

#define DECLARE_WORK(n, f, d) struct work_struct n = __WORK_INITIALIZER(n, f, d)

/* Set the routine and data of a work, and nothing else. */
#define PREPARE_WORK(_work, _func, _data) \
	do {                              \
		(_work)->func = (_func);  \
		(_work)->data = (_data);  \
	} while (0)

/*
 * Initialise all of a work.  It must not be pending: that is checked
 * against the registry of pending works, never against the (possibly
 * uninitialised) work itself, and is a BUG naming the work.
 */
#define INIT_WORK(_work, _func, _data)                        \
	do {                                                  \
		__init_work_check((_work), #_work, __func__); \
		INIT_LIST_HEAD(&(_work)->entry);              \
		(_work)->pending = 0;                         \
		(_work)->wq_data = NULL;                      \
		init_timer(&(_work)->timer);                  \
		PREPARE_WORK((_work), (_func), (_data));      \
	} while (0)

extern void __init_work_check(struct work_struct *work, const char *name,
			      const char *func);

extern struct workqueue_struct *create_workqueue(const char *name);
extern void destroy_workqueue(struct workqueue_struct *wq);

/*
 * What Linux 2.6.36 would change, per queue, with its API: a queue made
 * with WQ_NON_REENTRANT queues a work that is running on another CPU
 * behind itself there, so the work never runs concurrently with itself.
 * 2.5.41 had no such rule, and neither does a queue made without the flag
 * (create_workqueue() is alloc_workqueue(name, 0, 0)), unless the program
 * runs with SHIM_WQ_NONREENTRANT=1, which gives every queue the flag, the
 * events queue included.  @max_active: 0 or 1, both meaning what 2.5 had,
 * one worker per CPU running one work at a time; other flags and values
 * are refused (NULL), since nothing else of 2.6.36 is emulated.
 */
#define WQ_NON_REENTRANT (1 << 0)

extern struct workqueue_struct *
alloc_workqueue(const char *name, unsigned int flags, int max_active);

extern int queue_work(struct workqueue_struct *wq, struct work_struct *work);
extern int queue_delayed_work(struct workqueue_struct *wq,
			      struct work_struct *work, unsigned long delay);
extern void flush_workqueue(struct workqueue_struct *wq);

extern int schedule_work(struct work_struct *work);
extern int schedule_delayed_work(struct work_struct *work, unsigned long delay);
extern void flush_scheduled_work(void);

extern int current_is_keventd(void);
extern void init_workqueues(void);

/* each queueing call tells a controlled run where it is (shim/site.h) */
#ifndef SHIM_STACK_INTERNAL
#include <shim/site.h>
#define queue_work(wq, work) shim_queued_at(queue_work(wq, work))
#define queue_delayed_work(wq, work, delay) \
	shim_queued_at(queue_delayed_work(wq, work, delay))
#define schedule_work(work) shim_queued_at(schedule_work(work))
#define schedule_delayed_work(work, delay) \
	shim_queued_at(schedule_delayed_work(work, delay))
#endif

/*
 * 1 if @work's timer was stopped before it queued the work, which is then
 * no longer pending (April 2003; clearing pending, May 2004).
 */
extern int cancel_delayed_work(struct work_struct *work);

#endif /* _LINUX_WORKQUEUE_H */
