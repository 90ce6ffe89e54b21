#include <linux/tqueue.h>
#include "wrap.h"

/* sees struct ser_info through wrap.h: its kept task's set-up stays */
static void ser_poll(void *data);

void ser_setup(SER_INFO *info)
{
	INIT_TQUEUE(&info->tqueue, ser_poll, info);
}
