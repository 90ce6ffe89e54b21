#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/tqueue.h>

/* A 2.4-style sched.h: the task queue's calls are declared here. */
extern void schedule(void);
extern int schedule_task(struct tq_struct *task);
extern void flush_scheduled_tasks(void);
extern int start_context_thread(void);
extern int current_is_keventd(void);

struct task_struct {
	int state;
};

#endif
