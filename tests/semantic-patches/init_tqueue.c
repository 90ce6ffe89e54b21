#include <linux/tqueue.h>

struct tty_struct {
	struct tq_struct SAK_tq;
	struct tq_struct hangup_tq;
};

static void do_tty_hangup(void *data);

static void initialize_tty_struct(struct tty_struct *tty)
{
	INIT_TQUEUE(&tty->hangup_tq, do_tty_hangup, tty);
	INIT_TQUEUE(&tty->SAK_tq, 0, 0);
}
