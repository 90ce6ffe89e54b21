#ifndef _TRACE_EVENTS_WORKQUEUE_H
#define _TRACE_EVENTS_WORKQUEUE_H

#include <linux/compiler.h>
#include <shim/point.h>

/*
 * Tracepoints of both deferred-work stacks: a work (or task) queued, and
 * its routine starting and ending.  A host program (the demo, a test)
 * installs a probe with shim_work_trace_register() from shim/trace.h;
 * without one each tracepoint costs a load and a branch.
 */
enum shim_work_event {
	SHIM_WORK_QUEUE,
	SHIM_WORK_EXECUTE_START,
	SHIM_WORK_EXECUTE_END,
};

typedef void (*shim_work_probe_t)(enum shim_work_event ev, const void *work,
				  void (*routine)(void *), const char *queue);
extern shim_work_probe_t shim_work_probe;
/* a controlled run's schedule log records them too (shim/control.c) */
extern void shim_ctl_trace_work(int ev, void (*routine)(void *), const char *queue);

static inline void __trace_work(enum shim_work_event ev, const void *work,
				void (*routine)(void *), const char *queue)
{
	shim_work_probe_t probe = __atomic_load_n(&shim_work_probe, __ATOMIC_ACQUIRE);

	if (unlikely(probe))
		probe(ev, work, routine, queue);
	if (unlikely(shim_controlled))
		shim_ctl_trace_work(ev, routine, queue);
}

#define trace_workqueue_queue_work(queue, work, routine)		\
	__trace_work(SHIM_WORK_QUEUE, (work), (routine), (queue))
#define trace_workqueue_execute_start(queue, work, routine)		\
	__trace_work(SHIM_WORK_EXECUTE_START, (work), (routine), (queue))
#define trace_workqueue_execute_end(queue, work, routine)		\
	__trace_work(SHIM_WORK_EXECUTE_END, (work), (routine), (queue))

#endif /* _TRACE_EVENTS_WORKQUEUE_H */
