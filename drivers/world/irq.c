/*
 * irq.c - interrupt lines for the simulated devices (see world/irq.h).
 *
 * As 2.4's arch/i386/kernel/irq.c: a descriptor per line with its lock,
 * status bits and the actions of the handlers sharing it.  The actions
 * live in the descriptor (2.4 allocated each): a driver's request_irq()
 * takes nothing from kmalloc, so that the allocations the drivers make,
 * which fault injection counts, are the drivers' own.  request_irq() is
 * the kernel's (DESIGN.md), and as a resource a module takes it can be
 * made to fail as if the line were taken (shim/fault.c): -EBUSY.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/interrupt.h>
#include <linux/errno.h>
#include <asm/processor.h>
#include <asm/semaphore.h>
#include <world/irq.h>
#include <shim/fault.h>
#include <trace/events/workqueue.h>

#define IRQ_INPROGRESS 1
#define IRQ_PENDING 2	 /* raised while running or disabled: once more */
#define IRQ_DISABLED 4	 /* disable_irq() nesting above zero */
#define IRQ_AUTODETECT 8 /* probed for, between probe_irq_on and _off */
#define IRQ_WAITING 16	 /* probed for and not raised yet */

#define SIM_IRQ_SHARED 8 /* handlers on one line */

struct sim_irqaction {
	irq_handler_t handler;
	unsigned long flags;
	const char *name;
	void *dev_id;
};

struct sim_irq_desc {
	spinlock_t lock;
	unsigned int status;
	unsigned int depth; /* disable_irq() nesting */
	int nr;		    /* actions in use, in the order requested */
	struct sim_irqaction action[SIM_IRQ_SHARED];
	unsigned long count;
	unsigned long spurious;
	unsigned long requests;
};

/* as the kernel's irq_desc[], its locks initialised statically */
static struct sim_irq_desc irq_desc[NR_SIM_IRQS] = {
	[0 ... NR_SIM_IRQS - 1] = { .lock = SPIN_LOCK_UNLOCKED },
};

/* one probe at a time, as 2.4's probe_sem */
static DECLARE_MUTEX(probe_sem);
static unsigned long probe_nr, probing;
static int probe_found[NR_SIM_PROBES], probes_done;

/* The descriptor of line @irq, locked (flags in *@f); NULL if none. */
static struct sim_irq_desc *desc_lock(unsigned int irq, unsigned long *f)
{
	struct sim_irq_desc *desc;

	if (irq >= NR_SIM_IRQS)
		return NULL;
	desc = &irq_desc[irq];
	spin_lock_irqsave(&desc->lock, *f);
	return desc;
}

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *devname, void *dev_id)
{
	struct sim_irq_desc *desc;
	unsigned long f;
	int ret = 0;

	if (irq >= NR_SIM_IRQS || !handler)
		return -EINVAL;
	if (shim_fault_resource(__builtin_return_address(0),
				"request_irq(%u, \"%s\")", irq, devname ?: "?"))
		return -EBUSY;
	desc = &irq_desc[irq];
	spin_lock_irqsave(&desc->lock, f);
	/* a line is shared only if every handler on it agrees to */
	if (desc->nr && (!(desc->action[0].flags & flags & SA_SHIRQ) ||
			 desc->nr == SIM_IRQ_SHARED)) {
		ret = -EBUSY;
	} else {
		desc->action[desc->nr++] = (struct sim_irqaction){
			.handler = handler,
			.flags = flags,
			.name = devname,
			.dev_id = dev_id,
		};
		desc->requests++;
		if (desc->nr == 1) {
			desc->depth = 0;
			desc->status &= ~(IRQ_DISABLED | IRQ_AUTODETECT |
					  IRQ_WAITING | IRQ_PENDING);
		}
	}
	spin_unlock_irqrestore(&desc->lock, f);
	return ret;
}

