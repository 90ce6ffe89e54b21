#include <linux/tqueue.h>

/* declared, not yet used: DECLARE_TASK_QUEUE keeps <linux/tqueue.h> */
static DECLARE_TASK_QUEUE(tq_later);

struct dev { struct tq_struct tq; };

static void dev_start(struct dev *d)
{
	schedule_task(&d->tq);
}
