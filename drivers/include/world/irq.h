/*
 * world/irq.h - interrupt lines for simulated devices.
 *
 * The shim gives interrupt *context* (irq_enter/irq_exit) but no interrupt
 * *lines*: request_irq() and free_irq() live here, with the device side,
 * sim_raise_irq(), which runs the handlers as the kernel's do_IRQ did: in
 * hard-interrupt context, never concurrently with themselves (a line
 * raised while its handlers run is replayed once they return, the
 * IRQ_PENDING rule), and not at all once freed.
 *
 * What 2.4 drivers use besides, with 2.4's signatures and semantics
 * (arch/i386/kernel/irq.c of 2.4.0): lines shared by handlers that all
 * asked for SA_SHIRQ, each called in turn and each freed by its dev_id;
 * disable_irq() (which waits for a running handler), disable_irq_nosync()
 * and enable_irq(), nesting, a raise of a disabled line held and delivered
 * at the enable that ends the nesting (IRQ_PENDING); and interrupt
 * autodetection, probe_irq_on() ... probe_irq_off(), which finds the line
 * a device raised in between (world/device.h's probe=).  2.5.39 users see
 * no change: the signatures are the same, a line nobody shares behaves as
 * it did.
 */
#ifndef _WORLD_IRQ_H
#define _WORLD_IRQ_H

#define NR_SIM_IRQS 32
#define NR_SIM_PROBES 16 /* probe results kept for sim_irq_probe_results */

#define SA_INTERRUPT 0x20000000
#define SA_SHIRQ 0x04000000

struct pt_regs;

typedef void (*irq_handler_t)(int irq, void *dev_id, struct pt_regs *regs);

extern int request_irq(unsigned int irq, irq_handler_t handler,
		       unsigned long flags, const char *devname, void *dev_id);
extern void free_irq(unsigned int irq, void *dev_id);
extern void synchronize_irq(unsigned int irq);

extern void disable_irq(unsigned int irq);
extern void disable_irq_nosync(unsigned int irq);
extern void enable_irq(unsigned int irq);

/* a mask of the lines a probe may find (those with no handler) */
extern unsigned long probe_irq_on(void);
/* the line raised since probe_irq_on: 0 if none, minus the first if several */
extern int probe_irq_off(unsigned long val);
/* the lines below 16 raised since probe_irq_on, of @val */
extern unsigned int probe_irq_mask(unsigned long val);

/* the device side: assert line @irq once; 0 if no handler took it */
extern int sim_raise_irq(unsigned int irq);
/* how many times line @irq ran its handlers, and how often it was raised with none */
extern unsigned long sim_irq_count(unsigned int irq);
extern unsigned long sim_irq_spurious(unsigned int irq);
/* how many handlers request_irq() gave line @irq so far */
extern unsigned long sim_irq_requests(unsigned int irq);
/* the lines that have a handler now, in order: how many, at most @max in @lines */
extern int sim_irq_lines(unsigned int *lines, int max);
/* nonzero (the probe's number) while a probe_irq_on() awaits its probe_irq_off() */
extern unsigned long sim_irq_probing(void);
/* what each probe_irq_off() returned, oldest first: how many (at most @max) */
extern int sim_irq_probe_results(int *found, int max);

/* run @fn(@arg) in hard-interrupt context in the calling thread */
extern void sim_call_in_irq(void (*fn)(void *), void *arg);

#endif /* _WORLD_IRQ_H */
