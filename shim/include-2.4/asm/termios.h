/*
 * asm/termios.h - the tty's user interface on i386 in 2.4: window size,
 * the old struct termio, modem lines, line discipline numbers, and the
 * kernel's defaults and copies.
 */
#ifndef _ASM24_TERMIOS_H
#define _ASM24_TERMIOS_H

#include <asm/termbits.h>
#include <asm/ioctls.h>

struct winsize {
	unsigned short ws_row;
	unsigned short ws_col;
	unsigned short ws_xpixel;
	unsigned short ws_ypixel;
};

#define NCC 8
struct termio {
	unsigned short c_iflag;
	unsigned short c_oflag;
	unsigned short c_cflag;
	unsigned short c_lflag;
	unsigned char c_line;
	unsigned char c_cc[NCC];
};

/* modem lines (TIOCMGET and friends) */
#define TIOCM_LE 0x001
#define TIOCM_DTR 0x002
#define TIOCM_RTS 0x004
#define TIOCM_ST 0x008
#define TIOCM_SR 0x010
#define TIOCM_CTS 0x020
#define TIOCM_CAR 0x040
#define TIOCM_RNG 0x080
#define TIOCM_DSR 0x100
#define TIOCM_CD TIOCM_CAR
#define TIOCM_RI TIOCM_RNG
#define TIOCM_OUT1 0x2000
#define TIOCM_OUT2 0x4000
#define TIOCM_LOOP 0x8000

/* line disciplines */
#define N_TTY 0
#define N_SLIP 1
#define N_MOUSE 2
#define N_PPP 3
#define N_STRIP 4
#define N_AX25 5
#define N_X25 6
#define N_6PACK 7
#define N_MASC 8
#define N_R3964 9
#define N_PROFIBUS_FDL 10
#define N_IRDA 11
#define N_SMSBLOCK 12
#define N_HDLC 13
#define N_SYNC_PPP 14

#ifdef __KERNEL__
/*
 * c_cc's defaults: intr ^C, quit ^\, erase DEL, kill ^U, eof ^D, vtime 0,
 * vmin 1, swtc 0, start ^Q, stop ^S, susp ^Z, eol 0, reprint ^R,
 * discard ^O, werase ^W, lnext ^V, eol2 0
 */
#define INIT_C_CC "\003\034\177\025\004\0\1\0\021\023\032\0\022\017\027\026\0"

/* termio <-> termios: the low 16 bits of each flag word, and NCC chars */
#define SET_LOW_TERMIOS_BITS(termios, termio, x)                    \
	{                                                           \
		unsigned short __tmp;                               \
		get_user(__tmp, &(termio)->x);                      \
		(termios)->x = ((termios)->x & 0xffff0000) | __tmp; \
	}

#define user_termio_to_kernel_termios(termios, termio)                \
	({                                                            \
		SET_LOW_TERMIOS_BITS(termios, termio, c_iflag);       \
		SET_LOW_TERMIOS_BITS(termios, termio, c_oflag);       \
		SET_LOW_TERMIOS_BITS(termios, termio, c_cflag);       \
		SET_LOW_TERMIOS_BITS(termios, termio, c_lflag);       \
		copy_from_user((termios)->c_cc, (termio)->c_cc, NCC); \
	})

#define kernel_termios_to_user_termio(termio, termios)              \
	({                                                          \
		put_user((termios)->c_iflag, &(termio)->c_iflag);   \
		put_user((termios)->c_oflag, &(termio)->c_oflag);   \
		put_user((termios)->c_cflag, &(termio)->c_cflag);   \
		put_user((termios)->c_lflag, &(termio)->c_lflag);   \
		put_user((termios)->c_line, &(termio)->c_line);     \
		copy_to_user((termio)->c_cc, (termios)->c_cc, NCC); \
	})

#define user_termios_to_kernel_termios(k, u) \
	copy_from_user(k, u, sizeof(struct termios))
#define kernel_termios_to_user_termios(u, k) \
	copy_to_user(u, k, sizeof(struct termios))
#endif /* __KERNEL__ */

#endif /* _ASM24_TERMIOS_H */
