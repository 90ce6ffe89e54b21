#include <linux/version.h>
#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * A driver kept for older kernels: below 2.3.43 it has no tasklets and
 * emulates them with the immediate queue.  No workqueue kernel compiles
 * that branch, so it stays as it is and does not hold back the rest.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(2,3,43)
#define tasklet_struct tq_struct
static inline void tasklet_schedule(struct tasklet_struct *t)
{
	queue_task(t, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}
#else
#include <linux/interrupt.h>
#endif

struct nic {
	struct tq_struct restart_task;
	int restarts;
};

static void nic_restart(void *data)
{
	struct nic *n = data;

	n->restarts++;
}

void nic_setup(struct nic *n)
{
#if (LINUX_VERSION_CODE >= 0x020400)
	INIT_TQUEUE(&n->restart_task, nic_restart, n);
#else
	n->restart_task.routine = nic_restart;
	n->restart_task.data = n;
#endif
}

void nic_link_lost(struct nic *n)
{
	schedule_task(&n->restart_task);
}
