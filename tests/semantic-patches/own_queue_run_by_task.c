#include <linux/tqueue.h>
#include <linux/interrupt.h>
#include <linux/module.h>

/*
 * A synchronous serial card's channels defer their receive work to a
 * queue of the driver's own, which a task on tq_immediate runs (the
 * WANPIPE way).  With --own-queue the queue becomes a workqueue of the
 * driver's own: made when the module loads (its failure the module's),
 * destroyed when it goes.
 */
static void sync_run_queue(void *data);

static DECLARE_TASK_QUEUE(tq_sync_rx);
static struct tq_struct sync_run_task = {
	.routine = sync_run_queue,
	.data = &tq_sync_rx,
};

struct sync_chan {
	struct tq_struct rx_task;
	int frames;
};

static void sync_rx_bh(void *data)
{
	struct sync_chan *chan = data;

	chan->frames = 0;
}

static void sync_run_queue(void *data)
{
	task_queue *queue = data;

	run_task_queue(queue);
}

void sync_rx_interrupt(struct sync_chan *chan)
{
	chan->frames++;
	queue_task(&chan->rx_task, &tq_sync_rx);
	queue_task(&sync_run_task, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

void sync_chan_open(struct sync_chan *chan)
{
	INIT_TQUEUE(&chan->rx_task, sync_rx_bh, chan);
}

int init_module(void)
{
	printk(KERN_INFO "sync: loaded\n");
	return 0;
}

void cleanup_module(void)
{
	printk(KERN_INFO "sync: unloaded\n");
}
