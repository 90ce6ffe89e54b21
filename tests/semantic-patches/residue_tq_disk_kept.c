#include <linux/tqueue.h>

struct request_queue { struct tq_struct plug_tq; int plugged; };

/* tq_disk is the block layer's plugging, not deferred work: reported. */
static void plug_device(struct request_queue *q)
{
	if (!q->plugged) {
		q->plugged = 1;
		queue_task(&q->plug_tq, &tq_disk);
	}
}

void blk_run_queues(void)
{
	run_task_queue(&tq_disk);
}
