/*
 * linux/tty.h - the tty structure and its flip buffer, as of 2.5.39.
 *
 * The receive path: a driver's interrupt fills one half of the flip
 * buffer while flush_to_ldisc() hands the other half to the line
 * discipline, in process context via the task queue (tty->flip.tqueue),
 * or at once when the tty is low_latency.  Hangup and SAK are deferred
 * the same way (tq_hangup, SAK_tq).
 *
 * The sandbox port adds flip.lock: 2.5.39 guarded the flip halves with
 * local_irq_save(), which keeps out an interrupt on the same CPU only;
 * here the "interrupt" is another thread, so the halves need a lock.
 */
#ifndef _LINUX_TTY_H
#define _LINUX_TTY_H

#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/list.h>
#include <asm/semaphore.h>
#include <asm/atomic.h>
#include <linux/workqueue.h>
#include <linux/tty_driver.h>
#include <linux/tty_ldisc.h>

#define NR_TTYS		8

/*
 * This is the flip buffer: two halves of TTY_FLIPBUF_SIZE characters and
 * flags each; the driver fills the half at char_buf_ptr, flush_to_ldisc()
 * swaps the halves and delivers the full one.
 */
#define TTY_FLIPBUF_SIZE 512

struct tty_flip_buffer {
	struct work_struct work;
	struct semaphore pty_sem;
	spinlock_t lock;
	unsigned char	*char_buf_ptr;
	char		*flag_buf_ptr;
	int		count;
	int		buf_num;
	unsigned char	char_buf[2*TTY_FLIPBUF_SIZE];
	char		flag_buf[2*TTY_FLIPBUF_SIZE];
	unsigned char	slop[4]; /* N.B. bug overflow padding */
};

/* flag_buf values */
#define TTY_NORMAL	0
#define TTY_BREAK	1
#define TTY_FRAME	2
#define TTY_PARITY	3
#define TTY_OVERRUN	4

struct tty_struct {
	int	magic;
	struct tty_driver driver;
	struct tty_ldisc ldisc;
	struct semaphore termios_sem;
	unsigned long flags;
	int count;
	int index;
	char name[16];
	unsigned long event;
	int pgrp;
	int session;
	unsigned char stopped:1, hw_stopped:1, flow_stopped:1, packet:1;
	unsigned char low_latency:1, warned:1;
	struct tty_flip_buffer flip;
	int alt_speed;		/* For magic substitution of 38400 bps */
	wait_queue_head_t write_wait;
	wait_queue_head_t read_wait;
	struct work_struct hangup_work;
	void *disc_data;
	void *driver_data;
	struct list_head tty_files;

	struct semaphore atomic_read;
	struct semaphore atomic_write;
	spinlock_t read_lock;
	/* If the tty has a pending do_SAK, queue it here - akpm */
	struct work_struct SAK_work;

	/* what the sandbox counts (read by tty_get_stats) */
	atomic_t flip_resched;		/* flush_to_ldisc found TTY_DONT_FLIP */
	atomic_t flip_direct;		/* flushes run in the caller's context */
	atomic_t flip_deferred;		/* flushes handed to the task queue */
	atomic_t flushes;		/* flush_to_ldisc passes that delivered */
	atomic_t hangups;
	atomic_t saks;
};

/* tty magic number */
#define TTY_MAGIC		0x5401

/* bits of tty->flags */
#define TTY_THROTTLED		0
#define TTY_IO_ERROR		1
#define TTY_OTHER_CLOSED	2
#define TTY_EXCLUSIVE		3
#define TTY_DEBUG		4
#define TTY_DO_WRITE_WAKEUP	5
#define TTY_PUSH		6
#define TTY_CLOSING		7
#define TTY_DONT_FLIP		8
#define TTY_HW_COOK_OUT		14
#define TTY_HW_COOK_IN		15
#define TTY_PTY_LOCK		16
#define TTY_NO_WRITE_SPLIT	17
#define TTY_HUPPED		18	/* sandbox: do_tty_hangup() has run */

extern int tty_register_ldisc(int disc, struct tty_ldisc *new_ldisc);
extern void tty_wakeup(struct tty_struct *tty);
extern void tty_hangup(struct tty_struct *tty);
extern void tty_vhangup(struct tty_struct *tty);
extern int tty_hung_up_p(struct tty_struct *tty);
extern void do_SAK(struct tty_struct *tty);
extern void tty_flip_buffer_push(struct tty_struct *tty);
extern char *tty_name(struct tty_struct *tty, char *buf);

/* vt.c */
extern void schedule_console_callback(void);

/* serial_8250.c */
extern struct tty_driver serial8250_driver;
extern int serial8250_init(void);
extern void serial8250_exit(void);

#endif /* _LINUX_TTY_H */
