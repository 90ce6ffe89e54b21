#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * A thread of the driver's own sleeps until its queue has something
 * (acpi's thread in 2.4): the queue's emptiness is tested, which a
 * workqueue cannot say.  Kept, with the reason at the declaration.
 */
static DECLARE_TASK_QUEUE(thread_run);
static DECLARE_WAIT_QUEUE_HEAD(thread_wait);

struct entry { struct tq_struct task; };

static void entry_run(void *data)
{
}

static void queue_entry(struct entry *e)
{
	INIT_TQUEUE(&e->task, entry_run, e);
	queue_task(&e->task, &thread_run);
	wake_up(&thread_wait);
}

static int driver_thread(void *unused)
{
	for (;;) {
		if (list_empty(&thread_run))
			interruptible_sleep_on(&thread_wait);
		run_task_queue(&thread_run);
	}
	return 0;
}
