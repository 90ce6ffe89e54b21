/*
 * smp.c - the online CPUs: those in the process's affinity mask at start.
 */
#include "shim.h"
#include <linux/smp.h>

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

/* smp_processor_id() on a CPU outside the online map: the first online */
int shim_smp_outside(void)
{
	return first_online;
}
