#include <linux/tqueue.h>
#include "cd.h"

/* sets up the kept task: INIT_TQUEUE and <linux/tqueue.h> stay */
static void cd_poll(void *data);

void cd_setup(struct cdrom *cd)
{
	INIT_TQUEUE(&cd->tq, cd_poll, cd);
}
