/*
 * tty_io.c - the tty layer of 2.4, on the task queue, for drivers as they
 * are: the drivers' registry, opening and releasing a tty with its flip
 * buffer and hangup task, reading and writing through the line
 * discipline, the generic ioctls, hangup and SAK.
 *
 * Written for the sandbox from what 2.4.0's drivers/char/tty_io.c did;
 * what needs processes, consoles, ptys or /proc is left out, and said so
 * where it matters.  Every open, release and hangup is counted in the
 * tty's record (tty-core/record.h).
 *
 * Deferred work, as 2.4 had it:
 * - a driver's interrupt pushes the flip buffer (tty_flip_buffer_push()):
 *   flush_to_ldisc() runs at once on a low_latency tty, else from
 *   tty->flip.tqueue on tq_timer, at the next tick; it queues itself there
 *   again while a reader holds TTY_DONT_FLIP;
 * - tty_hangup() hands do_tty_hangup() to keventd (schedule_task());
 * - release_dev() runs tq_timer and flushes keventd before it frees the
 *   tty, so that neither still holds a task of it.
 * The flip halves are guarded by cli(), the global interrupt lock: a
 * driver's interrupt handler does not run while it is held.
 */
#include <linux/config.h>
#include <linux/types.h>
#include <linux/major.h>
#include <linux/errno.h>
#include <linux/signal.h>
#include <linux/fcntl.h>
#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/tty.h>
#include <linux/tty_driver.h>
#include <linux/tty_flip.h>
#include <linux/timer.h>
#include <linux/ctype.h>
#include <linux/kdev_t.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/poll.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/smp_lock.h>

#include <asm/uaccess.h>
#include <asm/system.h>
#include <asm/bitops.h>

#include <tty-core/record.h>

#define TTY_PARANOIA_CHECK 1

struct termios tty_std_termios;	    /* for the drivers' init_termios */
struct tty_ldisc ldiscs[NR_LDISCS]; /* line disciplines, by number */
struct tty_driver *tty_drivers;	    /* the registered drivers, newest first */

static void initialize_tty_struct(struct tty_struct *tty);

static ssize_t tty_read(struct file *, char *, size_t, loff_t *);
static ssize_t tty_write(struct file *, const char *, size_t, loff_t *);
static unsigned int tty_poll(struct file *, poll_table *);
static int tty_open(struct inode *, struct file *);
static int tty_release(struct inode *, struct file *);
int tty_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
	      unsigned long arg);
static int tty_fasync(int fd, struct file *filp, int on);

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) ((a) < (b) ? (b) : (a))
#endif

/*
 * A tty fits a page on 2.4's i386, which handed it out as one; here it
 * may not (pointers are twice as wide), and then it is kmalloc()ed.
 */
static inline struct tty_struct *alloc_tty_struct(void)
{
	struct tty_struct *tty;

	if (sizeof(struct tty_struct) > PAGE_SIZE) {
		tty = kmalloc(sizeof(struct tty_struct), GFP_KERNEL);
		if (tty)
			memset(tty, 0, sizeof(struct tty_struct));
	} else {
		tty = (struct tty_struct *) get_zeroed_page(GFP_KERNEL);
	}
	return tty;
}

static inline void free_tty_struct(struct tty_struct *tty)
{
	if (sizeof(struct tty_struct) > PAGE_SIZE)
		kfree(tty);
	else
		free_page((unsigned long) tty);
}

/* --- the records (tty-core/record.h) ----------------------------------- */

static struct tty_record records[TTY_RECORDS];
static int nr_records;
spinlock_t tty_records_lock = SPIN_LOCK_UNLOCKED;

struct tty_record *tty_record_of(struct tty_struct *tty)
{
	struct tty_record *r = NULL;
	unsigned long flags;
	char name[64];
	int i;

	tty_name(tty, name);
	spin_lock_irqsave(&tty_records_lock, flags);
	for (i = 0; i < nr_records; i++)
		if (!strncmp(records[i].name, name, sizeof(records[i].name)))
			r = &records[i];
	if (!r && nr_records < TTY_RECORDS) {
		r = &records[nr_records++];
		snprintf(r->name, sizeof(r->name), "%.15s", name);
		r->rx_digest = TTY_RECORD_DIGEST_INIT;
		r->room_min = ~0UL;
	}
	spin_unlock_irqrestore(&tty_records_lock, flags);
	return r;
}

int tty_record_count(void)
{
	return nr_records;
}

int tty_record_get(int i, struct tty_record *r)
{
	unsigned long flags;

	spin_lock_irqsave(&tty_records_lock, flags);
	if (i < 0 || i >= nr_records) {
		spin_unlock_irqrestore(&tty_records_lock, flags);
		return -ENOENT;
	}
	*r = records[i];
	spin_unlock_irqrestore(&tty_records_lock, flags);
	return 0;
}

static void count_event(struct tty_struct *tty, size_t offset)
{
	struct tty_record *r = tty_record_of(tty);
	unsigned long flags;

	if (!r)
		return;
	spin_lock_irqsave(&tty_records_lock, flags);
	(*(unsigned long *) ((char *) r + offset))++;
	spin_unlock_irqrestore(&tty_records_lock, flags);
}

#define COUNT_EVENT(tty, field) \
	count_event((tty), offsetof(struct tty_record, field))

