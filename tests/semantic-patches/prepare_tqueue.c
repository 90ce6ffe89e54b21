#include <linux/tqueue.h>

struct tty_struct {
	struct tq_struct SAK_tq;
};

static void __do_SAK(void *arg);

/* tty_io.c: re-point work that may already be queued. */
void do_SAK(struct tty_struct *tty)
{
	if (!tty)
		return;
	PREPARE_TQUEUE(&tty->SAK_tq, __do_SAK, tty);
	schedule_task(&tty->SAK_tq);
}
