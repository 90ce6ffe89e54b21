#ifndef _LINUX_INTERRUPT_H
#define _LINUX_INTERRUPT_H

#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>

/*
 * Interrupt and bottom-half context.  A simulated device "raises an
 * interrupt" by running its handler between irq_enter() and irq_exit();
 * bottom halves marked with mark_bh() run in softirq context on the
 * ksoftirqd thread, one at a time, where sleeping is a bug.
 */
#define in_irq() ((preempt_count() & HARDIRQ_MASK) != 0)
#define in_softirq() ((preempt_count() & SOFTIRQ_MASK) != 0)
#define in_interrupt() ((preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK)) != 0)

/*
 * Interrupt entry and exit.  The interrupt arrives on the CPU the task
 * is on (control.c may move it); as 2.4 had it on SMP, a handler does
 * not start while another task holds the global interrupt lock of 2.4's
 * cli() (shim/global_irq.c), which 2.5 code never takes.
 */
extern void shim_irq_enter(void);
extern void shim_irq_exit(void);
#define irq_enter() shim_irq_enter()
#define irq_exit() shim_irq_exit()

enum {
	TIMER_BH = 0,
	TQUEUE_BH,
	DIGI_BH,
	SERIAL_BH,
	RISCOM8_BH,
	SPECIALIX_BH,
	AURORA_BH,
	ESP_BH,
	SCSI_BH,
	IMMEDIATE_BH,
	CYCLADES_BH,
	CM206_BH,
	JS_BH,
	MACSERIAL_BH,
	ISICOM_BH
};

extern void init_bh(int nr, void (*routine)(void));
extern void remove_bh(int nr);
extern void mark_bh(int nr);

/*
 * Softirqs: run on ksoftirqd after the marked bottom halves, in softirq
 * context; raised in an interrupt, they run once it has ended.
 */
enum { HI_SOFTIRQ = 0, NET_TX_SOFTIRQ, NET_RX_SOFTIRQ, TASKLET_SOFTIRQ };

struct softirq_action {
	void (*action)(struct softirq_action *);
	void *data;
};

extern void open_softirq(int nr, void (*action)(struct softirq_action *),
			 void *data);
extern void cpu_raise_softirq(unsigned int cpu, unsigned int nr);
extern void raise_softirq(unsigned int nr);
#define __cpu_raise_softirq(cpu, nr) cpu_raise_softirq((cpu), (nr))

#endif /* _LINUX_INTERRUPT_H */
