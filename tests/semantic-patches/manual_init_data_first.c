#include <linux/tqueue.h>

struct port {
	struct tq_struct tqueue;
	int line;
};

static void port_softint(void *data);

static void port_init(struct port *info)
{
	info->tqueue.data = info;
	info->tqueue.routine = port_softint;
	info->line = 0;
}
