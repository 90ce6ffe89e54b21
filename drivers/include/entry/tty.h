/*
 * ports/tty.h - the tty port's entry points, for scenarios.
 *
 * Stack-neutral: nothing here names a deferred-work type, so a scenario
 * compiles unchanged against the legacy and the converted driver.
 */
#ifndef _PORTS_TTY_H
#define _PORTS_TTY_H

struct tty_struct;

struct tty_port_stats {
	unsigned long flip_resched; /* flush_to_ldisc found TTY_DONT_FLIP */
	unsigned long
		flip_direct; /* flushes run in the caller (irq, low_latency) */
	unsigned long flip_deferred; /* flushes handed to deferred work */
	unsigned long flushes;	     /* flushes that delivered a half */
	unsigned long hangups;	     /* do_tty_hangup() runs */
	unsigned long saks;	     /* __do_SAK() runs */
	int hung_up;
	int session;
};

/* tty_io.c: the tty layer, the serial driver and the consoles */
extern int tty_init(void);
extern void tty_exit(void);
/* open /dev/ttyS<line> (its simulated UART must be plugged in) */
extern struct tty_struct *tty_open_line(int line, int low_latency);
/* close it: the port is shut down, deferred work flushed, the tty freed */
extern void tty_release(struct tty_struct *tty);
extern void tty_hangup(struct tty_struct *tty);
extern void tty_vhangup(struct tty_struct *tty);
extern void do_SAK(struct tty_struct *tty);
/* write(2): blocks while the driver's buffer is full; -EIO once hung up */
extern int tty_write_user(struct tty_struct *tty, const unsigned char *buf,
			  int count);
extern void tty_get_stats(struct tty_struct *tty, struct tty_port_stats *st);
extern int tty_line(struct tty_struct *tty);
/* wait until the tty layer's deferred work queued so far has run */
extern void tty_quiesce(void);

/* serial_8250.c */
extern unsigned long serial8250_write_wakeups(int line);

/* vt.c: the virtual consoles */
struct vt_stats {
	int fg_console;
	int blanked;
	unsigned long switches;
	unsigned long blanks;
	unsigned long unblanks;
	unsigned long callbacks;
	int log[64]; /* consoles switched to, in order */
	int log_len;
};

extern void set_console(int nr);		     /* any context */
extern void vt_keyboard_interrupt(unsigned char ch); /* irq context */
extern void
vt_attach_tty(struct tty_struct *tty); /* keyboard input goes there */
extern void vt_set_blank_interval(unsigned long ticks);
extern void vt_get_stats(struct vt_stats *st);
extern void vt_quiesce(void);

#endif /* _PORTS_TTY_H */
