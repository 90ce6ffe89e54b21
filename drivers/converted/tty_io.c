/*
 * tty_io.c - the deferred-work paths of the tty layer, as of 2.5.39.
 *
 * A port of the behaviour, not of the source: the flip buffer pushed to
 * the line discipline from the task queue (or at once when low_latency),
 * TTY_DONT_FLIP making flush_to_ldisc() put itself back on the queue,
 * hangup done from the task queue, SAK through PREPARE_TQUEUE, and a
 * release that flushes the scheduled tasks before the tty is freed.
 *
 * Only serial lines (serial_8250.c) are opened here; the line discipline
 * is the recording one of the simulated world (n_record).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>
#include <linux/tty.h>
#include <linux/tty_flip.h>
#include <asm/bitops.h>
#include <asm/semaphore.h>

#include <entry/tty.h>
#include <world/n_record.h>

static struct tty_ldisc ldiscs[NR_LDISCS];	/* line disc dispatch table */
static struct tty_struct *tty_table[NR_TTYS];
static spinlock_t tty_table_lock = SPIN_LOCK_UNLOCKED;
/* the session and process group, as the kernel's tasklist_lock guards them */
static spinlock_t tty_session_lock = SPIN_LOCK_UNLOCKED;

int tty_register_ldisc(int disc, struct tty_ldisc *new_ldisc)
{
	if (disc < N_TTY || disc >= NR_LDISCS)
		return -EINVAL;

	if (new_ldisc) {
		ldiscs[disc] = *new_ldisc;
		ldiscs[disc].flags |= LDISC_FLAG_DEFINED;
		ldiscs[disc].num = disc;
	} else
		memset(&ldiscs[disc], 0, sizeof(struct tty_ldisc));

	return 0;
}

char *tty_name(struct tty_struct *tty, char *buf)
{
	if (!tty) /* Hmm.  NULL pointer.  That's fun. */
		strcpy(buf, "NULL tty");
	else
		strcpy(buf, tty->name);
	return buf;
}

int tty_line(struct tty_struct *tty)
{
	return tty->index;
}

int tty_hung_up_p(struct tty_struct *tty)
{
	return test_bit(TTY_HUPPED, &tty->flags);
}

void tty_wakeup(struct tty_struct *tty)
{
	if (test_bit(TTY_DO_WRITE_WAKEUP, &tty->flags) &&
	    tty->ldisc.write_wakeup)
		(tty->ldisc.write_wakeup)(tty);
	wake_up_interruptible(&tty->write_wait);
}

/*
 * This can be called by the "eventd" kernel thread.  That is process
 * synchronous, but doesn't hold any locks, so we need to make sure we
 * have the appropriate locks for what we're doing.
 */
static void do_tty_hangup(void *data)
{
	struct tty_struct *tty = (struct tty_struct *) data;

	if (!tty)
		return;

	if (test_and_set_bit(TTY_HUPPED, &tty->flags))
		return;		/* already hung up */

	/* nothing more comes in or goes out */
	set_bit(TTY_IO_ERROR, &tty->flags);

	if (tty->ldisc.flush_buffer)
		tty->ldisc.flush_buffer(tty);
	if (tty->driver.flush_buffer)
		tty->driver.flush_buffer(tty);
	if (test_bit(TTY_DO_WRITE_WAKEUP, &tty->flags) &&
	    tty->ldisc.write_wakeup)
		(tty->ldisc.write_wakeup)(tty);
	wake_up_interruptible(&tty->write_wait);
	wake_up_interruptible(&tty->read_wait);

	spin_lock(&tty_session_lock);
	tty->session = 0;
	tty->pgrp = -1;
	spin_unlock(&tty_session_lock);
	if (tty->driver.hangup)
		(tty->driver.hangup)(tty);

	atomic_inc(&tty->hangups);
}

void tty_hangup(struct tty_struct *tty)
{
#ifdef TTY_DEBUG_HANGUP
	char	buf[64];

	printk(KERN_DEBUG "%s hangup...\n", tty_name(tty, buf));
#endif
	schedule_work(&tty->hangup_work);
}

void tty_vhangup(struct tty_struct *tty)
{
#ifdef TTY_DEBUG_HANGUP
	char	buf[64];

	printk(KERN_DEBUG "%s vhangup...\n", tty_name(tty, buf));
#endif
	do_tty_hangup((void *) tty);
}

/*
 * The secure attention key: kill everything that has the tty open.  Here
 * the "processes" are the tty's session, which dies, and what they had
 * typed or not yet read, which is thrown away.
 */
