#include <linux/tqueue.h>
#include <linux/sched.h>
#include <linux/slab.h>

/*
 * A 2.4 tty layer in small: the receive side pushes the flip buffer with
 * queue_task(&tty->flip.tqueue, &tq_timer), and release_dev() runs
 * tq_timer before it frees the tty and its pty partner, so that no flip
 * task is left to run on freed memory.  Once the task is delayed work,
 * a flush does not wait for it while its timer runs: each is cancelled
 * (the partner only where release_dev() has one), then flushed.
 */
struct tty_flip_buffer {
	struct tq_struct tqueue;
	int count;
};

struct tty_struct {
	struct tty_flip_buffer flip;
	struct tty_struct *link;
	int count;
};

static void flush_to_ldisc(void *private_)
{
	struct tty_struct *tty = (struct tty_struct *) private_;

	tty->flip.count = 0;
}

void tty_flip_buffer_push(struct tty_struct *tty)
{
	queue_task(&tty->flip.tqueue, &tq_timer);
}

static void initialize_tty_struct(struct tty_struct *tty)
{
	tty->flip.tqueue.routine = flush_to_ldisc;
	tty->flip.tqueue.data = tty;
}

static void release_dev(struct file *filp)
{
	struct tty_struct *tty, *o_tty;
	int tty_closing, o_tty_closing;

	tty = (struct tty_struct *) filp->private_data;
	o_tty = tty->link;
	tty_closing = tty->count <= 1;
	o_tty_closing = o_tty && (o_tty->count <= 1);
	if (!tty_closing || (o_tty && !o_tty_closing))
		return;

	/*
	 * Make sure that the tty's task queue isn't activated.
	 */
	run_task_queue(&tq_timer);
	flush_scheduled_tasks();

	if (o_tty)
		kfree(o_tty);
	kfree(tty);
}

static int tty_release(struct inode *inode, struct file *filp)
{
	release_dev(filp);
	return 0;
}
