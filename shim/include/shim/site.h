#ifndef _SHIM_SITE_H
#define _SHIM_SITE_H

/*
 * Queueing call sites.  linux/workqueue.h and linux/tqueue.h wrap each
 * queueing call (queue_work, schedule_task, ...) so that, in a controlled
 * run, the scheduler hears of it as the call returns, in the caller, with
 * the call's own place in the source: "tty_io.c:175", the same in every
 * run of the same source, whatever the compiler made of the call (a tail
 * call leaves no frame to find the caller by).  SHIM_SCHED=preempt:SITE
 * preempts the queuer right there (shim/control.c).  In a free run a site
 * costs a load and a branch.  The stacks themselves (SHIM_STACK_INTERNAL)
 * call the bare functions: their own queueing is no driver's site.
 */
#include <linux/compiler.h>

extern int shim_controlled;
extern void shim_ctl_queued(const char *site, const char *func);

#define __shim_site_str(x) #x
#define __shim_site_line(x) __shim_site_str(x)
#ifdef __FILE_NAME__
#define SHIM_SITE __FILE_NAME__ ":" __shim_site_line(__LINE__)
#else
#define SHIM_SITE __FILE__ ":" __shim_site_line(__LINE__)
#endif

/* @call, an int-valued queueing call; the scheduler hears of its site */
#define shim_queued_at(call)                                  \
	({                                                    \
		int __shim_queued = (call);                   \
		if (unlikely(shim_controlled))                \
			shim_ctl_queued(SHIM_SITE, __func__); \
		__shim_queued;                                \
	})

#endif /* _SHIM_SITE_H */