static void __do_SAK(void *arg)
{
	struct tty_struct *tty = arg;
	int session;

	if (!tty)
		return;
	spin_lock(&tty_session_lock);
	session = tty->session;
	tty->session = 0;
	tty->pgrp = -1;
	spin_unlock(&tty_session_lock);
	if (session > 0)
		printk(KERN_NOTICE "SAK: killed session %d on %s\n", session,
		       tty->name);
	if (tty->ldisc.flush_buffer)
		tty->ldisc.flush_buffer(tty);
	if (tty->driver.flush_buffer)
		tty->driver.flush_buffer(tty);
	atomic_inc(&tty->saks);
}

/*
 * The tq handling here is a little racy - tty->SAK_tq may already be queued.
 * Fortunately we don't need to worry, because if ->SAK_tq is already queued,
 * the values which we write to it will be identical to the values which it
 * already has. --akpm
 */
void do_SAK(struct tty_struct *tty)
{
	if (!tty)
		return;
	PREPARE_WORK(&tty->SAK_work, __do_SAK, tty);
	schedule_work(&tty->SAK_work);
}

/*
 * This routine is called out of the software interrupt to flush data
 * from the flip buffer to the line discipline.  The halves are swapped
 * and the full one delivered under flip.lock, so that deliveries stay in
 * order even when the receive interrupt calls us on another CPU.
 */
static void flush_to_ldisc(void *private_)
{
	struct tty_struct *tty = (struct tty_struct *) private_;
	unsigned char	*cp;
	char		*fp;
	int		count;
	unsigned long	flags;

	if (test_bit(TTY_DONT_FLIP, &tty->flags)) {
		atomic_inc(&tty->flip_resched);
		schedule_work(&tty->flip.work);
		return;
	}
	spin_lock_irqsave(&tty->flip.lock, flags);
	if (tty->flip.buf_num) {
		cp = tty->flip.char_buf + TTY_FLIPBUF_SIZE;
		fp = tty->flip.flag_buf + TTY_FLIPBUF_SIZE;
		tty->flip.buf_num = 0;
		tty->flip.char_buf_ptr = tty->flip.char_buf;
		tty->flip.flag_buf_ptr = tty->flip.flag_buf;
	} else {
		cp = tty->flip.char_buf;
		fp = tty->flip.flag_buf;
		tty->flip.buf_num = 1;
		tty->flip.char_buf_ptr = tty->flip.char_buf + TTY_FLIPBUF_SIZE;
		tty->flip.flag_buf_ptr = tty->flip.flag_buf + TTY_FLIPBUF_SIZE;
	}
	count = tty->flip.count;
	tty->flip.count = 0;
	if (count) {
		tty->ldisc.receive_buf(tty, cp, fp, count);
		atomic_inc(&tty->flushes);
	}
	spin_unlock_irqrestore(&tty->flip.lock, flags);
}

void tty_flip_buffer_push(struct tty_struct *tty)
{
	if (tty->low_latency) {
		atomic_inc(&tty->flip_direct);
		flush_to_ldisc((void *) tty);
	} else {
		atomic_inc(&tty->flip_deferred);
		schedule_work(&tty->flip.work);
	}
}

/*
 * This subroutine initializes a tty structure.
 */
static void initialize_tty_struct(struct tty_struct *tty)
{
	memset(tty, 0, sizeof(struct tty_struct));
	tty->magic = TTY_MAGIC;
	tty->ldisc = ldiscs[N_RECORD];
	tty->pgrp = -1;
	tty->flip.char_buf_ptr = tty->flip.char_buf;
	tty->flip.flag_buf_ptr = tty->flip.flag_buf;
	INIT_WORK(&tty->flip.work, flush_to_ldisc, tty);
	init_MUTEX(&tty->flip.pty_sem);
	spin_lock_init(&tty->flip.lock);
	init_waitqueue_head(&tty->write_wait);
	init_waitqueue_head(&tty->read_wait);
	INIT_WORK(&tty->hangup_work, do_tty_hangup, tty);
	sema_init(&tty->atomic_read, 1);
	sema_init(&tty->atomic_write, 1);
	init_MUTEX(&tty->termios_sem);
	spin_lock_init(&tty->read_lock);
	INIT_LIST_HEAD(&tty->tty_files);
	INIT_WORK(&tty->SAK_work, 0, 0);
}

/* open /dev/ttyS<line>: a new tty on the serial driver, recording ldisc */
struct tty_struct *tty_open_line(int line, int low_latency)
{
	struct tty_struct *tty;
	int retval;

	if (line < 0 || line >= NR_TTYS)
		return NULL;

	tty = kmalloc(sizeof(struct tty_struct), GFP_KERNEL);
	if (!tty)
		return NULL;
	initialize_tty_struct(tty);
	tty->driver = serial8250_driver;
	tty->index = line;
	snprintf(tty->name, sizeof(tty->name), "%s%d",
		 serial8250_driver.name, line);
	tty->low_latency = low_latency ? 1 : 0;
	tty->session = 1000 + line;
	tty->pgrp = tty->session;
	tty->count = 1;

