/* A proprietary module that only uses the events queue: exported to all, so it passes. */
#include <linux/module.h>
#include <linux/workqueue.h>

static void blob_work_fn(void *data)
{
}

static DECLARE_WORK(blob_work, blob_work_fn, NULL);

int blob_init(void)
{
	schedule_work(&blob_work);
	flush_scheduled_work();
	return 0;
}

MODULE_LICENSE("Proprietary");
