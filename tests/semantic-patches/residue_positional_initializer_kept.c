#include <linux/tqueue.h>

static void poll(void *data);

/* positional, marked as queued (sync 1): DECLARE_WORK would lose that, so it is reported */
static struct tq_struct poll_tq = { { NULL, NULL }, 1, poll, NULL };

void go(void)
{
	schedule_task(&poll_tq);
}