/* --- names, checks ------------------------------------------------------ */

#define TTY_NUMBER(tty)                                     \
	(MINOR((tty)->device) - (tty)->driver.minor_start + \
	 (tty)->driver.name_base)

/*
 * 2.4.0 printed the driver's name as a format: "tts/%d" under devfs, and
 * the bare "ttyS" without it, the same for every port.  The number is
 * added to a name that has no format, so that messages and records tell
 * the ports apart, as later 2.4 did.
 */
char *tty_name(struct tty_struct *tty, char *buf)
{
	if (!tty)
		strcpy(buf, "NULL tty");
	else if (strchr(tty->driver.name, '%'))
		sprintf(buf, tty->driver.name, TTY_NUMBER(tty));
	else
		sprintf(buf, "%s%d", tty->driver.name, TTY_NUMBER(tty));
	return buf;
}

int tty_paranoia_check(struct tty_struct *tty, kdev_t device,
		       const char *routine)
{
#ifdef TTY_PARANOIA_CHECK
	if (!tty) {
		printk("Warning: null TTY for (%s) in %s\n", kdevname(device),
		       routine);
		return 1;
	}
	if (tty->magic != TTY_MAGIC) {
		printk("Warning: bad magic number for tty struct (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
#endif
	return 0;
}

int tty_register_ldisc(int disc, struct tty_ldisc *new_ldisc)
{
	if (disc < N_TTY || disc >= NR_LDISCS)
		return -EINVAL;
	if (new_ldisc) {
		ldiscs[disc] = *new_ldisc;
		ldiscs[disc].flags |= LDISC_FLAG_DEFINED;
		ldiscs[disc].num = disc;
	} else {
		memset(&ldiscs[disc], 0, sizeof(struct tty_ldisc));
	}
	return 0;
}

/* TIOCSETD: close the old discipline, open the new, or back to the old */
static int tty_set_ldisc(struct tty_struct *tty, int ldisc)
{
	struct tty_ldisc o_ldisc;
	int retval = 0;

	if (ldisc < N_TTY || ldisc >= NR_LDISCS)
		return -EINVAL;
	if (!(ldiscs[ldisc].flags & LDISC_FLAG_DEFINED))
		return -EINVAL; /* no module to load one from */
	if (tty->ldisc.num == ldisc)
		return 0;
	o_ldisc = tty->ldisc;

	tty_wait_until_sent(tty, 0);
	if (tty->ldisc.close)
		(tty->ldisc.close)(tty);
	tty->ldisc = ldiscs[ldisc];
	tty->termios->c_line = ldisc;
	if (tty->ldisc.open)
		retval = (tty->ldisc.open)(tty);
	if (retval < 0) {
		tty->ldisc = o_ldisc;
		tty->termios->c_line = tty->ldisc.num;
		if (tty->ldisc.open && (tty->ldisc.open(tty) < 0)) {
			tty->ldisc = ldiscs[N_TTY];
			tty->termios->c_line = N_TTY;
			if (tty->ldisc.open)
				(tty->ldisc.open)(tty);
		}
	}
	if (tty->ldisc.num != o_ldisc.num && tty->driver.set_ldisc)
		tty->driver.set_ldisc(tty);
	return retval;
}

/* the driver whose minors hold @device */
struct tty_driver *get_tty_driver(kdev_t device)
{
	int major, minor;
	struct tty_driver *p;

	minor = MINOR(device);
	major = MAJOR(device);

	for (p = tty_drivers; p; p = p->next) {
		if (p->major != major)
			continue;
		if (minor < p->minor_start)
			continue;
		if (minor >= p->minor_start + p->num)
			continue;
		return p;
	}
	return NULL;
}

/* a background process may not change its tty: SIGTTOU */
int tty_check_change(struct tty_struct *tty)
{
	if (current->tty != tty)
		return 0;
	if (tty->pgrp <= 0) {
		printk("tty_check_change: tty->pgrp <= 0!\n");
		return 0;
	}
	if (current->pgrp == tty->pgrp)
		return 0;
	if (is_ignored(SIGTTOU))
		return 0;
	if (is_orphaned_pgrp(current->pgrp))
		return -EIO;
	(void) kill_pg(current->pgrp, SIGTTOU, 1);
	return -ERESTARTSYS;
}

/* no process groups here: none is orphaned, no signal is ignored */
int is_orphaned_pgrp(int pgrp)
{
	return 0;
}

int is_ignored(int sig)
{
	return 0;
}

/* --- a hung-up file: what its operations become --------------------------- */

static ssize_t hung_up_tty_read(struct file *file, char *buf, size_t count,
				loff_t *ppos)
{
	return 0;
}

static ssize_t hung_up_tty_write(struct file *file, const char *buf,
				 size_t count, loff_t *ppos)
{
	return -EIO;
}

static unsigned int hung_up_tty_poll(struct file *filp, poll_table *wait)
{
	return POLLIN | POLLOUT | POLLERR | POLLHUP | POLLRDNORM | POLLWRNORM;
}

static int hung_up_tty_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	return cmd == TIOCSPGRP ? -ENOTTY : -EIO;
}

static struct file_operations tty_fops = {
	.read = tty_read,
	.write = tty_write,
	.poll = tty_poll,
	.ioctl = tty_ioctl,
	.open = tty_open,
	.release = tty_release,
	.fasync = tty_fasync,
};

static struct file_operations hung_up_tty_fops = {
	.read = hung_up_tty_read,
	.write = hung_up_tty_write,
	.poll = hung_up_tty_poll,
	.ioctl = hung_up_tty_ioctl,
	.release = tty_release,
};

/*
 * The hangup, in process context (keventd, or the caller of
 * tty_vhangup()): every file open on the tty is hung up, the buffers
 * flushed, the session told (SIGHUP and SIGCONT, counted), the driver's
 * hangup called.
 */
void do_tty_hangup(void *data)
{
	struct tty_struct *tty = (struct tty_struct *) data;
	struct list_head *l;
	unsigned long flags;

	if (!tty)
		return;

	lock_kernel();
	for (l = tty->tty_files.next; l != &tty->tty_files; l = l->next) {
		struct file *filp = list_entry(l, struct file, f_list);

		if (filp->f_op != &tty_fops)
			continue;
		tty_fasync(-1, filp, 0);
		filp->f_op = &hung_up_tty_fops;
	}

	save_flags(flags);
	cli();
	if (tty->ldisc.flush_buffer)
		tty->ldisc.flush_buffer(tty);
	if (tty->driver.flush_buffer)
		tty->driver.flush_buffer(tty);
	if ((test_bit(TTY_DO_WRITE_WAKEUP, &tty->flags)) &&
	    tty->ldisc.write_wakeup)
		(tty->ldisc.write_wakeup)(tty);
	restore_flags(flags);

	wake_up_interruptible(&tty->write_wait);
	wake_up_interruptible(&tty->read_wait);

	/* the line discipline goes back to N_TTY */
	if (tty->driver.flags & TTY_DRIVER_RESET_TERMIOS)
		*tty->termios = tty->driver.init_termios;
	if (tty->ldisc.num != ldiscs[N_TTY].num) {
		if (tty->ldisc.close)
			(tty->ldisc.close)(tty);
		tty->ldisc = ldiscs[N_TTY];
		tty->termios->c_line = N_TTY;
		if (tty->ldisc.open) {
			int i = (tty->ldisc.open)(tty);

			if (i < 0)
				printk("do_tty_hangup: N_TTY open: error %d\n",
				       -i);
		}
	}

	/* 2.4 signalled the session's leader: here, counted once */
	if (tty->session > 0) {
		kill_sl(tty->session, SIGHUP, 1);
		kill_sl(tty->session, SIGCONT, 1);
	}

	tty->flags = 0;
	tty->session = 0;
	tty->pgrp = -1;
	tty->ctrl_status = 0;
	COUNT_EVENT(tty, hangups);
	if (tty->driver.hangup)
		(tty->driver.hangup)(tty);
	unlock_kernel();
}

/* Hang @tty up from any context: keventd does it. */
void tty_hangup(struct tty_struct *tty)
{
	schedule_work(&tty->tq_hangup);
}

/* Hang @tty up now, in the caller (process context). */
void tty_vhangup(struct tty_struct *tty)
{
	do_tty_hangup((void *) tty);
}

int tty_hung_up_p(struct file *filp)
{
	return (filp->f_op == &hung_up_tty_fops);
}

/* a session leader gives its tty up: no process here is one */
void disassociate_ctty(int on_exit)
{
	if (current->tty)
		current->tty = NULL;
}

void stop_tty(struct tty_struct *tty)
{
	if (tty->stopped)
		return;
	tty->stopped = 1;
	if (tty->link && tty->link->packet) {
		tty->ctrl_status &= ~TIOCPKT_START;
		tty->ctrl_status |= TIOCPKT_STOP;
		wake_up_interruptible(&tty->link->read_wait);
	}
	if (tty->driver.stop)
		(tty->driver.stop)(tty);
}

void start_tty(struct tty_struct *tty)
{
	if (!tty->stopped || tty->flow_stopped)
		return;
	tty->stopped = 0;
	if (tty->link && tty->link->packet) {
		tty->ctrl_status &= ~TIOCPKT_STOP;
		tty->ctrl_status |= TIOCPKT_START;
		wake_up_interruptible(&tty->link->read_wait);
	}
	if (tty->driver.start)
		(tty->driver.start)(tty);
	if ((test_bit(TTY_DO_WRITE_WAKEUP, &tty->flags)) &&
	    tty->ldisc.write_wakeup)
		(tty->ldisc.write_wakeup)(tty);
	wake_up_interruptible(&tty->write_wait);
}

/* --- reading and writing -------------------------------------------------- */

static ssize_t tty_read(struct file *file, char *buf, size_t count,
			loff_t *ppos)
{
	struct tty_struct *tty = (struct tty_struct *) file->private_data;
	struct inode *inode = file->f_dentry->d_inode;
	int i;

	if (ppos != &file->f_pos)
		return -ESPIPE;
	if (tty_paranoia_check(tty, inode->i_rdev, "tty_read"))
		return -EIO;
	if (!tty || (test_bit(TTY_IO_ERROR, &tty->flags)))
		return -EIO;
	lock_kernel();
	if (tty->ldisc.read)
		i = (tty->ldisc.read)(tty, file, (unsigned char *) buf, count);
	else
		i = -EIO;
	unlock_kernel();
	return i;
}

/*
 * Write in chunks, each under the big kernel lock, until done, a chunk
 * takes nothing, or a signal (none here) comes.
 */
static inline ssize_t
do_tty_write(ssize_t (*write)(struct tty_struct *, struct file *,
			      const unsigned char *, size_t),
	     struct tty_struct *tty, struct file *file,
	     const unsigned char *buf, size_t count)
{
	ssize_t ret = 0, written = 0;

	if (down_interruptible(&tty->atomic_write))
		return -ERESTARTSYS;
	if (test_bit(TTY_NO_WRITE_SPLIT, &tty->flags)) {
		lock_kernel();
		written = write(tty, file, buf, count);
		unlock_kernel();
	} else {
		for (;;) {
			unsigned long size = MAX(PAGE_SIZE * 2, 16384);

			if (size > count)
				size = count;
			lock_kernel();
			ret = write(tty, file, buf, size);
			unlock_kernel();
			if (ret <= 0)
				break;
			written += ret;
			buf += ret;
			count -= ret;
			if (!count)
				break;
			ret = -ERESTARTSYS;
			if (signal_pending(current))
				break;
			if (current->need_resched)
				schedule();
		}
	}
	if (written)
		ret = written;
	up(&tty->atomic_write);
	return ret;
}

static ssize_t tty_write(struct file *file, const char *buf, size_t count,
			 loff_t *ppos)
{
	struct tty_struct *tty = (struct tty_struct *) file->private_data;
	struct inode *inode = file->f_dentry->d_inode;

	if (ppos != &file->f_pos)
		return -ESPIPE;
	if (tty_paranoia_check(tty, inode->i_rdev, "tty_write"))
		return -EIO;
	if (!tty || !tty->driver.write || (test_bit(TTY_IO_ERROR, &tty->flags)))
		return -EIO;
	if (!tty->ldisc.write)
		return -EIO;
	return do_tty_write(tty->ldisc.write, tty, file,
			    (const unsigned char *) buf, count);
}

/* --- opening and releasing ------------------------------------------------ */

/* guards the creation and release of ttys */
static DECLARE_MUTEX(tty_sem);

static void release_mem(struct tty_struct *tty, int idx);

/*
 * Find or make the tty of @device: a new one gets its termios from the
 * driver's table (made from init_termios on the first open) and opens
 * its line discipline.  A tty being closed cannot be reopened.
 */
static int init_dev(kdev_t device, struct tty_struct **ret_tty)
{
	struct tty_struct *tty;
	struct termios *tp, **tp_loc;
	struct termios *ltp, **ltp_loc;
	struct tty_driver *driver;
	int retval = 0;
	int idx;

	driver = get_tty_driver(device);
	if (!driver)
		return -ENODEV;

	idx = MINOR(device) - driver->minor_start;

	down(&tty_sem);

	tty = driver->table[idx];
	if (tty)
		goto fast_track;

	tp = NULL;
	ltp = NULL;

	tty = alloc_tty_struct();
	if (!tty)
		goto fail_no_mem;
	initialize_tty_struct(tty);
	tty->device = device;
	tty->driver = *driver;

	tp_loc = &driver->termios[idx];
	if (!*tp_loc) {
		tp = (struct termios *) kmalloc(sizeof(struct termios),
						GFP_KERNEL);
		if (!tp)
			goto free_mem_out;
		*tp = driver->init_termios;
	}

	ltp_loc = &driver->termios_locked[idx];
	if (!*ltp_loc) {
		ltp = (struct termios *) kmalloc(sizeof(struct termios),
						 GFP_KERNEL);
		if (!ltp)
			goto free_mem_out;
		memset(ltp, 0, sizeof(struct termios));
	}

	/* every allocation is done: the tty goes into the driver's table */
	driver->table[idx] = tty;
	if (!*tp_loc)
		*tp_loc = tp;
	if (!*ltp_loc)
		*ltp_loc = ltp;
	tty->termios = *tp_loc;
	tty->termios_locked = *ltp_loc;
	(*driver->refcount)++;
	tty->count++;

	if (tty->ldisc.open) {
		retval = (tty->ldisc.open)(tty);
		if (retval)
			goto release_mem_out;
	}
	goto success;

fast_track:
	if (test_bit(TTY_CLOSING, &tty->flags)) {
		retval = -EIO;
		goto end_init;
	}
	tty->count++;
	tty->driver = *driver; /* 2.4: "why do this every time??" */

success:
	*ret_tty = tty;

end_init:
	up(&tty_sem);
	return retval;

free_mem_out:
	if (ltp)
		kfree(ltp);
	if (tp)
		kfree(tp);
	free_tty_struct(tty);

fail_no_mem:
	retval = -ENOMEM;
	goto end_init;

release_mem_out:
	printk("init_dev: ldisc open failed, clearing slot %d\n", idx);
	release_mem(tty, idx);
	goto end_init;
}

/* Empty the tty's slot and free it; its termios stays with the driver. */
static void release_mem(struct tty_struct *tty, int idx)
{
	struct termios *tp;

	tty->driver.table[idx] = NULL;
	if (tty->driver.flags & TTY_DRIVER_RESET_TERMIOS) {
		tp = tty->driver.termios[idx];
		tty->driver.termios[idx] = NULL;
		kfree(tp);
	}
	tty->magic = 0;
	(*tty->driver.refcount)--;
	free_tty_struct(tty);
}

/*
 * One file of the tty goes: the driver's close, then, on the last one,
 * the line discipline's, and the tty is freed once no task queue holds a
 * task of it.
 */
static void release_dev(struct file *filp)
{
	struct tty_struct *tty;
	int tty_closing, do_sleep;
	int idx;
	char buf[64];

	tty = (struct tty_struct *) filp->private_data;
	if (tty_paranoia_check(tty, filp->f_dentry->d_inode->i_rdev,
			       "release_dev"))
		return;

	tty_fasync(-1, filp, 0);

	idx = MINOR(tty->device) - tty->driver.minor_start;

#ifdef TTY_PARANOIA_CHECK
	if (idx < 0 || idx >= tty->driver.num) {
		printk("release_dev: bad idx when trying to free (%s)\n",
		       kdevname(tty->device));
		return;
	}
	if (tty != tty->driver.table[idx]) {
		printk("release_dev: driver.table[%d] not tty for (%s)\n", idx,
		       kdevname(tty->device));
		return;
	}
	if (tty->termios != tty->driver.termios[idx]) {
		printk("release_dev: driver.termios[%d] not termios for (%s)\n",
		       idx, kdevname(tty->device));
		return;
	}
#endif

	if (tty->driver.close)
		tty->driver.close(tty, filp);
	COUNT_EVENT(tty, closes);

	/*
	 * On the last close nobody may be left waiting to read or write:
	 * wake them and let them go before the tty does.
	 */
	while (1) {
		tty_closing = tty->count <= 1;
		do_sleep = 0;
		if (tty_closing) {
			if (waitqueue_active(&tty->read_wait)) {
				wake_up(&tty->read_wait);
				do_sleep++;
			}
			if (waitqueue_active(&tty->write_wait)) {
				wake_up(&tty->write_wait);
				do_sleep++;
			}
		}
		if (!do_sleep)
			break;
		printk("release_dev: %s: read/write wait queue active!\n",
		       tty_name(tty, buf));
		schedule();
	}

	if (--tty->count < 0) {
		printk("release_dev: bad tty->count (%d) for %s\n", tty->count,
		       tty_name(tty, buf));
		tty->count = 0;
	}

	filp->private_data = 0;
	list_del_init(&filp->f_list);

	if (tty_closing)
		set_bit(TTY_CLOSING, &tty->flags);

	if (!tty_closing)
		return;

	/* the last close: no task of the sandbox keeps it as its tty */
	if (current->tty == tty)
		current->tty = NULL;

	if (tty->ldisc.close)
		(tty->ldisc.close)(tty);
	tty->ldisc = ldiscs[N_TTY];
	tty->termios->c_line = N_TTY;

	/* Make sure that the tty's task queue isn't activated. */
	cancel_delayed_work(&tty->flip.tqueue);
	flush_scheduled_work();

	release_mem(tty, idx);
}

/*
 * Open the tty of the inode's device for @filp: find or make it, then
 * the driver's open (which may wait for carrier unless O_NONBLOCK).
 * The sandbox has no /dev/tty, console or pty master to redirect.
 */
static int tty_open(struct inode *inode, struct file *filp)
{
	struct tty_struct *tty;
	int noctty, retval;
	kdev_t device;
	unsigned short saved_flags;
	char buf[64];

	saved_flags = filp->f_flags;
retry_open:
	noctty = filp->f_flags & O_NOCTTY;
	device = inode->i_rdev;

	retval = init_dev(device, &tty);
	if (retval)
		return retval;

	filp->private_data = tty;
	list_del_init(&filp->f_list);
	list_add(&filp->f_list, &tty->tty_files);

	if (tty->driver.open)
		retval = tty->driver.open(tty, filp);
	else
		retval = -ENODEV;
	filp->f_flags = saved_flags;

	if (!retval && test_bit(TTY_EXCLUSIVE, &tty->flags) && !suser())
		retval = -EBUSY;

	if (retval) {
		release_dev(filp);
		if (retval != -ERESTARTSYS)
			return retval;
		if (signal_pending(current))
			return retval;
		schedule();
		/* a hangup may have come meanwhile */
		filp->f_op = &tty_fops;
		goto retry_open;
	}
	COUNT_EVENT(tty, opens);
	if (!noctty && current->leader && !current->tty && tty->session == 0) {
		current->tty = tty;
		current->tty_old_pgrp = 0;
		tty->session = current->session;
		tty->pgrp = current->pgrp;
	}
	if ((tty->driver.type == TTY_DRIVER_TYPE_SERIAL) &&
	    (tty->driver.subtype == SERIAL_TYPE_CALLOUT) && (tty->count == 1)) {
		static int nr_warns;

		if (nr_warns < 5) {
			printk(KERN_WARNING
			       "tty_io.c: process %d (%s) used "
			       "obsolete /dev/%s - update software "
			       "to use /dev/ttyS%d\n",
			       current->pid, current->comm, tty_name(tty, buf),
			       TTY_NUMBER(tty));
			nr_warns++;
		}
	}
	return 0;
}

static int tty_release(struct inode *inode, struct file *filp)
{
	lock_kernel();
	release_dev(filp);
	unlock_kernel();
	return 0;
}

static unsigned int tty_poll(struct file *filp, poll_table *wait)
{
	struct tty_struct *tty = (struct tty_struct *) filp->private_data;

	if (tty_paranoia_check(tty, filp->f_dentry->d_inode->i_rdev,
			       "tty_poll"))
		return 0;
	if (tty->ldisc.poll)
		return (tty->ldisc.poll)(tty, filp, wait);
	return 0;
}

static int tty_fasync(int fd, struct file *filp, int on)
{
	struct tty_struct *tty = (struct tty_struct *) filp->private_data;
	int retval;

	if (tty_paranoia_check(tty, filp->f_dentry->d_inode->i_rdev,
			       "tty_fasync"))
		return 0;
	retval = fasync_helper(fd, filp, on, &tty->fasync);
	if (retval <= 0)
		return retval;
	if (on) {
		if (!waitqueue_active(&tty->read_wait))
			tty->minimum_to_wake = 1;
	} else {
		if (!tty->fasync && !waitqueue_active(&tty->read_wait))
			tty->minimum_to_wake = N_TTY_BUF_SIZE;
	}
	return 0;
}

/* --- the generic ioctls ---------------------------------------------------- */

static int tiocgwinsz(struct tty_struct *tty, struct winsize *arg)
{
	if (copy_to_user(arg, &tty->winsize, sizeof(*arg)))
		return -EFAULT;
	return 0;
}

static int tiocswinsz(struct tty_struct *tty, struct winsize *arg)
{
	struct winsize tmp_ws;

	if (copy_from_user(&tmp_ws, arg, sizeof(*arg)))
		return -EFAULT;
	if (!memcmp(&tmp_ws, &tty->winsize, sizeof(*arg)))
		return 0;
	if (tty->pgrp > 0)
		kill_pg(tty->pgrp, SIGWINCH, 1);
	tty->winsize = tmp_ws;
	return 0;
}

static int fionbio(struct file *file, int *arg)
{
	int nonblock;

	if (get_user(nonblock, arg))
		return -EFAULT;
	if (nonblock)
		file->f_flags |= O_NONBLOCK;
	else
		file->f_flags &= ~O_NONBLOCK;
	return 0;
}

static int tiocsetd(struct tty_struct *tty, int *arg)
{
	int ldisc;

	if (get_user(ldisc, arg))
		return -EFAULT;
	return tty_set_ldisc(tty, ldisc);
}

/* a break for @duration jiffies: on, sleep, off */
static int send_break(struct tty_struct *tty, int duration)
{
	set_current_state(TASK_INTERRUPTIBLE);

	tty->driver.break_ctl(tty, -1);
	if (!signal_pending(current))
		schedule_timeout(duration);
	tty->driver.break_ctl(tty, 0);
	if (signal_pending(current))
		return -EINTR;
	return 0;
}

/*
 * The tty layer's ioctls first (breaks, window size, exclusive use,
 * line discipline...), then the driver's, then the line discipline's
 * (n_tty_ioctl(): termios, flow, flushing).
 */
int tty_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
	      unsigned long arg)
{
	struct tty_struct *tty;
	int retval;

	tty = (struct tty_struct *) file->private_data;
	if (tty_paranoia_check(tty, inode->i_rdev, "tty_ioctl"))
		return -EINVAL;

	/* breaks, when the driver has no break_ctl() */
	if (!tty->driver.break_ctl) {
		switch (cmd) {
		case TIOCSBRK:
		case TIOCCBRK:
			if (tty->driver.ioctl)
				return tty->driver.ioctl(tty, file, cmd, arg);
			return -EINVAL;

		/* these two always succeed, with the driver or without */
		case TCSBRK:
		case TCSBRKP:
			if (!tty->driver.ioctl)
				return 0;
			retval = tty->driver.ioctl(tty, file, cmd, arg);
			if (retval == -ENOIOCTLCMD)
				retval = 0;
			return retval;
		}
	}

	switch (cmd) {
	case TIOCSETD:
	case TIOCSBRK:
	case TIOCCBRK:
	case TCSBRK:
	case TCSBRKP:
		retval = tty_check_change(tty);
		if (retval)
			return retval;
		if (cmd != TIOCCBRK) {
			tty_wait_until_sent(tty, 0);
			if (signal_pending(current))
				return -EINTR;
		}
		break;
	}

	switch (cmd) {
	case TIOCGWINSZ:
		return tiocgwinsz(tty, (struct winsize *) arg);
	case TIOCSWINSZ:
		return tiocswinsz(tty, (struct winsize *) arg);
	case FIONBIO:
		return fionbio(file, (int *) arg);
	case TIOCEXCL:
		set_bit(TTY_EXCLUSIVE, &tty->flags);
		return 0;
	case TIOCNXCL:
		clear_bit(TTY_EXCLUSIVE, &tty->flags);
		return 0;
	case TIOCNOTTY:
		if (current->tty != tty)
			return -ENOTTY;
		current->tty = NULL;
		return 0;
	case TIOCGPGRP:
		return put_user(tty->pgrp, (pid_t *) arg);
	case TIOCGSID:
		if (tty->session <= 0)
			return -ENOTTY;
		return put_user(tty->session, (pid_t *) arg);
	case TIOCGETD:
		return put_user(tty->ldisc.num, (int *) arg);
	case TIOCSETD:
		return tiocsetd(tty, (int *) arg);
	case TIOCSBRK:
		tty->driver.break_ctl(tty, -1);
		return 0;
	case TIOCCBRK:
		tty->driver.break_ctl(tty, 0);
		return 0;
	case TCSBRK: /* SVID: a non-zero arg sends no break */
		if (!arg)
			return send_break(tty, HZ / 4);
		return 0;
	case TCSBRKP: /* POSIX tcsendbreak() */
		return send_break(tty, arg ? arg * (HZ / 10) : HZ / 4);
	}
	if (tty->driver.ioctl) {
		retval = (tty->driver.ioctl)(tty, file, cmd, arg);
		if (retval != -ENOIOCTLCMD)
			return retval;
	}
	if (tty->ldisc.ioctl) {
		retval = (tty->ldisc.ioctl)(tty, file, cmd, arg);
		if (retval != -ENOIOCTLCMD)
			return retval;
	}
	return -EINVAL;
}

