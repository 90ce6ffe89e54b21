#include <linux/tqueue.h>

/* A .sync that is not a task queue's stays. */
struct super_block { int sync; };

static struct tq_struct flush_tq;

static int dirty(struct super_block *sb)
{
	schedule_task(&flush_tq);
	return sb->sync || flush_tq.sync;
}
