#include <linux/tqueue.h>

struct port {
	struct tq_struct tqueue;
	int line;
};

static void port_softint(void *data);

/* data, list, routine, sync: the group is split by its own members */
static void port_init(struct port *info)
{
	info->line = 1;
	info->tqueue.data = info;
	INIT_LIST_HEAD(&info->tqueue.list);
	info->tqueue.routine = port_softint;
	info->tqueue.sync = 0;
}
