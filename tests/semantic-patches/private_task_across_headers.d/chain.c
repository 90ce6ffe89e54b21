#include <linux/tqueue.h>
#include "chain.h"

static DECLARE_TASK_QUEUE(tq_chain);

void chain_kick(struct chain *c)
{
	queue_task(&c->in.tq2, &tq_chain);
}

void chain_run(void)
{
	run_task_queue(&tq_chain);
}
