#include <linux/tqueue.h>

/* A zeroed tq_struct could be queued; a zeroed work_t cannot. */
static struct tq_struct idle_tq;
struct tq_struct global_tq;
extern struct tq_struct other_tq;

void kick(void)
{
	struct tq_struct local_tq;

	INIT_TQUEUE(&local_tq, 0, 0);
	schedule_task(&idle_tq);
	schedule_task(&global_tq);
	schedule_task(&other_tq);
}
