#include <linux/sched.h>
#include <linux/init.h>

/*
 * Boot, 2.4 style: keventd is started here, and the initcalls' deferred
 * work is flushed before init runs.  2.5.41 starts the events queue with
 * init_workqueues(), declared in <linux/workqueue.h>.
 */
static void do_basic_setup(void)
{
	start_context_thread();
	flush_scheduled_tasks();
}

static int init(void *unused)
{
	do_basic_setup();
	return 0;
}
