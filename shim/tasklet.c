/*
 * tasklet.c - 2.4's tasklets, on the shim's softirqs.
 *
 * A scheduled tasklet is on one of two lists, run by HI_SOFTIRQ and
 * TASKLET_SOFTIRQ on ksoftirqd.  One ksoftirqd stands for every CPU, so a
 * tasklet never runs beside itself; TASKLET_STATE_RUN is still kept, for
 * tasklet_unlock_wait() and for code that takes it itself.  A disabled
 * tasklet stays on its list, not raised again and again as 2.4 did (that
 * would keep ksoftirqd spinning, and no run could ever end idle), until
 * tasklet_enable() raises its softirq.
 */
#include "shim.h"
#include <linux/interrupt.h>
#include <linux/sched.h>
#include <asm/processor.h>

struct tasklet_head {
	struct tasklet_struct *list;
	int nr;
};

static struct tasklet_head tasklet_vec = { NULL, TASKLET_SOFTIRQ };
static struct tasklet_head tasklet_hi_vec = { NULL, HI_SOFTIRQ };
static DEFINE_SPINLOCK(tasklet_lock);

void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data)
{
	t->next = NULL;
	t->state = 0;
	atomic_set(&t->count, 0);
	t->func = func;
	t->data = data;
}

static void add(struct tasklet_head *h, struct tasklet_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklet_lock, flags);
	t->next = h->list;
	h->list = t;
	spin_unlock_irqrestore(&tasklet_lock, flags);
	raise_softirq(h->nr);
}

void tasklet_schedule(struct tasklet_struct *t)
{
	if (!test_and_set_bit(TASKLET_STATE_SCHED, &t->state))
		add(&tasklet_vec, t);
}

void tasklet_hi_schedule(struct tasklet_struct *t)
{
	if (!test_and_set_bit(TASKLET_STATE_SCHED, &t->state))
		add(&tasklet_hi_vec, t);
}

/* the softirq: every tasklet of its list, but those disabled or running */
static void run_list(struct softirq_action *a)
{
	struct tasklet_head *h = a->data;
	struct tasklet_struct *list, *t, *keep = NULL;
	unsigned long flags;

	spin_lock_irqsave(&tasklet_lock, flags);
	list = h->list;
	h->list = NULL;
	spin_unlock_irqrestore(&tasklet_lock, flags);

	while (list) {
		t = list;
		list = list->next;
		if (tasklet_trylock(t)) {
			if (!atomic_read(&t->count)) {
				if (!test_and_clear_bit(TASKLET_STATE_SCHED,
							&t->state))
					BUG();
				t->func(t->data);
				tasklet_unlock(t);
				continue;
			}
			tasklet_unlock(t);
		}
		t->next = keep;
		keep = t;
	}
	if (!keep)
		return;
	/* disabled: back on the list, for tasklet_enable() to raise */
	spin_lock_irqsave(&tasklet_lock, flags);
	for (t = keep; t->next; t = t->next)
		;
	t->next = h->list;
	h->list = keep;
	spin_unlock_irqrestore(&tasklet_lock, flags);
}

void tasklet_disable_nosync(struct tasklet_struct *t)
{
	atomic_inc(&t->count);
	smp_mb__after_atomic_inc();
}

void tasklet_unlock_wait(struct tasklet_struct *t)
{
	while (test_bit(TASKLET_STATE_RUN, &t->state)) {
		if (in_interrupt())
			cpu_relax();
		else
			yield();
	}
}

void tasklet_disable(struct tasklet_struct *t)
{
	tasklet_disable_nosync(t);
	tasklet_unlock_wait(t);
	smp_mb();
}

void tasklet_enable(struct tasklet_struct *t)
{
	smp_mb__before_atomic_dec();
	if (atomic_dec_return(&t->count) < 0)
		printk(KERN_ERR "BUG: tasklet_enable(%p): not disabled\n", t);
	if (test_bit(TASKLET_STATE_SCHED, &t->state)) {
		raise_softirq(TASKLET_SOFTIRQ);
		raise_softirq(HI_SOFTIRQ);
	}
}

void tasklet_kill(struct tasklet_struct *t)
{
	if (in_interrupt())
		printk(KERN_ERR "BUG: tasklet_kill(%p) in interrupt\n", t);
	while (test_and_set_bit(TASKLET_STATE_SCHED, &t->state)) {
		do
			yield();
		while (test_bit(TASKLET_STATE_SCHED, &t->state));
	}
	tasklet_unlock_wait(t);
	clear_bit(TASKLET_STATE_SCHED, &t->state);
}

void shim_tasklet_init(void)
{
	open_softirq(HI_SOFTIRQ, run_list, &tasklet_hi_vec);
	open_softirq(TASKLET_SOFTIRQ, run_list, &tasklet_vec);
}
