#include <linux/tqueue.h>

/*
 * A private task queue runs its tasks where run_task_queue() is called:
 * it is kept, and so is every task queued on it (its type, its set-up,
 * its .sync).  The other task of the structure converts.
 */
static DECLARE_TASK_QUEUE(tq_cdrom);

struct cdrom {
	struct tq_struct tq;
	struct tq_struct hangup_tq;
	int busy;
};

static void cdrom_poll_one(void *data);
static void cdrom_hangup(void *data);

static struct tq_struct cdrom_timer_task = {
	routine: cdrom_poll_one,
	data: NULL,
};

static void cdrom_setup(struct cdrom *cd)
{
	INIT_TQUEUE(&cd->tq, cdrom_poll_one, cd);
	cd->hangup_tq.routine = cdrom_hangup;
	cd->hangup_tq.data = cd;
}

static void cdrom_queue(struct cdrom *cd)
{
	if (!cd->tq.sync)
		queue_task(&cd->tq, &tq_cdrom);
	queue_task(&cdrom_timer_task, &tq_cdrom);
	schedule_task(&cd->hangup_tq);
}

static void cdrom_poll(void)
{
	run_task_queue(&tq_cdrom);
}
