#include <linux/tqueue.h>
#include "cd.h"

/* hands the kept task to keventd too: reported for a hand conversion */
void cd_now(struct cdrom *cd)
{
	schedule_task(&cd->tq);
}
