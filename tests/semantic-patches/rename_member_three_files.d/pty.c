#include <linux/tty.h>

/* the other side reads as soon as the flip work is not already queued */
int pty_chars_in_buffer(struct tty_struct *tty)
{
	if (tty->flip.tqueue.sync)
		return tty->flip.count;
	return 0;
}
