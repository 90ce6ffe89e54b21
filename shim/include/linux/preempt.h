#ifndef _LINUX_PREEMPT_H
#define _LINUX_PREEMPT_H

/*
 * Each thread carries a preempt count, laid out as in the kernel: spinlocks
 * held in the low byte, softirq (bottom half and timer) nesting in the next,
 * hard interrupt nesting above; disabled "interrupts" count too.  A thread
 * whose count is not zero is atomic and must not sleep.
 */
#define PREEMPT_OFFSET 0x00000001UL
#define SOFTIRQ_OFFSET 0x00000100UL
#define HARDIRQ_OFFSET 0x00010000UL
#define IRQSOFF_OFFSET 0x01000000UL
#define SOFTIRQ_MASK 0x0000ff00UL
#define HARDIRQ_MASK 0x00ff0000UL

extern unsigned long shim_preempt_count(void);
extern void shim_preempt_add(unsigned long val);
extern void shim_preempt_sub(unsigned long val);
/* the calling thread's count (shim/sched.c): read inline, as the worker
 * does after every routine */
extern __thread unsigned long shim_preempt;

#define preempt_count() ((unsigned long) shim_preempt)
#define preempt_disable() shim_preempt_add(PREEMPT_OFFSET)
#define preempt_enable() shim_preempt_sub(PREEMPT_OFFSET)
#define in_atomic() (preempt_count() != 0)

#endif /* _LINUX_PREEMPT_H */
