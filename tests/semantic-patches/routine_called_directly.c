#include <linux/tqueue.h>
#include <linux/workqueue.h>

struct tty_flip_buffer {
	struct tq_struct tqueue;
	int count;
};

struct tty_struct {
	struct tty_flip_buffer flip;
};

/*
 * A receive interrupt that finds the flip buffer full empties it at once,
 * calling the flip task's routine itself (the 2.4 serial drivers).
 */
static void rx_char(struct tty_struct *tty, unsigned char ch, char *buf)
{
	if (tty->flip.count >= 512) {
		tty->flip.tqueue.routine((void *) tty);
		if (tty->flip.count >= 512)
			return;
	}
	buf[tty->flip.count++] = ch;
}

/* declared in a header convert is not given: its type is unknown */

static void poll_now(void)
{
	poll_task.routine(poll_task.data);
	schedule_task(&poll_task);
}

/* already on the seed's work_t, whose member was routine */
static void run_by_hand(work_t *w)
{
	w->routine(w->data);
}