/*
 * The Secure Attention Key: 2.4 killed every process using the tty;
 * here the buffers are flushed and SIGKILL to its session is counted.
 */
void do_SAK(struct tty_struct *tty)
{
	if (!tty)
		return;
	if (tty->ldisc.flush_buffer)
		tty->ldisc.flush_buffer(tty);
	if (tty->driver.flush_buffer)
		tty->driver.flush_buffer(tty);
	if (tty->session > 0)
		kill_sl(tty->session, SIGKILL, 1);
}

/* --- the flip buffer ------------------------------------------------------- */

/*
 * Hand the half the driver filled to the line discipline, and have the
 * driver fill the other.  From tq_timer (the timer's bottom half), or in
 * the caller on a low_latency tty.  While a reader holds TTY_DONT_FLIP,
 * try again at the next tick.
 */
static void flush_to_ldisc(void *private_)
{
	struct tty_struct *tty = (struct tty_struct *) private_;
	unsigned char *cp;
	char *fp;
	int count;
	unsigned long flags;

	if (test_bit(TTY_DONT_FLIP, &tty->flags)) {
		schedule_delayed_work(&tty->flip.tqueue, 1);
		return;
	}
	if (tty->flip.buf_num) {
		cp = tty->flip.char_buf + TTY_FLIPBUF_SIZE;
		fp = tty->flip.flag_buf + TTY_FLIPBUF_SIZE;
		tty->flip.buf_num = 0;

		save_flags(flags);
		cli();
		tty->flip.char_buf_ptr = (char *) tty->flip.char_buf;
		tty->flip.flag_buf_ptr = (unsigned char *) tty->flip.flag_buf;
	} else {
		cp = tty->flip.char_buf;
		fp = tty->flip.flag_buf;
		tty->flip.buf_num = 1;

		save_flags(flags);
		cli();
		tty->flip.char_buf_ptr =
			(char *) tty->flip.char_buf + TTY_FLIPBUF_SIZE;
		tty->flip.flag_buf_ptr =
			(unsigned char *) tty->flip.flag_buf + TTY_FLIPBUF_SIZE;
	}
	count = tty->flip.count;
	tty->flip.count = 0;
	restore_flags(flags);

	tty->ldisc.receive_buf(tty, cp, fp, count);
}

