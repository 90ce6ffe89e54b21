#include <linux/tqueue.h>
#include "cd.h"

/* the private queue: struct cdrom's tq stays a struct tq_struct */
static DECLARE_TASK_QUEUE(tq_cd);

void cd_kick(struct cdrom *cd)
{
	queue_task(&cd->tq, &tq_cd);
}

void cd_run(void)
{
	run_task_queue(&tq_cd);
}
