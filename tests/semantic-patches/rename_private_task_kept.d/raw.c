#include <linux/tqueue.h>
#include "req.h"

/* the packet's queue stays (run where the caller needs its tasks run):
 * so does the request's task, under its name */
static void complete(void *data)
{
	struct req *r = data;

	r->done = 1;
}

void raw_queue(struct req *r, struct packet *pk)
{
	r->tq.routine = complete;
	r->tq.data = r;
	queue_task(&r->tq, &pk->complete_tq);
}

void raw_complete(struct packet *pk)
{
	run_task_queue(&pk->complete_tq);
}
