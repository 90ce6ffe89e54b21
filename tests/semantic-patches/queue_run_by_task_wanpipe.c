#include <linux/tqueue.h>
#include <linux/interrupt.h>
#include <linux/module.h>

/*
 * WANPIPE's way (sdlamain.c): the protocol modules queue their tasks on a
 * queue of the driver's own, and a task queued on tq_immediate runs it.
 */
static void run_wanpipe_tq(unsigned long data);

DECLARE_TASK_QUEUE(wanpipe_tq_custom);
static struct tq_struct wanpipe_tq_task = {
	routine: (void (*)(void *)) run_wanpipe_tq,
	data: &wanpipe_tq_custom
};
static int wanpipe_bh_critical;

struct chan {
	struct tq_struct wanpipe_task;
	int rx;
};

static void chan_bh(void *data)
{
	struct chan *chan = data;

	chan->rx = 0;
}

static void run_wanpipe_tq(unsigned long data)
{
	task_queue *tq_queue = (task_queue *) data;

	if (test_and_set_bit(2, (void *) &wanpipe_bh_critical))
		printk(KERN_INFO "CRITICAL IN RUNNING TASK QUEUE\n");
	run_task_queue(tq_queue);
	clear_bit(2, (void *) &wanpipe_bh_critical);
}

void wanpipe_queue_tq(struct tq_struct *bh_pointer)
{
	if (test_and_set_bit(1, (void *) &wanpipe_bh_critical))
		printk(KERN_INFO "CRITICAL IN QUEUING TASK\n");
	queue_task(bh_pointer, &wanpipe_tq_custom);
	clear_bit(1, (void *) &wanpipe_bh_critical);
}

void wanpipe_mark_bh(void)
{
	if (!test_and_set_bit(0, (void *) &wanpipe_bh_critical)) {
		queue_task(&wanpipe_tq_task, &tq_immediate);
		mark_bh(IMMEDIATE_BH);
		clear_bit(0, (void *) &wanpipe_bh_critical);
	}
}

void chan_rx_intr(struct chan *chan)
{
	chan->rx++;
	wanpipe_queue_tq(&chan->wanpipe_task);
	wanpipe_mark_bh();
}

void chan_open(struct chan *chan)
{
	INIT_TQUEUE(&chan->wanpipe_task, chan_bh, chan);
}

static int __init wanpipe_init(void)
{
	int cnt = 0;

	printk(KERN_INFO "wanpipe\n");
	return cnt;
}

static void __exit wanpipe_cleanup(void)
{
	printk(KERN_INFO "wanpipe: unloaded\n");
}

module_init(wanpipe_init);
module_exit(wanpipe_cleanup);
