/*
 * linux/tty_flip.h - what a driver's interrupt handler fills the flip
 * buffer with, and how it has it delivered.
 */
#ifndef _LINUX_TTY_FLIP_H
#define _LINUX_TTY_FLIP_H

#include <linux/tty.h>

#ifdef INCLUDE_INLINE_FUNCS
#define _INLINE_ extern
#else
#define _INLINE_ static __inline__
#endif

/* a character and its flag, if the half being filled has room */
_INLINE_ void tty_insert_flip_char(struct tty_struct *tty, unsigned char ch,
				   char flag)
{
	if (tty->flip.count < TTY_FLIPBUF_SIZE) {
		tty->flip.count++;
		*tty->flip.flag_buf_ptr++ = flag;
		*tty->flip.char_buf_ptr++ = ch;
	}
}

/* deliver it at the next timer tick, whatever the tty's latency */
_INLINE_ void tty_schedule_flip(struct tty_struct *tty)
{
	queue_task(&tty->flip.tqueue, &tq_timer);
}

#undef _INLINE_

#endif /* _LINUX_TTY_FLIP_H */
