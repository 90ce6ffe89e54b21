/*
 * linux/tty_ldisc.h - line disciplines, as the 2.5 tty layer calls them.
 * Only the methods the flip-buffer path uses are kept.
 */
#ifndef _LINUX_TTY_LDISC_H
#define _LINUX_TTY_LDISC_H

struct tty_struct;

struct tty_ldisc {
	int magic;
	char *name;
	int num;
	int flags;

	int (*open)(struct tty_struct *);
	void (*close)(struct tty_struct *);
	void (*flush_buffer)(struct tty_struct *tty);
	/* called in process or interrupt context; must not sleep */
	void (*receive_buf)(struct tty_struct *, const unsigned char *cp,
			    char *fp, int count);
	int (*receive_room)(struct tty_struct *);
	void (*write_wakeup)(struct tty_struct *);
};

#define TTY_LDISC_MAGIC 0x5403

#define LDISC_FLAG_DEFINED 0x00000001

#define N_TTY 0
#define N_RECORD 29 /* the sandbox's recording discipline */
#define NR_LDISCS 32

#endif /* _LINUX_TTY_LDISC_H */
