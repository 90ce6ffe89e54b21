#include <linux/tqueue.h>
#include <linux/interrupt.h>

/*
 * The 2.4 serial drivers' event queue (cyclades, esp, riscom8, ...): the
 * interrupt queues a port's task on a queue of the driver's own and marks
 * the driver's bottom half, which runs the queue.  The maintainers made
 * it schedule_work() and freed the bottom half; --own-queue gives the
 * driver a workqueue of its own, created and destroyed with the driver.
 */
static DECLARE_TASK_QUEUE(tq_serial);

struct serial_port {
	struct tq_struct tqueue;
	int event;
};

static void do_serial_bh(void);

static void port_sched_event(struct serial_port *info, int event)
{
	info->event |= 1 << event;
	queue_task(&info->tqueue, &tq_serial);
	mark_bh(SERIAL_BH);
}

static void do_serial_bh(void)
{
	run_task_queue(&tq_serial);
}

static void do_softint(void *private_)
{
	struct serial_port *info = private_;

	info->event = 0;
}

static void port_setup(struct serial_port *info)
{
	info->tqueue.routine = do_softint;
	info->tqueue.data = info;
}

int serial_init(void)
{
	init_bh(SERIAL_BH, do_serial_bh);
	return 0;
}

void serial_exit(void)
{
	remove_bh(SERIAL_BH);
}