/* the speeds of the B* codes, in order; CBAUDEX's after B38400 */
static int baud_table[] = {
	0,	 50,	  75,	   110,	    134,     150,     200,    300,
	600,	 1200,	  1800,	   2400,    4800,    9600,    19200,  38400,
	57600,	 115200,  230400,  460800,  500000,  576000,  921600, 1000000,
	1152000, 1500000, 2000000, 2500000, 3000000, 3500000, 4000000
};

static int n_baud_table = sizeof(baud_table) / sizeof(int);

/* the speed @termios asks for (a bad CBAUDEX code: 38400's slot) */
int tty_termios_baud_rate(struct termios *termios)
{
	unsigned int cbaud = termios->c_cflag & CBAUD;

	if (cbaud & CBAUDEX) {
		cbaud &= ~CBAUDEX;
		if (cbaud < 1 || cbaud + 15 >= n_baud_table)
			termios->c_cflag &= ~CBAUDEX;
		else
			cbaud += 15;
	}
	return baud_table[cbaud];
}

/* @tty's speed; setserial's SPD_ flags turn 38400 into tty->alt_speed */
int tty_get_baud_rate(struct tty_struct *tty)
{
	unsigned int cflag, i;

	cflag = tty->termios->c_cflag;
	i = cflag & CBAUD;
	if (i & CBAUDEX) {
		i &= ~CBAUDEX;
		if (i < 1 || i + 15 >= n_baud_table)
			tty->termios->c_cflag &= ~CBAUDEX;
		else
			i += 15;
	}
	if (i == 15 && tty->alt_speed) {
		if (!tty->warned) {
			printk("Use of setserial/setrocket to set SPD_* flags "
			       "is deprecated\n");
			tty->warned = 1;
		}
		return tty->alt_speed;
	}
	return baud_table[i];
}

