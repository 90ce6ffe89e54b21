#include <linux/tqueue.h>

struct port { struct tq_struct tqueue; int data; };

/* `data` is taken in the body: the parameter becomes __info. */
static void port_softint(struct port *info)
{
	int data = info->data;

	info->data = data + 1;
}

static void port_init(struct port *info)
{
	info->tqueue.routine = (void (*)(void *)) port_softint;
	info->tqueue.data = info;
}
