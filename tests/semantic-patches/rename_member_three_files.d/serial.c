#include <linux/tty.h>

/*
 * A receive interrupt with the flip buffer full runs the flip task's
 * routine itself, then gives up if the buffer is still full.
 */
static void receive_chars(struct tty_struct *tty, unsigned char ch)
{
	if (tty->flip.count >= 512) {
		tty->flip.tqueue.routine((void *) tty);
		if (tty->flip.count >= 512)
			return;
	}
	tty->flip.buf[tty->flip.count++] = ch;
}

void rs_interrupt(struct tty_struct *tty, unsigned char ch)
{
	receive_chars(tty, ch);
}
