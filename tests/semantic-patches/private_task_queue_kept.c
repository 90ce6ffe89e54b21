#include <linux/tqueue.h>

/* a private task queue: a workqueue of its own, by hand */
static DECLARE_TASK_QUEUE(tq_cdrom);

struct cdrom { struct tq_struct tq; };

static void cdrom_queue(struct cdrom *cd)
{
	queue_task(&cd->tq, &tq_cdrom);
}

static void cdrom_poll(void)
{
	run_task_queue(&tq_cdrom);
}
