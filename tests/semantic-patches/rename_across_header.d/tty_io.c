#include <linux/tty.h>

static void do_tty_hangup(void *data);
static void __do_SAK(void *arg);

void tty_hangup(struct tty_struct *tty)
{
	schedule_task(&tty->tq_hangup);
}

void do_SAK(struct tty_struct *tty)
{
	PREPARE_TQUEUE(&tty->SAK_tq, __do_SAK, tty);
	schedule_task(&tty->SAK_tq);
}

static void initialize_tty_struct(struct tty_struct *tty)
{
	tty->tq_hangup.routine = do_tty_hangup;
	tty->tq_hangup.data = tty;
	INIT_TQUEUE(&tty->SAK_tq, 0, 0);
}
