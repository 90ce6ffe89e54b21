#include <linux/tqueue.h>

/* a stray merge marker in one function: that function is named and its
 * legacy lines listed; the rest converts */
static struct tq_struct plug_tq;

static void plug_once(void)
{
<<<<<<< HEAD
	schedule_task(&plug_tq);
=======
	queue_task(&plug_tq, &tq_immediate);
>>>>>>> unplug
}

static void plug_flush(void)
{
	flush_scheduled_tasks();
}
