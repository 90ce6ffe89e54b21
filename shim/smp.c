/*
 * smp.c - the online CPUs: those in the process's affinity mask at start.
 */
#include "shim.h"
#include <linux/smp.h>
#include <linux/preempt.h>

unsigned long cpu_online_map;
static int nr_online;
static int first_online;

void shim_smp_init(void)
{
	unsigned long host = shim_host_cpus();
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!(host & (1UL << cpu)))
			continue;
		if (!nr_online++)
			first_online = cpu;
		cpu_online_map |= 1UL << cpu;
	}
	if (!nr_online) {
		/* affinity only above NR_CPUS: run as a uniprocessor */
		cpu_online_map = 1;
		nr_online = 1;
	}
}

int cpu_online(int cpu)
{
	return cpu >= 0 && cpu < NR_CPUS && (cpu_online_map & (1UL << cpu));
}

int num_online_cpus(void)
{
	return nr_online;
}

/*
 * Under SHIM_WQ_SPREAD=1 (the demo's race check) both stacks ask here
 * which CPU deferred work queued now comes from.  A task that could have
 * been preempted and moved (preemptible, in process context) is taken to
 * be on the next of its allowed CPUs in turn at each queueing, so that
 * two works one task queues run on two CPUs and ThreadSanitizer sees what
 * orders them, whichever CPU the host happened to keep the task on.  Code
 * in an interrupt, or holding a lock, stays where it is, as it would in
 * the kernel; so does a task set_cpus_allowed() pinned to one CPU, and
 * one allowed on some moves among those only.
 */
int shim_spread_cpu(void)
{
	static unsigned int turn;
	unsigned long allowed;
	unsigned int n;
	int cpu;

	if (preempt_count())
		return smp_processor_id();
	allowed = current->cpus_allowed & cpu_online_map;
	if (!(allowed & (allowed - 1)))
		return smp_processor_id();
	/* relaxed: which CPU is next orders nothing */
	n = __atomic_fetch_add(&turn, 1, __ATOMIC_RELAXED) %
	    __builtin_popcountl(allowed);
	for (cpu = 0;; cpu++)
		if ((allowed & (1UL << cpu)) && !n--)
			return cpu;
}

/* smp_processor_id() on a CPU outside the online map: the first online */
int shim_smp_outside(void)
{
	return first_online;
}
