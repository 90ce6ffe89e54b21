/*
 * world/irq.h - interrupt lines for simulated devices.
 *
 * The shim gives interrupt *context* (irq_enter/irq_exit) but no interrupt
 * *lines*: request_irq() and free_irq() with 2.5.39's signatures live here,
 * with the device side, sim_raise_irq(), which runs the handler as the
 * kernel's do_IRQ did: in hard-interrupt context, never concurrently with
 * itself (a line raised while its handler runs is replayed once it
 * returns, the IRQ_PENDING rule), and not at all once freed.
 */
#ifndef _WORLD_IRQ_H
#define _WORLD_IRQ_H

#define NR_SIM_IRQS 32

#define SA_INTERRUPT 0x20000000
#define SA_SHIRQ 0x04000000

struct pt_regs;

typedef void (*irq_handler_t)(int irq, void *dev_id, struct pt_regs *regs);

extern int request_irq(unsigned int irq, irq_handler_t handler,
		       unsigned long flags, const char *devname, void *dev_id);
extern void free_irq(unsigned int irq, void *dev_id);
extern void synchronize_irq(unsigned int irq);

/* the device side: assert line @irq once; 0 if no handler took it */
extern int sim_raise_irq(unsigned int irq);
/* how many times line @irq ran its handler, and how often it was raised with none */
extern unsigned long sim_irq_count(unsigned int irq);
extern unsigned long sim_irq_spurious(unsigned int irq);

/* run @fn(@arg) in hard-interrupt context in the calling thread */
extern void sim_call_in_irq(void (*fn)(void *), void *arg);

#endif /* _WORLD_IRQ_H */
