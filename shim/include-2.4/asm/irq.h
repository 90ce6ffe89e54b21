/* asm/irq.h - i386's interrupt lines, as 2.4 numbered them */
#ifndef _ASM24_IRQ_H
#define _ASM24_IRQ_H

#include <linux/config.h>

#define TIMER_IRQ 0
#define NR_IRQS 224
#define NR_IRQ_VECTORS 1024

static inline int irq_cannonicalize(int irq)
{
	return irq == 2 ? 9 : irq;
}

extern void disable_irq(unsigned int irq);
extern void disable_irq_nosync(unsigned int irq);
extern void enable_irq(unsigned int irq);

#endif /* _ASM24_IRQ_H */
