/*
 * Every idiom the semantic patches convert, in one file.
 */
#include <linux/kernel.h>
#include <linux/interrupt.h>
#include <linux/tqueue.h>

struct port {
	struct tq_struct tqueue;
	struct tq_struct hangup_tq;
	int event;
};

struct journal_task {
	struct tq_struct task;
	int jindex;
};

static void port_softint(void *data);
static void port_hangup(void *data);
static void console_callback(void *unused);
static void do_mce_timer(void *unused);
static void journal_commit(struct journal_task *jt);

static struct tq_struct console_tq = {
	routine: console_callback,
};

static struct tq_struct mce_task = {
	.routine = do_mce_timer,
	.data = NULL,
};

static struct tq_struct floppy_tq;

static void journal_commit(struct journal_task *jt)
{
	jt->jindex++;
}

static void empty(void)
{
}

static void port_init(struct port *info, struct journal_task *jt)
{
	INIT_LIST_HEAD(&info->tqueue.list);
	info->tqueue.sync = 0;
	info->tqueue.routine = port_softint;
	info->tqueue.data = info;
	INIT_TQUEUE(&info->hangup_tq, port_hangup, info);
	INIT_LIST_HEAD(&jt->task.list);
	jt->task.sync = 0;
	jt->task.routine = (void *)(void *)journal_commit;
	jt->jindex = 0;
	jt->task.data = (void *)jt;
}

static void port_interrupt(struct port *info)
{
	info->event = 1;
	queue_task(&info->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

static void port_hangup_now(struct port *info)
{
	PREPARE_TQUEUE(&info->hangup_tq, port_hangup, info);
	if (!info->hangup_tq.sync)
		schedule_task(&info->hangup_tq);
}

static void schedule_bh(void (*handler)(void *))
{
	floppy_tq.routine = (void *)(void *) handler;
	schedule_task(&floppy_tq);
}

static void cancel_activity(void)
{
	floppy_tq.routine = (void *)(void *) empty;
}

static void port_shutdown(struct port *info, struct journal_task *jt)
{
	struct tq_struct *t = &info->tqueue;

	schedule_task(&console_tq);
	schedule_task(&mce_task);
	schedule_task(&jt->task);
	if (t->sync || floppy_tq.sync)
		flush_scheduled_tasks();
}
