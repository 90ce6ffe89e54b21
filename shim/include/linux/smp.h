#ifndef _LINUX_SMP_H
#define _LINUX_SMP_H

#include <linux/threads.h>

/*
 * The online CPUs are those in the process's affinity mask when it started
 * (the first NR_CPUS of them), numbered as the host numbers them.
 */
extern int smp_processor_id(void);
extern int num_online_cpus(void);
extern int cpu_online(int cpu);
extern unsigned long cpu_online_map;

#define for_each_online_cpu(cpu)                  \
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++) \
		if (!cpu_online(cpu)) {           \
		} else

#endif /* _LINUX_SMP_H */
