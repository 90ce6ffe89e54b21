/*
 * irq.c - interrupt lines for the simulated devices (see world/irq.h).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/interrupt.h>
#include <linux/errno.h>
#include <world/irq.h>
#include <trace/events/workqueue.h>

#define IRQ_INPROGRESS 1
#define IRQ_PENDING 2

struct sim_irq_desc {
	spinlock_t lock;
	unsigned int status;
	irq_handler_t handler;
	void *dev_id;
	const char *name;
	unsigned long count;
	unsigned long spurious;
};

/* as the kernel's irq_desc[], its locks initialised statically */
static struct sim_irq_desc irq_desc[NR_SIM_IRQS] = {
	[0 ... NR_SIM_IRQS - 1] = { .lock = SPIN_LOCK_UNLOCKED },
};

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *devname, void *dev_id)
{
	struct sim_irq_desc *desc;
	unsigned long f;
	int ret = 0;

	if (irq >= NR_SIM_IRQS || !handler)
		return -EINVAL;
	desc = &irq_desc[irq];
	spin_lock_irqsave(&desc->lock, f);
	if (desc->handler) {
		ret = -EBUSY;
	} else {
		desc->handler = handler;
		desc->dev_id = dev_id;
		desc->name = devname;
	}
	spin_unlock_irqrestore(&desc->lock, f);
	return ret;
}

/* Wait until the handler of @irq is not running in any thread. */
void synchronize_irq(unsigned int irq)
{
	struct sim_irq_desc *desc = &irq_desc[irq];

	might_sleep();
	for (;;) {
		unsigned long f;
		int busy;

		spin_lock_irqsave(&desc->lock, f);
		busy = desc->status & IRQ_INPROGRESS;
		spin_unlock_irqrestore(&desc->lock, f);
		if (!busy)
			return;
		yield();
	}
}

void free_irq(unsigned int irq, void *dev_id)
{
	struct sim_irq_desc *desc;
	unsigned long f;

	if (irq >= NR_SIM_IRQS)
		return;
	desc = &irq_desc[irq];
	spin_lock_irqsave(&desc->lock, f);
	if (desc->dev_id != dev_id || !desc->handler) {
		spin_unlock_irqrestore(&desc->lock, f);
		printk(KERN_ERR "Trying to free free IRQ%u\n", irq);
		return;
	}
	desc->handler = NULL;
	desc->dev_id = NULL;
	spin_unlock_irqrestore(&desc->lock, f);
	synchronize_irq(irq);
}

int sim_raise_irq(unsigned int irq)
{
	struct sim_irq_desc *desc;
	unsigned long f;

	if (irq >= NR_SIM_IRQS)
		return 0;
	desc = &irq_desc[irq];
	spin_lock_irqsave(&desc->lock, f);
	if (!desc->handler) {
		desc->spurious++;
		spin_unlock_irqrestore(&desc->lock, f);
		return 0;
	}
	if (desc->status & IRQ_INPROGRESS) {
		/* the running handler will go round once more for us */
		desc->status |= IRQ_PENDING;
		spin_unlock_irqrestore(&desc->lock, f);
		return 1;
	}
	desc->status |= IRQ_INPROGRESS;
	for (;;) {
		irq_handler_t handler = desc->handler;
		void *dev_id = desc->dev_id;

		desc->status &= ~IRQ_PENDING;
		desc->count++;
		spin_unlock_irqrestore(&desc->lock, f);

		irq_enter();
		trace_irq_handler_entry(dev_id, handler);
		handler(irq, dev_id, NULL);
		trace_irq_handler_exit(dev_id, handler);
		irq_exit();

		spin_lock_irqsave(&desc->lock, f);
		if (!(desc->status & IRQ_PENDING) || !desc->handler)
			break;
	}
	desc->status &= ~(IRQ_INPROGRESS | IRQ_PENDING);
	spin_unlock_irqrestore(&desc->lock, f);
	return 1;
}

unsigned long sim_irq_count(unsigned int irq)
{
	return irq < NR_SIM_IRQS ? irq_desc[irq].count : 0;
}

unsigned long sim_irq_spurious(unsigned int irq)
{
	return irq < NR_SIM_IRQS ? irq_desc[irq].spurious : 0;
}

void sim_call_in_irq(void (*fn)(void *), void *arg)
{
	irq_enter();
	fn(arg);
	irq_exit();
}
