#include <linux/tqueue.h>

static void probe_done(void *data);

int probe(int *result)
{
	struct tq_struct tq = { .routine = probe_done, .data = result };

	schedule_task(&tq);
	flush_scheduled_tasks();
	return *result;
}

/* here `work` is taken, so tq keeps its name */
int probe_twice(int *result)
{
	int work = 2;
	struct tq_struct tq;

	INIT_TQUEUE(&tq, probe_done, result);
	while (work--)
		schedule_task(&tq);
	return 0;
}
