/*
 * trace.c - the probe behind the work tracepoints.
 */
#include "shim.h"
#include <shim/trace.h>

shim_work_probe_t shim_work_probe;

void shim_work_trace_register(shim_work_probe_t probe)
{
	__atomic_store_n(&shim_work_probe, probe, __ATOMIC_RELEASE);
	if (probe)
		__atomic_or_fetch(&shim_hooks, SHIM_HOOK_PROBE,
				  __ATOMIC_SEQ_CST);
	else
		__atomic_and_fetch(&shim_hooks, ~SHIM_HOOK_PROBE,
				   __ATOMIC_SEQ_CST);
}

void shim_work_trace_unregister(void)
{
	__atomic_store_n(&shim_work_probe, NULL, __ATOMIC_RELEASE);
	__atomic_and_fetch(&shim_hooks, ~SHIM_HOOK_PROBE, __ATOMIC_SEQ_CST);
}
