/*
 * tty-core/record.h - what the tty layer of the sandbox (drivers/tty-core)
 * saw of each tty, for a scenario to compare: the line discipline
 * (n_record.c) records what reached it, the layer (tty_io.c) the opens,
 * closes and hangups.  A record outlives its tty, named as tty_name()
 * names it ("ttyS0").
 */
#ifndef _TTY_CORE_RECORD_H
#define _TTY_CORE_RECORD_H

#include <linux/types.h>
#include <linux/spinlock.h>

struct tty_struct;
struct tty_driver;

#define TTY_RECORDS 128

struct tty_record {
	char name[16];
	/* what the tty layer did */
	unsigned long opens;   /* tty_open()s that succeeded */
	unsigned long closes;  /* release_dev()s */
	unsigned long hangups; /* do_tty_hangup()s */
	/* what the line discipline saw, in order */
	unsigned long rx_bytes;	  /* handed to receive_buf() */
	u64 rx_digest;		  /* of those bytes, in order (FNV-1a) */
	unsigned long rx_flagged; /* of them, flagged not TTY_NORMAL */
	unsigned long rx_dropped; /* of them, beyond its room */
	unsigned long rx_read;	  /* read back by the tty's reader */
	unsigned long room_min;	  /* the least receive_room() it said */
	unsigned long throttles;  /* it asked the driver to throttle */
	unsigned long unthrottles;
	unsigned long write_wakeups;
	unsigned long tx_bytes; /* the driver took from write() */
	/* how it saw them: depends on timing, for information only */
	unsigned long rx_deliveries; /* receive_buf() calls */
	/*
	 * bytes handed to it after it closed, lost: none of the above.  2.4
	 * ran a closing tty's pending flip (release_dev's drain of
	 * tq_timer) into its closed n_tty; a drain that cancels the push
	 * loses them before.  Lost both ways: how is no observable.
	 */
	unsigned long rx_late;
};

/* the initial digest, and a byte (or 0x100 + a flag) added to one */
#define TTY_RECORD_DIGEST_INIT 0xcbf29ce484222325ULL
static inline u64 tty_record_digest(u64 d, unsigned int c)
{
	return (d ^ c) * 0x100000001b3ULL;
}

/*
 * A byte received with its flag (TTY_NORMAL, TTY_BREAK...), as the digest
 * takes it: the flag, and the character where 2.4's n_tty read one.  n_tty
 * took a break and an overrun by their flag alone, never reading the
 * character in that slot; and a driver need not write one there: 2.4.0's
 * serial.c reports an overrun as a slot of its own whose character is
 * whatever the flip buffer last held at that place, which depends on when
 * earlier pushes were delivered, a matter of timing, not of the driver.
 */
static inline u64 tty_record_digest_rx(u64 d, unsigned char c, char flag)
{
	if (flag != 0) /* TTY_NORMAL */
		d = tty_record_digest(d, 0x100 | (unsigned char) flag);
	if (flag == 1 || flag == 4) /* TTY_BREAK, TTY_OVERRUN */
		return d;
	return tty_record_digest(d, c);
}

/* Records made so far, in the order their ttys were first opened. */
extern int tty_record_count(void);
/* Record @i into @r: 0, or -ENOENT past the last. */
extern int tty_record_get(int i, struct tty_record *r);

/* guards every record's counts (irqsave: the line discipline counts in irq) */
extern spinlock_t tty_records_lock;

/* tty_io.c: the record of @tty, made on its first open (NULL if full) */
extern struct tty_record *tty_record_of(struct tty_struct *tty);

/* the registered tty drivers, newest first (2.4's global of tty_io.c) */
extern struct tty_driver *tty_drivers;

#endif /* _TTY_CORE_RECORD_H */
