#include <linux/tqueue.h>
#include <linux/interrupt.h>

/*
 * An ATM driver's probe with GNU nested functions (ambassador.c's way):
 * the task is set up by hand, list, sync, routine and data, in a function
 * nested twice, where coccinelle matches nothing.  The four lines make an
 * INIT_WORK() on their tokens, with a note; the routine keeps its cast.
 */
typedef struct amb_dev {
	struct tq_struct bh;
	unsigned int tx_avail;
} amb_dev;

static void fill_rx_pools(amb_dev *dev)
{
	dev->tx_avail = 0;
}

static void interrupt_handler(int irq, void *dev_id, struct pt_regs *pt_regs)
{
	amb_dev *dev = (amb_dev *) dev_id;

	queue_task(&dev->bh, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static int amb_probe(void)
{
	int devs = 0;

	void do_pci_device(amb_dev *dev)
	{
		void setup_dev(void)
		{
			dev->tx_avail = 1;
			// initialise bottom half
			INIT_LIST_HEAD(&dev->bh.list);
			dev->bh.sync = 0;
			dev->bh.routine = (void (*)(void *)) fill_rx_pools;
			dev->bh.data = dev;
		}

		setup_dev();
		devs++;
	}

	do_pci_device(0);
	return devs;
}
