#include <linux/tqueue.h>

/* __attribute__ with arguments after a declarator */
static unsigned long long poll_stamp __attribute__((aligned(8)));
static struct tq_struct poll_tq;
static int poll_count __attribute__ ((aligned (16))) = 0;

static void poll_kick(void)
{
	poll_count++;
	schedule_task(&poll_tq);
}
