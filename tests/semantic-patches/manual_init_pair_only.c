#include <linux/tqueue.h>

struct tty_flip_buffer {
	struct tq_struct tqueue;
	int count;
};

struct tty_struct {
	struct tty_flip_buffer flip;
	struct tq_struct tq_hangup;
	int pgrp;
};

static void flush_to_ldisc(void *private_);
static void do_tty_hangup(void *data);

/* tty_io.c: routine and data only, twice. */
static void initialize_tty_struct(struct tty_struct *tty)
{
	tty->pgrp = -1;
	tty->flip.tqueue.routine = flush_to_ldisc;
	tty->flip.tqueue.data = tty;
	tty->flip.count = 0;
	tty->tq_hangup.routine = do_tty_hangup;
	tty->tq_hangup.data = tty;
}