/* Wait until the handlers of @irq are not running in any thread. */
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
	unsigned long f;
	struct sim_irq_desc *desc = desc_lock(irq, &f);
	int i;

	if (!desc)
		return;
	for (i = 0; i < desc->nr; i++)
		if (desc->action[i].dev_id == dev_id)
			break;
	if (i == desc->nr) {
		spin_unlock_irqrestore(&desc->lock, f);
		printk(KERN_ERR "Trying to free free IRQ%u\n", irq);
		return;
	}
	for (desc->nr--; i < desc->nr; i++)
		desc->action[i] = desc->action[i + 1];
	spin_unlock_irqrestore(&desc->lock, f);
	synchronize_irq(irq);
}

/*
 * Run the handlers of @desc until no raise is pending: called with its
 * lock held (flags in *@f) and IRQ_INPROGRESS just set by the caller;
 * returns with the lock held and IRQ_INPROGRESS cleared.
 */
static void handle_irq(unsigned int irq, struct sim_irq_desc *desc,
		       unsigned long *f)
{
	for (;;) {
		struct sim_irqaction action[SIM_IRQ_SHARED];
		int i, nr = desc->nr;

		for (i = 0; i < nr; i++)
			action[i] = desc->action[i];
		desc->status &= ~IRQ_PENDING;
		desc->count++;
		spin_unlock_irqrestore(&desc->lock, *f);

		irq_enter();
		for (i = 0; i < nr; i++) {
			trace_irq_handler_entry(action[i].dev_id,
						action[i].handler);
			action[i].handler(irq, action[i].dev_id, NULL);
			trace_irq_handler_exit(action[i].dev_id,
					       action[i].handler);
		}
		irq_exit();

		spin_lock_irqsave(&desc->lock, *f);
		if (!(desc->status & IRQ_PENDING) || !desc->nr ||
		    (desc->status & IRQ_DISABLED))
			break;
	}
	desc->status &= ~IRQ_INPROGRESS;
}

int sim_raise_irq(unsigned int irq)
{
	unsigned long f;
	struct sim_irq_desc *desc = desc_lock(irq, &f);

	if (!desc)
		return 0;
	if (!desc->nr) {
		/* a probe sees it: the line is the device's */
		if (desc->status & IRQ_AUTODETECT)
			desc->status &= ~IRQ_WAITING;
		else
			desc->spurious++;
		spin_unlock_irqrestore(&desc->lock, f);
		return 0;
	}
	if (desc->status & (IRQ_INPROGRESS | IRQ_DISABLED)) {
		/* the running handler goes round once more for us, or
		 * enable_irq() delivers it */
		desc->status |= IRQ_PENDING;
		spin_unlock_irqrestore(&desc->lock, f);
		return 1;
	}
	desc->status |= IRQ_INPROGRESS;
	handle_irq(irq, desc, &f);
	spin_unlock_irqrestore(&desc->lock, f);
	return 1;
}

void disable_irq_nosync(unsigned int irq)
{
	unsigned long f;
	struct sim_irq_desc *desc = desc_lock(irq, &f);

	if (!desc)
		return;
	if (!desc->depth++)
		desc->status |= IRQ_DISABLED;
	spin_unlock_irqrestore(&desc->lock, f);
}

/* ... and wait for a handler running elsewhere, unless called from one */
void disable_irq(unsigned int irq)
{
	disable_irq_nosync(irq);
	if (irq >= NR_SIM_IRQS || in_irq())
		return;
	while (__atomic_load_n(&irq_desc[irq].status, __ATOMIC_ACQUIRE) &
	       IRQ_INPROGRESS)
		cpu_relax();
}

/*
 * The enable that ends the nesting delivers a raise the line held, as
 * 2.4's IRQ_PENDING and resend did, in the caller: at once from process
 * context with nothing held.  A caller holding a lock or in an interrupt
 * leaves it pending (a real CPU would take it once its interrupts were
 * on again), for the line's next raise to deliver.
 */
