/* A proprietary module that uses the GPL-only workqueue calls: modpost must refuse it. */
#include <linux/module.h>
#include <linux/workqueue.h>

static void blob_work_fn(void *data)
{
}

static DECLARE_WORK(blob_work, blob_work_fn, NULL);
static struct workqueue_struct *blob_wq;

int blob_init(void)
{
	blob_wq = create_workqueue("blob");
	if (!blob_wq)
		return -1;
	queue_work(blob_wq, &blob_work);
	return 0;
}

MODULE_LICENSE("Proprietary");
