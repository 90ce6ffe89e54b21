/*
 * queue_order.c - ordering mistakes around a queueing point.
 *
 * Each shows in one order of the queuer and the worker only, which a
 * systematic schedule takes on purpose and a few random ones rarely do:
 * the order has to hold over several scheduling points in a row.
 *
 *   publish_late     the work is queued before the buffer its routine
 *                    reads is set: found when the worker runs it at once
 *                    (eager); publish_first sets the buffer first
 *   early_flush      the flush comes before the last queueing, and the
 *                    port is freed with that work still pending: found
 *                    when the work waits until something waits for it
 *                    (lazy); late_flush flushes after the last queueing
 *   touch_after      an interrupt thread touches the port after queueing
 *                    the work whose end lets the closer free it: found
 *                    when the thread gives way right after that queueing
 *                    (preempt:SITE); touch_before touches it first
 */
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/completion.h>
#include <linux/workqueue.h>

#define PORT_MAGIC 0x5ca1ab1e

struct port {
	int magic;
	spinlock_t lock;
	int *buf;
	int rx, stats;
	work_t rx_work, tx_work;
};

static DECLARE_COMPLETION(rx_done);
static DECLARE_COMPLETION(irq_done);
static const char *mode;

/* a few lock round trips: points where another task may take the CPU */
static void account(struct port *p, int n)
{
	while (n--) {
		spin_lock(&p->lock);
		p->rx++;
		spin_unlock(&p->lock);
	}
}

static void port_rx(void *data)
{
	struct port *p = data;

	account(p, 6);
	if (!p->buf) {
		printk(KERN_EMERG "BUG: port_rx ran before the port's buffer "
				  "was set (%s)\n",
		       mode);
		BUG();
	}
	*p->buf = p->rx;
	complete(&rx_done);
}

static void port_tx(void *data)
{
	struct port *p = data;

	account(p, 1);
}

static int port_irq(void *data)
{
	struct port *p = data;
	int before = !strcmp(mode, "touch_before");

	strcpy(current->comm, "port_irq");
	daemonize();
	if (before)
		p->stats++;
	schedule_work(&p->rx_work);
	/* once queued, the work's end lets the closer free the port */
	if (!before && p->magic != PORT_MAGIC) {
		printk(KERN_EMERG "BUG: port_irq touched the port after "
				  "the closer freed it\n");
		BUG();
	}
	if (!before)
		p->stats++;
	complete(&irq_done);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "publish_late", "publish_first",
					     "early_flush",  "late_flush",
					     "touch_after",  "touch_before" };
	static int buffer;
	struct port *p;
	unsigned int i;

	for (i = 0; argc == 2 && i < ARRAY_SIZE(modes); i++)
		if (!strcmp(argv[1], modes[i]))
			mode = modes[i];
	if (!mode) {
		fprintf(stderr,
			"usage: %s publish_late|publish_first|"
			"early_flush|late_flush|touch_after|"
			"touch_before\n",
			argv[0]);
		return 2;
	}
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return 1;
	memset(p, 0, sizeof(*p));
	p->magic = PORT_MAGIC;
	spin_lock_init(&p->lock);
	INIT_WORK(&p->rx_work, port_rx, p);
	INIT_WORK(&p->tx_work, port_tx, p);
	if (!strncmp(mode, "publish", 7)) {
		if (!strcmp(mode, "publish_first"))
			p->buf = &buffer;
		schedule_work(&p->rx_work);
		p->buf = &buffer;
		flush_scheduled_work();
	} else if (!strcmp(mode, "early_flush") ||
		   !strcmp(mode, "late_flush")) {
		p->buf = &buffer;
		schedule_work(&p->rx_work);
		if (!strcmp(mode, "early_flush"))
			flush_scheduled_work();
		schedule_work(&p->tx_work);
		account(p, 8); /* the rest of the teardown */
		if (!strcmp(mode, "late_flush"))
			flush_scheduled_work();
	} else {
		p->buf = &buffer;
		if (kernel_thread(port_irq, p, 0) < 0)
			return 1;
		wait_for_completion(&rx_done);
		/* the work ran: the closer frees the port, then waits */
		kfree(p);
		p = NULL;
		wait_for_completion(&irq_done);
	}
	kfree(p);
	printf("queue_order %s: done\n", mode);
	return 0;
}
