#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * A frame buffer driver (sa1100fb.c's way): a helper named after the call
 * it makes, used from another file of the driver that names no task
 * queue itself; the routine is set up in a third.
 */
struct sa1100fb_info {
	struct tq_struct task;
	int state;
};

void sa1100fb_task(void *dummy)
{
	struct sa1100fb_info *fbi = dummy;

	fbi->state = 0;
}

void sa1100fb_schedule_task(struct sa1100fb_info *fbi, int state)
{
	fbi->state = state;
	schedule_task(&fbi->task);
}
