/*
 * pollbox.h - the state of a line discipline that polls its line on
 * every timer tick (2.4 style): two tasks on tq_timer.
 */
#ifndef _POLLBOX_H
#define _POLLBOX_H

#include <linux/tqueue.h>

struct pollbox_info {
	struct tty_struct *tty;
	int count;
	struct tq_struct poll_tq;
	struct tq_struct retry_tq;
};

#endif
