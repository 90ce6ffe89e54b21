/* linux/smp.h - the shim's CPUs, with 2.4's names for them */
#ifndef _LINUX24_SMP_H
#define _LINUX24_SMP_H

#include_next <linux/smp.h>

#define NO_PROC_ID 0xFF
#define smp_num_cpus num_online_cpus()
#define cpu_number_map(cpu) (cpu)
#define cpu_logical_map(cpu) (cpu)

#endif /* _LINUX24_SMP_H */
