#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * A synchronous card's tty layer (pc300_tty.c's way): receive and
 * transmit tasks go on a queue of the driver's own, and a task scheduled
 * on keventd runs it.
 */
static DECLARE_TASK_QUEUE(tq_cpc_tty);

struct cpc_tty {
	struct tq_struct tty_rx_task;
	struct tq_struct run_queue;
	int rx;
};

static void cpc_tty_rx_task(void *data)
{
	struct cpc_tty *tty = data;

	tty->rx = 0;
}

static void cpc_tty_run_queue(void *data)
{
	run_task_queue(&tq_cpc_tty);
}

void cpc_tty_receive(struct cpc_tty *tty)
{
	tty->rx++;
	queue_task(&tty->tty_rx_task, &tq_cpc_tty);
	schedule_task(&tty->run_queue);
}

void cpc_tty_init(struct cpc_tty *tty)
{
	INIT_TQUEUE(&tty->tty_rx_task, cpc_tty_rx_task, tty);
	INIT_TQUEUE(&tty->run_queue, cpc_tty_run_queue, tty);
}
