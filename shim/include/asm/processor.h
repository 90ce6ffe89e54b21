#ifndef _ASM_PROCESSOR_H
#define _ASM_PROCESSOR_H

#include <shim/point.h>

#if defined(__x86_64__) || defined(__i386__)
#define __cpu_relax() __asm__ __volatile__("pause" : : : "memory")
#else
#define __cpu_relax() __asm__ __volatile__("" : : : "memory")
#endif

/* A busy wait's pause; in a controlled run, a scheduling point too. */
#define cpu_relax()                           \
	do {                                  \
		shim_point(SHIM_POINT_RELAX); \
		__cpu_relax();                \
	} while (0)

/*
 * Give the host CPU up, without the checks of yield(): for a busy wait on
 * another host thread that may have been preempted (in a controlled run,
 * a scheduling point).
 */
extern void shim_yield(void);

#endif /* _ASM_PROCESSOR_H */
