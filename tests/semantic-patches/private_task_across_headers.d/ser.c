#include <linux/tqueue.h>
#include "ser.h"

static DECLARE_TASK_QUEUE(tq_ser);

void ser_kick(SER_INFO *info)
{
	queue_task(&info->tqueue, &tq_ser);
}

void ser_run(void)
{
	run_task_queue(&tq_ser);
}
