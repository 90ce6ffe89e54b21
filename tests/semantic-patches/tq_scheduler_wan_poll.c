#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * A WAN card driver kept for 2.2 and 2.4 (sdla_chdlc.c's way): the poll
 * task goes to keventd on 2.4 and to tq_scheduler, which schedule() ran
 * in process context, on 2.2.  The maintainers made both schedule_work().
 */
typedef struct chdlc_private_area {
	struct tq_struct poll_task;
	int poll_pending;
} chdlc_private_area_t;

static void chdlc_poll(void *data)
{
	chdlc_private_area_t *chdlc_priv_area = data;

	chdlc_priv_area->poll_pending = 0;
}

static void trigger_chdlc_poll(chdlc_private_area_t *chdlc_priv_area)
{
	chdlc_priv_area->poll_pending = 1;
#ifdef LINUX_2_4
	schedule_task(&chdlc_priv_area->poll_task);
#else
	queue_task(&chdlc_priv_area->poll_task, &tq_scheduler);
#endif
}

static int chdlc_new_if(chdlc_private_area_t *chdlc_priv_area)
{
	chdlc_priv_area->poll_task.sync = 0;
	chdlc_priv_area->poll_task.routine = chdlc_poll;
	chdlc_priv_area->poll_task.data = chdlc_priv_area;
	return 0;
}
