/*
 * world/n_record.h - the recording line discipline of the simulated world.
 *
 * It stands where n_tty stands: flush_to_ldisc() hands it each half of the
 * flip buffer, and it records what arrived (count, digest of the bytes in
 * order, flagged characters) per line, keeping the figures after the tty
 * is gone.  Its reader sets TTY_DONT_FLIP while it copies, as 2.5.39's
 * read_chan() did.
 */
#ifndef _WORLD_N_RECORD_H
#define _WORLD_N_RECORD_H

#include <linux/types.h>

struct tty_struct;
struct tty_ldisc;

#define N_RECORD_BUFSIZE 8192

struct n_record_stats {
	u64 bytes;	/* characters received */
	u64 digest;	/* world_digest() of them, in order */
	u64 flagged;	/* characters with a flag other than TTY_NORMAL */
	u64 deliveries; /* receive_buf() calls */
	u64 flushed;	/* characters thrown away by flush_buffer() */
	u64 read;	/* characters read back by n_record_read() */
	u64 overflow;	/* characters the read buffer had no room for */
	unsigned long last_jiffies; /* when the last delivery came */
	int opened;
};

extern struct tty_ldisc tty_ldisc_record;

extern void n_record_get(int line, struct n_record_stats *st);
/* sleep until line @line has received @bytes; its count then */
extern u64 n_record_wait_bytes(int line, u64 bytes, unsigned long timeout_ms);
/* the reader: read up to @n characters, TTY_DONT_FLIP set meanwhile */
extern int n_record_read(struct tty_struct *tty, unsigned char *buf, int n);
/* a reader that stays in read_chan(): hold TTY_DONT_FLIP, then let go */
extern void n_record_hold_flip(struct tty_struct *tty);
extern void n_record_release_flip(struct tty_struct *tty);

#endif /* _WORLD_N_RECORD_H */
