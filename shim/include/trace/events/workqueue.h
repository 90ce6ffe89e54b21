#ifndef _TRACE_EVENTS_WORKQUEUE_H
#define _TRACE_EVENTS_WORKQUEUE_H

#include <linux/compiler.h>
#include <shim/point.h>

/*
 * Tracepoints of both deferred-work stacks: a work (or task) queued, its
 * routine starting and ending, a flush starting and ending (with the
 * address it was called from); and of the contexts that run driver code
 * besides the workers: a hard interrupt handler, a timer, a bottom half.
 * Besides the queueing that was done, each call that asked for one is
 * traced too (a pending work is not queued twice, but it was asked twice).
 * A host program (the demo's monitor, a test) installs a probe with
 * shim_work_trace_register() from shim/trace.h; without one each
 * tracepoint costs a load and a branch.
 *
 * The probe gets (event, work, routine, queue): for a flush, work is NULL
 * and routine is the caller's return address; for a context, work is the
 * device or timer and routine the handler, queue the kind of context.
 */
enum shim_work_event {
	SHIM_WORK_QUEUE,
	SHIM_WORK_EXECUTE_START,
	SHIM_WORK_EXECUTE_END,
	SHIM_WORK_FLUSH_START,
	SHIM_WORK_FLUSH_END,
	SHIM_CONTEXT_ENTRY,
	SHIM_CONTEXT_EXIT,
	SHIM_WORK_QUEUE_CALL, /* asked to queue, pending or not */
	SHIM_MEMORY_FREED,    /* kfree: work is the block, routine its size */
	SHIM_NR_WORK_EVENTS
};

typedef void (*shim_work_probe_t)(enum shim_work_event ev, const void *work,
				  void (*routine)(void *), const char *queue);
extern shim_work_probe_t shim_work_probe;
/*
 * The variable at @addr by its name in the program, or NULL (kallsyms.c):
 * how the task queue names a driver's own queue (tq_riscom) in its events.
 */
extern const char *shim_symbol_name(const void *addr);
/* a controlled run's schedule log records them too (shim/control.c) */
extern void shim_ctl_trace_work(int ev, void (*routine)(void *),
				const char *queue);

static inline void __trace_work(enum shim_work_event ev, const void *work,
				void (*routine)(void *), const char *queue)
{
	shim_work_probe_t probe =
		__atomic_load_n(&shim_work_probe, __ATOMIC_ACQUIRE);

	if (unlikely(probe))
		probe(ev, work, routine, queue);
	if (unlikely(shim_controlled) && ev <= SHIM_WORK_EXECUTE_END)
		shim_ctl_trace_work(ev, routine, queue);
}

/*
 * Would the tracepoints below do anything: is a probe installed, or does
 * a controlled run log the work events?  For a hot path that tests it once
 * and then leaves its tracepoints out (the kernel's trace_*_enabled()).
 */
static inline int trace_workqueue_enabled(void)
{
	return shim_hooks_on() & (SHIM_HOOK_PROBE | SHIM_HOOK_CONTROLLED);
}

#define trace_workqueue_queue_work(queue, work, routine) \
	__trace_work(SHIM_WORK_QUEUE, (work), (routine), (queue))
#define trace_workqueue_execute_start(queue, work, routine) \
	__trace_work(SHIM_WORK_EXECUTE_START, (work), (routine), (queue))
#define trace_workqueue_execute_end(queue, work, routine) \
	__trace_work(SHIM_WORK_EXECUTE_END, (work), (routine), (queue))
/* every call that asks to queue a work, whether it was pending or not */
#define trace_workqueue_queue_call(queue, work, routine) \
	__trace_work(SHIM_WORK_QUEUE_CALL, (work), (routine), (queue))
/* a block freed: what was in it (a work) is gone, its address free for another */
#define trace_memory_freed(addr, size)          \
	__trace_work(SHIM_MEMORY_FREED, (addr), \
		     (void (*)(void *))(unsigned long) (size), "kfree")
/* @ip: where the flush was called from (_RET_IP_ of the exported call) */
#define trace_workqueue_flush_start(queue, ip)          \
	__trace_work(SHIM_WORK_FLUSH_START, (void *) 0, \
		     (void (*)(void *))(ip), (queue))
#define trace_workqueue_flush_end(queue, ip)                                  \
	__trace_work(SHIM_WORK_FLUSH_END, (void *) 0, (void (*)(void *))(ip), \
		     (queue))

/* the contexts that run driver code besides the workers */
#define trace_irq_handler_entry(dev, handler)   \
	__trace_work(SHIM_CONTEXT_ENTRY, (dev), \
		     (void (*)(void *))(unsigned long) (handler), "hardirq")
#define trace_irq_handler_exit(dev, handler)   \
	__trace_work(SHIM_CONTEXT_EXIT, (dev), \
		     (void (*)(void *))(unsigned long) (handler), "hardirq")
#define trace_timer_expire_entry(timer, fn)       \
	__trace_work(SHIM_CONTEXT_ENTRY, (timer), \
		     (void (*)(void *))(unsigned long) (fn), "timer")
#define trace_timer_expire_exit(timer, fn)       \
	__trace_work(SHIM_CONTEXT_EXIT, (timer), \
		     (void (*)(void *))(unsigned long) (fn), "timer")
#define trace_softirq_entry(fn)                      \
	__trace_work(SHIM_CONTEXT_ENTRY, (void *) 0, \
		     (void (*)(void *))(unsigned long) (fn), "softirq")
#define trace_softirq_exit(fn)                      \
	__trace_work(SHIM_CONTEXT_EXIT, (void *) 0, \
		     (void (*)(void *))(unsigned long) (fn), "softirq")

#define _RET_IP_ ((unsigned long) __builtin_return_address(0))

#endif /* _TRACE_EVENTS_WORKQUEUE_H */
