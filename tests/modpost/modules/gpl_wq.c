/* A GPL module using its own workqueue: passes. */
#include <linux/module.h>
#include <linux/workqueue.h>

static void gpl_work_fn(void *data)
{
}

static DECLARE_WORK(gpl_work, gpl_work_fn, NULL);
static struct workqueue_struct *gpl_wq;

int gpl_init(void)
{
	gpl_wq = create_workqueue("gplwq");
	if (!gpl_wq)
		return -1;
	queue_work(gpl_wq, &gpl_work);
	return 0;
}

MODULE_LICENSE("Dual BSD/GPL");
