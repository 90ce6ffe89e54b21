#include <linux/tqueue.h>

struct port {
	struct tq_struct tqueue;
	int line;
};

static void port_softint(void *data);

/* routine, data, then sync and list */
static void port_init(struct port *info)
{
	info->tqueue.routine = port_softint;
	info->tqueue.data = info;
	info->tqueue.sync = 0;
	INIT_LIST_HEAD(&info->tqueue.list);
	info->line = 0;
}
