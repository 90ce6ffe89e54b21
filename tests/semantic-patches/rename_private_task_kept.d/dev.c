#include <linux/tqueue.h>
#include "dev.h"

void dev_kick(struct dev *d)
{
	schedule_task(&d->tq);
}
