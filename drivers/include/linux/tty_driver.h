/*
 * linux/tty_driver.h - what a tty driver provides to the tty layer.
 * Only the methods the ported paths use are kept.
 */
#ifndef _LINUX_TTY_DRIVER_H
#define _LINUX_TTY_DRIVER_H

struct tty_struct;

struct tty_driver {
	int magic;
	const char *driver_name;
	const char *name;
	int name_base;
	short major;
	short minor_start;
	short num;
	short type;
	short subtype;
	int flags;
	int refcount;

	int (*open)(struct tty_struct *tty, void *filp);
	void (*close)(struct tty_struct *tty, void *filp);
	int (*write)(struct tty_struct *tty, int from_user,
		     const unsigned char *buf, int count);
	int (*write_room)(struct tty_struct *tty);
	int (*chars_in_buffer)(struct tty_struct *tty);
	void (*flush_buffer)(struct tty_struct *tty);
	void (*hangup)(struct tty_struct *tty);
	void (*throttle)(struct tty_struct *tty);
	void (*unthrottle)(struct tty_struct *tty);
};

#define TTY_DRIVER_MAGIC 0x5402
#define TTY_DRIVER_TYPE_SERIAL 0x0003
#define TTY_DRIVER_TYPE_CONSOLE 0x0001
#define SERIAL_TYPE_NORMAL 1

#endif /* _LINUX_TTY_DRIVER_H */
