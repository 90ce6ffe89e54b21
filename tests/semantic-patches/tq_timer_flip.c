#include <linux/tqueue.h>

/*
 * The 2.4 flip buffer: a receive interrupt queues the flip task on
 * tq_timer, to run at the next tick.  2.5.41 made every one of them
 * schedule_delayed_work(&tty->flip.tqueue, 1); release_dev()'s
 * run_task_queue(&tq_timer) cancels it first: the flush after it does
 * not wait for delayed work whose timer has not fired.
 */
struct tty_flip_buffer { struct tq_struct tqueue; int count; };
struct tty_struct { struct tty_flip_buffer flip; };

static void flush_to_ldisc(void *private_)
{
	struct tty_struct *tty = private_;

	tty->flip.count = 0;
}

static void receive_chars(struct tty_struct *tty)
{
	tty->flip.count++;
	queue_task(&tty->flip.tqueue, &tq_timer);
}

static void tty_setup(struct tty_struct *tty)
{
	tty->flip.tqueue.routine = flush_to_ldisc;
	tty->flip.tqueue.data = tty;
}

static void release_dev(struct tty_struct *tty)
{
	run_task_queue(&tq_timer);	/* the flip buffer's task */
	flush_scheduled_tasks();
	schedule();
}
