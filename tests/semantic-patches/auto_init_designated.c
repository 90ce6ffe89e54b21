#include <linux/tqueue.h>

static void probe_done(void *data);

int probe(int *result)
{
	struct tq_struct done = { .routine = probe_done, .data = result };

	schedule_task(&done);
	flush_scheduled_tasks();
	return *result;
}