void enable_irq(unsigned int irq)
{
	int deliver = !preempt_count();
	unsigned long f;
	struct sim_irq_desc *desc = desc_lock(irq, &f);

	if (!desc)
		return;
	switch (desc->depth) {
	case 0:
		spin_unlock_irqrestore(&desc->lock, f);
		printk(KERN_ERR "enable_irq(%u) unbalanced from %p\n", irq,
		       __builtin_return_address(0));
		return;
	case 1:
		desc->depth = 0;
		desc->status &= ~IRQ_DISABLED;
		if ((desc->status & (IRQ_PENDING | IRQ_INPROGRESS)) ==
			    IRQ_PENDING &&
		    desc->nr && deliver) {
			desc->status |= IRQ_INPROGRESS;
			handle_irq(irq, desc, &f);
		}
		break;
	default:
		desc->depth--;
	}
	spin_unlock_irqrestore(&desc->lock, f);
}

unsigned long probe_irq_on(void)
{
	unsigned long val = 0, f;
	unsigned int i;

	down(&probe_sem);
	for (i = 1; i < NR_SIM_IRQS; i++) {
		struct sim_irq_desc *desc = &irq_desc[i];

		spin_lock_irqsave(&desc->lock, f);
		if (!desc->nr) {
			desc->status |= IRQ_AUTODETECT | IRQ_WAITING;
			val |= 1UL << i;
		}
		spin_unlock_irqrestore(&desc->lock, f);
	}
	/* under probe_sem: nobody else writes them */
	__atomic_store_n(&probing, ++probe_nr, __ATOMIC_RELEASE);
	return val;
}

/* what probe_irq_off() makes of the lines raised during a probe */
static int found_line(unsigned long mask)
{
	int first = mask ? __builtin_ctzl(mask) : 0;

	return mask & (mask - 1) ? -first : first;
}

/* End a probe: the mask of lines raised since probe_irq_on(). */
static unsigned long probe_end(void)
{
	unsigned long mask = 0, f;
	unsigned int i;

	for (i = 1; i < NR_SIM_IRQS; i++) {
		struct sim_irq_desc *desc = &irq_desc[i];

		spin_lock_irqsave(&desc->lock, f);
		if (desc->status & IRQ_AUTODETECT) {
			if (!(desc->status & IRQ_WAITING))
				mask |= 1UL << i;
			desc->status &= ~(IRQ_AUTODETECT | IRQ_WAITING);
		}
		spin_unlock_irqrestore(&desc->lock, f);
	}
	__atomic_store_n(&probing, 0, __ATOMIC_RELEASE);
	if (probes_done < NR_SIM_PROBES)
		probe_found[probes_done] = found_line(mask);
	__atomic_store_n(&probes_done, probes_done + 1, __ATOMIC_RELEASE);
	up(&probe_sem);
	return mask;
}

int probe_irq_off(unsigned long val)
{
	return found_line(probe_end());
}

unsigned int probe_irq_mask(unsigned long val)
{
	return probe_end() & val & 0xffff;
}

unsigned long sim_irq_probing(void)
{
	return __atomic_load_n(&probing, __ATOMIC_ACQUIRE);
}

int sim_irq_probe_results(int *found, int max)
{
	int i, n = __atomic_load_n(&probes_done, __ATOMIC_ACQUIRE);

	if (n > NR_SIM_PROBES)
		n = NR_SIM_PROBES;
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		found[i] = probe_found[i];
	return n;
}

unsigned long sim_irq_count(unsigned int irq)
{
	return irq < NR_SIM_IRQS ? irq_desc[irq].count : 0;
}

unsigned long sim_irq_spurious(unsigned int irq)
{
	return irq < NR_SIM_IRQS ? irq_desc[irq].spurious : 0;
}

unsigned long sim_irq_requests(unsigned int irq)
{
	return irq < NR_SIM_IRQS ? irq_desc[irq].requests : 0;
}

int sim_irq_lines(unsigned int *lines, int max)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < NR_SIM_IRQS && n < max; i++)
		if (__atomic_load_n(&irq_desc[i].nr, __ATOMIC_ACQUIRE))
			lines[n++] = i;
	return n;
}

void sim_call_in_irq(void (*fn)(void *), void *arg)
{
	irq_enter();
	fn(arg);
	irq_exit();
}
