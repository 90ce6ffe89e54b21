#ifndef _SHIM_TRACE_H
#define _SHIM_TRACE_H

/*
 * Host side of the work tracepoints (trace/events/workqueue.h): one probe
 * at a time, called in the context of the event (the queueing thread for
 * SHIM_WORK_QUEUE, the worker for the others), so it must not sleep.
 */
#include <trace/events/workqueue.h>

void shim_work_trace_register(shim_work_probe_t probe);
void shim_work_trace_unregister(void);

#endif /* _SHIM_TRACE_H */