	spin_lock(&tty_table_lock);
	if (tty_table[line]) {
		spin_unlock(&tty_table_lock);
		kfree(tty);
		return NULL;
	}
	tty_table[line] = tty;
	spin_unlock(&tty_table_lock);

	if (tty->ldisc.open) {
		retval = (tty->ldisc.open)(tty);
		if (retval)
			goto fail_ldisc;
	}
	if (tty->driver.open) {
		retval = tty->driver.open(tty, NULL);
		if (retval)
			goto fail_driver;
	}
	return tty;

fail_driver:
	if (tty->ldisc.close)
		(tty->ldisc.close)(tty);
fail_ldisc:
	spin_lock(&tty_table_lock);
	tty_table[line] = NULL;
	spin_unlock(&tty_table_lock);
	kfree(tty);
	return NULL;
}

/*
 * Releases memory associated with a tty structure.
 */
static void release_mem(struct tty_struct *tty)
{
	spin_lock(&tty_table_lock);
	tty_table[tty->index] = NULL;
	spin_unlock(&tty_table_lock);
	tty->magic = 0;
	kfree(tty);
}

/*
 * Even releasing the tty structures is a tricky business: the driver
 * stops interrupting first, then nothing may still be queued to run on
 * the tty when it is freed.
 */
static void release_dev(struct tty_struct *tty)
{
	set_bit(TTY_CLOSING, &tty->flags);
	if (tty->driver.close)
		tty->driver.close(tty, NULL);
	tty->count = 0;

	/*
	 * Make sure that the tty's task queue isn't activated.
	 */
	flush_scheduled_work();

	/*
	 * Shutdown the current line discipline.
	 */
	if (tty->ldisc.close)
		(tty->ldisc.close)(tty);

	/*
	 * The release_mem function takes care of the details of clearing
	 * the slots and preserving the termios structure.
	 */
	release_mem(tty);
}

void tty_release(struct tty_struct *tty)
{
	if (!tty || tty->magic != TTY_MAGIC)
		return;
	release_dev(tty);
}

/* write(2) on the tty: copy into the driver, sleeping while it is full */
int tty_write_user(struct tty_struct *tty, const unsigned char *buf, int count)
{
	int written = 0;

	down(&tty->atomic_write);
	while (written < count) {
		int c;

		wait_event_interruptible(tty->write_wait,
			test_bit(TTY_IO_ERROR, &tty->flags) ||
			tty->driver.write_room(tty) > 0);
		if (test_bit(TTY_IO_ERROR, &tty->flags)) {
			if (!written)
				written = -EIO;
			break;
		}
		c = tty->driver.write(tty, 0, buf + written, count - written);
		if (c < 0) {
			if (!written)
				written = c;
			break;
		}
		written += c;
	}
	up(&tty->atomic_write);
	return written;
}

void tty_get_stats(struct tty_struct *tty, struct tty_port_stats *st)
{
	st->flip_resched = atomic_read(&tty->flip_resched);
	st->flip_direct = atomic_read(&tty->flip_direct);
	st->flip_deferred = atomic_read(&tty->flip_deferred);
	st->flushes = atomic_read(&tty->flushes);
	st->hangups = atomic_read(&tty->hangups);
	st->saks = atomic_read(&tty->saks);
	st->hung_up = tty_hung_up_p(tty);
	spin_lock(&tty_session_lock);
	st->session = tty->session;
	spin_unlock(&tty_session_lock);
}

/* wait until every tty task scheduled so far has run */
void tty_quiesce(void)
{
	flush_scheduled_work();
}

extern int vt_init(void);
extern void vt_exit(void);

int tty_init(void)
{
	int ret;

	ret = tty_register_ldisc(N_RECORD, &tty_ldisc_record);
	if (ret)
		return ret;
	ret = vt_init();
	if (ret)
		return ret;
	ret = serial8250_init();
	if (ret)
		vt_exit();
	return ret;
}

void tty_exit(void)
{
	serial8250_exit();
	vt_exit();
	tty_register_ldisc(N_RECORD, NULL);
}

EXPORT_SYMBOL(tty_register_ldisc);
EXPORT_SYMBOL(tty_hangup);
EXPORT_SYMBOL(tty_vhangup);
EXPORT_SYMBOL(tty_hung_up_p);
EXPORT_SYMBOL(do_SAK);
EXPORT_SYMBOL(tty_flip_buffer_push);
EXPORT_SYMBOL(tty_wakeup);
EXPORT_SYMBOL(tty_name);

MODULE_LICENSE("GPL");
