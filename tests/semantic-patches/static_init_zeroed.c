#include <linux/tqueue.h>

static atomic_t kick_pending = ATOMIC_INIT(0);

/* s390 style: a task zeroed by `{0,}`, its routine set before queueing */
static inline void kick_bh(void (*func)(void))
{
	static struct tq_struct kick_tq =
	{0,};

	if (atomic_read(&kick_pending))
		return;
	atomic_set(&kick_pending, 1);
	kick_tq.routine = (void *) (void *) func;
	schedule_task(&kick_tq);
}

static struct tq_struct spare_tq = { 0 };
static struct tq_struct other_tq = { NULL };

void poke(void)
{
	schedule_task(&spare_tq);
	schedule_task(&other_tq);
}
