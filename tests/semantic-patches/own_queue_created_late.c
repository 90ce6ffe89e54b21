#include <linux/tqueue.h>
#include <linux/interrupt.h>
#include <linux/ioport.h>

/*
 * --own-queue where the bottom half is set up after init took its
 * ports: the queue is created where init_bh() was, and its failure is
 * left for the author to handle (the ports must be given back), said
 * by a note at that line rather than guessed.
 */
static DECLARE_TASK_QUEUE(tq_late);

struct late_port {
	struct tq_struct tqueue;
	int event;
};

static void do_late_bh(void);

static void late_sched_event(struct late_port *info, int event)
{
	info->event |= 1 << event;
	queue_task(&info->tqueue, &tq_late);
	mark_bh(LATE_BH);
}

static void do_late_bh(void)
{
	run_task_queue(&tq_late);
}

static void do_late_softint(void *private_)
{
	struct late_port *info = private_;

	info->event = 0;
}

static void late_setup(struct late_port *info)
{
	info->tqueue.routine = do_late_softint;
	info->tqueue.data = info;
}

int late_init(void)
{
	if (check_region(0x300, 8))
		return -EBUSY;
	request_region(0x300, 8, "late");
	init_bh(LATE_BH, do_late_bh);
	return 0;
}

void late_exit(void)
{
	remove_bh(LATE_BH);
	release_region(0x300, 8);
}