/*
 * Deliver what the driver put in the flip buffer: now, on a low_latency
 * tty, else at the next timer tick.
 */
void tty_flip_buffer_push(struct tty_struct *tty)
{
	if (tty->low_latency)
		flush_to_ldisc((void *) tty);
	else
		schedule_delayed_work(&tty->flip.tqueue, 1);
}

static void initialize_tty_struct(struct tty_struct *tty)
{
	memset(tty, 0, sizeof(struct tty_struct));
	tty->magic = TTY_MAGIC;
	tty->ldisc = ldiscs[N_TTY];
	tty->pgrp = -1;
	/* 2.4's types: the pointers' signedness is not the buffers' */
	tty->flip.char_buf_ptr = (char *) tty->flip.char_buf;
	tty->flip.flag_buf_ptr = (unsigned char *) tty->flip.flag_buf;
	INIT_WORK(&tty->flip.tqueue, flush_to_ldisc, tty);
	init_MUTEX(&tty->flip.pty_sem);
	init_waitqueue_head(&tty->write_wait);
	init_waitqueue_head(&tty->read_wait);
	INIT_WORK(&tty->tq_hangup, do_tty_hangup, tty);
	sema_init(&tty->atomic_read, 1);
	sema_init(&tty->atomic_write, 1);
	spin_lock_init(&tty->read_lock);
	INIT_LIST_HEAD(&tty->tty_files);
}

