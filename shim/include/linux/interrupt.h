#ifndef _LINUX_INTERRUPT_H
#define _LINUX_INTERRUPT_H

#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <asm/atomic.h>
#include <asm/bitops.h>

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

/*
 * Tasklets, as 2.4 had them: a function run in softirq context
 * (TASKLET_SOFTIRQ, or HI_SOFTIRQ for tasklet_hi_schedule()), never
 * beside itself; scheduled again while it runs, it runs once more after.
 * Disabled (count above zero), it stays scheduled until enabled.
 */
struct tasklet_struct {
	struct tasklet_struct *next;
	unsigned long state;
	atomic_t count;
	void (*func)(unsigned long);
	unsigned long data;
};

enum { TASKLET_STATE_SCHED, TASKLET_STATE_RUN };

#define DECLARE_TASKLET(name, func, data) \
	struct tasklet_struct name = { NULL, 0, ATOMIC_INIT(0), func, data }
#define DECLARE_TASKLET_DISABLED(name, func, data) \
	struct tasklet_struct name = { NULL, 0, ATOMIC_INIT(1), func, data }

extern void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
			 unsigned long data);
extern void tasklet_schedule(struct tasklet_struct *t);
extern void tasklet_hi_schedule(struct tasklet_struct *t);
extern void tasklet_disable_nosync(struct tasklet_struct *t);
/* and waits for a run under way to end */
extern void tasklet_disable(struct tasklet_struct *t);
extern void tasklet_enable(struct tasklet_struct *t);
#define tasklet_hi_enable(t) tasklet_enable(t)
/* process context: no run pending or under way once it returns */
extern void tasklet_kill(struct tasklet_struct *t);

#define tasklet_trylock(t) (!test_and_set_bit(TASKLET_STATE_RUN, &(t)->state))
#define tasklet_unlock(t) clear_bit(TASKLET_STATE_RUN, &(t)->state)
extern void tasklet_unlock_wait(struct tasklet_struct *t);

#endif /* _LINUX_INTERRUPT_H */
