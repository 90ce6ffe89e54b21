#include <linux/tqueue.h>

/* Not a task queue: same member names, another type. */
struct callback {
	void (*routine)(void *);
	void *data;
};

static void handler(void *data);

static void arm(struct callback *cb, void *arg)
{
	cb->routine = handler;
	cb->data = arg;
}
