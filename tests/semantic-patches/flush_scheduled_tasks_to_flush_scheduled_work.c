#include <linux/tqueue.h>

static void release_dev(int idx)
{
	/*
	 * Make sure that the tty's task queue isn't activated.
	 */
	flush_scheduled_tasks();
	if (idx)
		flush_scheduled_tasks( );
}
