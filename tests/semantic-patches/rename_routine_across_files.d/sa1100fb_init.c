#include <linux/tqueue.h>

struct sa1100fb_info {
	struct tq_struct task;
	int state;
};

extern void sa1100fb_task(void *dummy);

void sa1100fb_init_one(struct sa1100fb_info *fbi)
{
	INIT_TQUEUE(&fbi->task, sa1100fb_task, fbi);
}
