#include <linux/tqueue.h>

static void poll(void *data);

/* positional: DECLARE_WORK cannot be derived safely, so it is reported */
static struct tq_struct poll_tq = { { NULL, NULL }, 0, poll, NULL };

void go(void)
{
	schedule_task(&poll_tq);
}
