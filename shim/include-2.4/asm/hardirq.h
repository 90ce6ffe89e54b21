/*
 * asm/hardirq.h - interrupt context as 2.4 asked about it.
 *
 * The counts are the shim's (per task, linux/preempt.h); 2.4 indexed them
 * by CPU, and code only asks about its own.
 */
#ifndef _ASM24_HARDIRQ_H
#define _ASM24_HARDIRQ_H

#include <linux/config.h>
#include <linux/preempt.h>
#include <linux/smp.h>

#ifndef in_interrupt
#define in_irq() ((preempt_count() & HARDIRQ_MASK) != 0)
#define in_softirq() ((preempt_count() & SOFTIRQ_MASK) != 0)
#define in_interrupt() ((preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK)) != 0)
#endif

#define local_irq_count(cpu) ((int) ((preempt_count() & HARDIRQ_MASK) >> 16))
#define local_bh_count(cpu) ((int) ((preempt_count() & SOFTIRQ_MASK) >> 8))

/* 2.4's: wait until no handler runs on any CPU (a cli() and an sti()) */
extern void __global_synchronize_irq(void);
#define synchronize_irq() __global_synchronize_irq()

#endif /* _ASM24_HARDIRQ_H */
