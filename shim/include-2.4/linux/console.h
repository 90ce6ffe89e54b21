/*
 * linux/console.h - consoles, as a 2.4 driver that offers one declares
 * it.  A module never registers one here (the serial console is built
 * in only, linux/config.h), but the structure is its to fill.
 */
#ifndef _LINUX24_CONSOLE_H
#define _LINUX24_CONSOLE_H

#include <linux/types.h>
#include <linux/kdev_t.h>

#define CON_PRINTBUFFER (1)
#define CON_CONSDEV (2)
#define CON_ENABLED (4)

struct console {
	char name[8];
	void (*write)(struct console *, const char *, unsigned);
	int (*read)(struct console *, const char *, unsigned);
	kdev_t (*device)(struct console *);
	int (*wait_key)(struct console *);
	void (*unblank)(void);
	int (*setup)(struct console *, char *);
	short flags;
	short index;
	int cflag;
	struct console *next;
};

static inline void register_console(struct console *c)
{
}

static inline int unregister_console(struct console *c)
{
	return 0;
}

#endif /* _LINUX24_CONSOLE_H */
