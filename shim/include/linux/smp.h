#ifndef _LINUX_SMP_H
#define _LINUX_SMP_H

#include <linux/threads.h>

/*
 * The online CPUs are those in the process's affinity mask when it started
 * (the first NR_CPUS of them), numbered as the host numbers them.
 */
extern int num_online_cpus(void);
extern int cpu_online(int cpu);
extern unsigned long cpu_online_map;
extern int shim_host_cpu(void);
extern int shim_smp_outside(void);
/*
 * SHIM_WQ_SPREAD=1 (the demo's race check): the CPU deferred work queued
 * now is taken to come from (smp.c).
 */
extern int shim_spread_cpu(void);

/* inline: queue_work() asks at every queueing */
static inline int smp_processor_id(void)
{
	int cpu = shim_host_cpu();

	/* a thread may run outside the start-up mask if it was widened */
	if (__builtin_expect((unsigned int) cpu < NR_CPUS &&
				     ((cpu_online_map >> cpu) & 1),
			     1))
		return cpu;
	return shim_smp_outside();
}

#define for_each_online_cpu(cpu)                  \
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++) \
		if (!cpu_online(cpu)) {           \
		} else

#endif /* _LINUX_SMP_H */
