#include <linux/tqueue.h>

static void probe_done(void *data);

int probe(void)
{
	/* GNU form, no data, on the stack */
	struct tq_struct done = { routine: probe_done };

	schedule_task(&done);
	flush_scheduled_tasks();
	return 0;
}
