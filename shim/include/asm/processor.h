#ifndef _ASM_PROCESSOR_H
#define _ASM_PROCESSOR_H

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()	__asm__ __volatile__("pause" : : : "memory")
#else
#define cpu_relax()	__asm__ __volatile__("" : : : "memory")
#endif

#endif /* _ASM_PROCESSOR_H */
