#include <linux/tqueue.h>
#include <linux/interrupt.h>
#include <linux/errno.h>

/*
 * --own-queue where init can fail after the queue is created: each
 * return of a failure after it destroys the queue first (braced where
 * it was an if's statement), a return of success keeps it, and a
 * return of what only the author can tell is named in a note.
 */
static DECLARE_TASK_QUEUE(tq_fails);

struct fails_port {
	struct tq_struct tqueue;
	int event;
};

static void do_fails_bh(void);
static int fails_register(void);
static int fails_probe(void);

static void fails_sched_event(struct fails_port *info, int event)
{
	info->event |= 1 << event;
	queue_task(&info->tqueue, &tq_fails);
	mark_bh(FAILS_BH);
}

static void do_fails_bh(void)
{
	run_task_queue(&tq_fails);
}

static void do_fails_softint(void *private_)
{
	struct fails_port *info = private_;

	info->event = 0;
}

static void fails_setup(struct fails_port *info)
{
	info->tqueue.routine = do_fails_softint;
	info->tqueue.data = info;
}

int fails_init(void)
{
	int err;

	init_bh(FAILS_BH, do_fails_bh);
	if (fails_register())
	{
		printk("fails: cannot register\n");
		return 1;
	}
	if (!fails_probe())
		return -ENODEV;
	err = fails_probe();
	if (err > 1)
		return err;
	return 0;
}

void fails_exit(void)
{
	remove_bh(FAILS_BH);
}
