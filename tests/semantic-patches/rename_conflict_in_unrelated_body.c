#include <linux/tqueue.h>

/*
 * --rename would make tq `work`, but a function with nothing of the task
 * queue in it already has a local work: the name is taken, tq is kept.
 * convert hides such a body from coccinelle (it cannot change), and
 * still checks the new name against it.
 */
static void tick(void *data)
{
}

static struct tq_struct tq = {
	routine: tick,
};

static int count_up(int n)
{
	int work = n;

	return work + 1;
}

void kick(void)
{
	schedule_task(&tq);
}
