#include <linux/tqueue.h>
#include <linux/interrupt.h>

/*
 * The queue is run at the end of the driver's own interrupt handler, not
 * by a bottom half: the run goes, the tasks become work on keventd.
 */
DECLARE_TASK_QUEUE(tq_card);

static struct tq_struct card_rx_task;

static void card_rx(void *data)
{
}

static void card_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	queue_task(&card_rx_task, &tq_card);
	run_task_queue(&tq_card);
}

int card_probe(void)
{
	card_rx_task.routine = card_rx;
	return request_irq(9, card_interrupt, 0, "card", NULL);
}
