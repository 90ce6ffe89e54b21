#include <linux/tqueue.h>

static struct tq_struct poll_tq;

/* void f(void) is not void f(T *): the cast has a reason to be there. */
static void poll_all(void)
{
}

static void poll_one(void *arg)
{
}

void start(void)
{
	PREPARE_TQUEUE(&poll_tq, (void *)(void *)poll_all, NULL);
	PREPARE_TQUEUE(&poll_tq, (void (*)(void *))poll_one, NULL);
	schedule_task(&poll_tq);
}
