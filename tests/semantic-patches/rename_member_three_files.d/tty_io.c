#include <linux/tty.h>

/* runs on keventd: hands the flip buffer to the line discipline */
void flush_to_ldisc(void *private_)
{
	struct tty_struct *tty = private_;

	if (tty->flags & TTY_DONT_FLIP) {
		schedule_task(&tty->flip.tqueue);
		return;
	}
	tty->flip.count = 0;
}

static void initialize_tty_struct(struct tty_struct *tty)
{
	tty->flip.tqueue.routine = flush_to_ldisc;
	tty->flip.tqueue.data = tty;
}

void release_dev(struct tty_struct *tty)
{
	flush_scheduled_tasks();
	initialize_tty_struct(tty);
}