/* put_char for a driver that has none: a write of one */
void tty_default_put_char(struct tty_struct *tty, unsigned char ch)
{
	tty->driver.write(tty, 0, &ch, 1);
}

/* no devfs (linux/config.h): nothing to register */
void tty_register_devfs(struct tty_driver *driver, unsigned int flags,
			unsigned int minor)
{
}

void tty_unregister_devfs(struct tty_driver *driver, unsigned minor)
{
}

/* --- the drivers' registry ------------------------------------------------- */

int tty_register_driver(struct tty_driver *driver)
{
	int error;
	int i;

	if (driver->flags & TTY_DRIVER_INSTALLED)
		return 0;

	error = register_chrdev(driver->major, driver->name, &tty_fops);
	if (error < 0)
		return error;
	else if (driver->major == 0)
		driver->major = error;

	if (!driver->put_char)
		driver->put_char = tty_default_put_char;

	driver->prev = 0;
	driver->next = tty_drivers;
	if (tty_drivers)
		tty_drivers->prev = driver;
	tty_drivers = driver;

	if (!(driver->flags & TTY_DRIVER_NO_DEVFS)) {
		for (i = 0; i < driver->num; i++)
			tty_register_devfs(driver, 0, driver->minor_start + i);
	}
	return error;
}

/*
 * A driver goes, unless a tty of it is open (-EBUSY); the termios the
 * layer made for it are freed, so a module unloaded leaks none.
 */
