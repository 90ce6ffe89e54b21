#include <linux/tqueue.h>
#include <linux/interrupt.h>

/*
 * A LAN adapter's receive path (i2o_lan.c's way, its data set right):
 * buckets are posted by tasks on a queue of the driver's own, and a task
 * whose routine is run_task_queue itself runs that queue from the
 * immediate bottom half.
 */
DECLARE_TASK_QUEUE(lan_post_buckets_task);
struct tq_struct run_lan_post_buckets_task = {
	routine: (void (*)(void *)) run_task_queue,
	data: (void *) &lan_post_buckets_task
};

struct lan_priv {
	struct tq_struct post_task;
	int buckets_out;
};

static void lan_post_buckets(void *data)
{
	struct lan_priv *priv = data;

	priv->buckets_out = 0;
}

void lan_receive_post_reply(struct lan_priv *priv)
{
	if (priv->buckets_out < 16) {
		queue_task(&priv->post_task, &lan_post_buckets_task);
		queue_task(&run_lan_post_buckets_task, &tq_immediate);
		mark_bh(IMMEDIATE_BH);
	}
}

void lan_open(struct lan_priv *priv)
{
	INIT_TQUEUE(&priv->post_task, lan_post_buckets, priv);
}
