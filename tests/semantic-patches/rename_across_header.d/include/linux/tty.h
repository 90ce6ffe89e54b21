#ifndef _LINUX_TTY_H
#define _LINUX_TTY_H

#include <linux/tqueue.h>

/* The structure lives in a header; the uses are in tty_io.c. */
struct tty_struct {
	struct tq_struct tq_hangup;
	struct tq_struct SAK_tq;
	int pgrp;
};

#endif