int tty_unregister_driver(struct tty_driver *driver)
{
	int retval;
	struct tty_driver *p;
	int i, found = 0;
	struct termios *tp;
	const char *othername = NULL;

	if (*driver->refcount)
		return -EBUSY;

	for (p = tty_drivers; p; p = p->next) {
		if (p == driver)
			found++;
		else if (p->major == driver->major)
			othername = p->name;
	}

	if (!found)
		return -ENOENT;

	if (othername == NULL) {
		retval = unregister_chrdev(driver->major, driver->name);
		if (retval)
			return retval;
	} else {
		register_chrdev(driver->major, othername, &tty_fops);
	}

	if (driver->prev)
		driver->prev->next = driver->next;
	else
		tty_drivers = driver->next;

	if (driver->next)
		driver->next->prev = driver->prev;

	for (i = 0; i < driver->num; i++) {
		tp = driver->termios[i];
		if (tp) {
			driver->termios[i] = NULL;
			kfree(tp);
		}
		tp = driver->termios_locked[i];
		if (tp) {
			driver->termios_locked[i] = NULL;
			kfree(tp);
		}
		tty_unregister_devfs(driver, driver->minor_start + i);
	}
	return 0;
}

/*
 * At boot, as 2.4's console_init(): the standard termios, and the line
 * discipline every tty starts with.
 */
