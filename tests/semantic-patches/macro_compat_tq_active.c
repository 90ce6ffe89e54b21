#include <linux/version.h>
#include <linux/tqueue.h>

/*
 * A SCSI host driver's compatibility header (mptscsih.h's way): which
 * queue SCHEDULE_TASK() uses is chosen by testing TQ_ACTIVE, which
 * 2.4.0-test12 defined as tq_scheduler went.  The 2.2 macro's body is
 * not a statement coccinelle parses; its queue_task() converts on its
 * tokens, and TQ_ACTIVE becomes the version test it stood for.
 */
#define HAVE_TQ_SCHED	1
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,4,0)
#	include <linux/sched.h>
#	ifdef TQ_ACTIVE
#		undef HAVE_TQ_SCHED
#	endif
#endif
#ifdef HAVE_TQ_SCHED
#define SCHEDULE_TASK(x)		\
	/*MOD_INC_USE_COUNT*/;		\
	(x)->next = NULL;		\
	queue_task(x, &tq_scheduler)
#else
#define SCHEDULE_TASK(x)		\
	/*MOD_INC_USE_COUNT*/;		\
	if (schedule_task(x) == 0) {	\
		/*MOD_DEC_USE_COUNT*/;	\
	}
#endif

struct mpt_host {
	struct tq_struct taskmgmt;
	int pending;
};

static void mpt_taskmgmt_bh(void *data)
{
	struct mpt_host *host = data;

	host->pending = 0;
}

int mpt_abort(struct mpt_host *host)
{
	host->pending = 1;
	INIT_TQUEUE(&host->taskmgmt, mpt_taskmgmt_bh, host);
	SCHEDULE_TASK(&host->taskmgmt);
	return 0;
}
