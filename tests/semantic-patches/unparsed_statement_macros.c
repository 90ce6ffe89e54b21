#include <linux/tqueue.h>
#include <linux/spinlock.h>

/*
 * A SCSI host driver's lock macros, written as statements that end in
 * their own `;` and used without one (qla1280.c's way): coccinelle cannot
 * parse host_queuecmd(), so its task-queue uses convert on their tokens,
 * and the rest of the file as usual.
 */
#define DRIVER_LOCK	spin_lock_irqsave(&io_request_lock, cpu_flags);
#define DRIVER_UNLOCK	spin_unlock_irqrestore(&io_request_lock, cpu_flags);

struct host { struct tq_struct run_bh; int busy; int outcnt; };

static void host_bh(void *data)
{
	struct host *ha = data;

	ha->busy = 0;
}

static int host_queuecmd(struct host *ha)
{
	unsigned long cpu_flags = 0;

	DRIVER_LOCK
	if (ha->busy) {
		schedule_task(&ha->run_bh);
		DRIVER_UNLOCK
		return 0;
	}
	DRIVER_LOCK
		if (ha->outcnt == 0)
			queue_task(&ha->run_bh, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	DRIVER_UNLOCK
	return 1;
}

static void host_init(struct host *ha)
{
	ha->run_bh.routine = host_bh;
	ha->run_bh.data = ha;
}
