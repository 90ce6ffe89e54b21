/*
 * linux/interrupt.h - interrupt lines and bottom halves, as 2.4 declared
 * them.  The bottom halves (init_bh, mark_bh, remove_bh and 2.4's list of
 * them) are the shim's; the lines are the simulated world's
 * (drivers/world/irq.c), with 2.4's signatures.
 */
#ifndef _LINUX24_INTERRUPT_H
#define _LINUX24_INTERRUPT_H

#include <linux/config.h>
#include <linux/kernel.h>
#include_next <linux/interrupt.h>
#include <asm/bitops.h>
#include <asm/atomic.h>
#include <asm/signal.h>
#include <asm/hardirq.h>
#include <asm/softirq.h>

struct pt_regs;

struct irqaction {
	void (*handler)(int, void *, struct pt_regs *);
	unsigned long flags;
	unsigned long mask;
	const char *name;
	void *dev_id;
	struct irqaction *next;
};

/* SA_SHIRQ lines may have several handlers; SA_INTERRUPT runs with irqs off */
extern int request_irq(unsigned int irq,
		       void (*handler)(int, void *, struct pt_regs *),
		       unsigned long flags, const char *devname, void *dev_id);
extern void free_irq(unsigned int irq, void *dev_id);

/* autoprobing: the lines that fired between the two calls */
extern unsigned long probe_irq_on(void);
extern int probe_irq_off(unsigned long mask);

extern void disable_irq(unsigned int irq);
extern void disable_irq_nosync(unsigned int irq);
extern void enable_irq(unsigned int irq);

#endif /* _LINUX24_INTERRUPT_H */
