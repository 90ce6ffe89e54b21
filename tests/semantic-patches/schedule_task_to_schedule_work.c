#include <linux/tqueue.h>

struct tty_flip_buffer { struct tq_struct tqueue; };
struct tty_struct { struct tty_flip_buffer flip; unsigned long flags; int low_latency; };

/* The return value means the same: 1 if queued, 0 if already pending. */
void tty_flip_buffer_push(struct tty_struct *tty)
{
	if (tty->low_latency)
		return;
	if (!schedule_task(&tty->flip.tqueue))
		tty->flags |= 1;
}
