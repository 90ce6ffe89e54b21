#include <linux/tqueue.h>

static void softint(void *data);

struct port {
	int line;
	struct tq_struct tqueue;
};

/* a tq_struct inside another initialiser: INIT_WORK at run time, by hand */
static struct port console_port = {
	.line = 0,
	.tqueue = { .routine = softint, .data = &console_port },
};

void kick(void)
{
	schedule_task(&console_port.tqueue);
}