__attribute__((constructor(130))) static void tty_init(void)
{
	memset(ldiscs, 0, sizeof(ldiscs));
	(void) tty_register_ldisc(N_TTY, &tty_ldisc_N_TTY);

	memset(&tty_std_termios, 0, sizeof(struct termios));
	/* INIT_C_CC has 17 characters: the last two c_cc stay 0 */
	memcpy(tty_std_termios.c_cc, INIT_C_CC, sizeof(INIT_C_CC));
	tty_std_termios.c_iflag = ICRNL | IXON;
	tty_std_termios.c_oflag = OPOST | ONLCR;
	tty_std_termios.c_cflag = B38400 | CS8 | CREAD | HUPCL;
	tty_std_termios.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK |
				  ECHOCTL | ECHOKE | IEXTEN;
}

EXPORT_SYMBOL(tty_hangup);
EXPORT_SYMBOL(tty_vhangup);
EXPORT_SYMBOL(tty_hung_up_p);
EXPORT_SYMBOL(do_SAK);
EXPORT_SYMBOL(tty_flip_buffer_push);
EXPORT_SYMBOL(tty_get_baud_rate);
EXPORT_SYMBOL(tty_check_change);
EXPORT_SYMBOL(tty_name);
EXPORT_SYMBOL(tty_register_driver);
EXPORT_SYMBOL(tty_unregister_driver);
EXPORT_SYMBOL(tty_register_devfs);
EXPORT_SYMBOL(tty_unregister_devfs);
EXPORT_SYMBOL(tty_register_ldisc);
EXPORT_SYMBOL(tty_std_termios);
EXPORT_SYMBOL(stop_tty);
EXPORT_SYMBOL(start_tty);
