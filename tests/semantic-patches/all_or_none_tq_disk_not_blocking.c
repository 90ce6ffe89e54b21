#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * run_task_queue(&tq_disk) is the block layer's unplugging, not deferred
 * work, and stays as it is: the rest of the file still converts.
 */
static void flush_done(void *data);

static struct tq_struct flush_tq = { routine: flush_done, data: NULL };

static void flush_done(void *data)
{
	run_task_queue(&tq_disk);
}

void start_flush(void)
{
	schedule_task(&flush_tq);
}
