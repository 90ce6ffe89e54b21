#ifndef _LINUX_TTY_H
#define _LINUX_TTY_H

#include <linux/tqueue.h>

/*
 * The flip buffer's task is a member of a structure of this header; the
 * three files below use it, none of them declares it.
 */
struct tty_flip_buffer {
	struct tq_struct tqueue;
	int count;
	char buf[512];
};

struct tty_struct {
	struct tty_flip_buffer flip;
	unsigned long flags;
};

#define TTY_DONT_FLIP 1

extern void flush_to_ldisc(void *private_);

#endif
