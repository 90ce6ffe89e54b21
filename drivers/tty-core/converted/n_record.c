/*
 * n_record.c - the line discipline of the sandbox's tty layer: every tty
 * starts with it (it is N_TTY here).  It records what a comparison of a
 * driver before and after a conversion looks at (tty-core/record.h): the
 * bytes the driver delivered, in order, with their flags; what it could
 * not take; the room it offered; write wakeups; the bytes the driver
 * took from write().
 *
 * Like 2.4's n_tty in raw mode it keeps what it receives in a buffer of
 * N_TTY_BUF_SIZE for a reader (read()), asks the driver to throttle as
 * the buffer fills and to unthrottle as a reader empties it, and drops
 * what does not fit.  It neither echoes nor edits: what the driver
 * delivers is what it records.  It asks the driver for write wakeups
 * (TTY_DO_WRITE_WAKEUP), which n_tty did not, so that they are seen.
 */
#include <linux/types.h>
#include <linux/major.h>
#include <linux/errno.h>
#include <linux/signal.h>
#include <linux/fcntl.h>
#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/tty.h>
#include <linux/timer.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/poll.h>

#include <asm/uaccess.h>
#include <asm/system.h>
#include <asm/bitops.h>

#include <tty-core/record.h>

/* n_tty's thresholds: throttle below this room, unthrottle below this fill */
#define TTY_THRESHOLD_THROTTLE 128
#define TTY_THRESHOLD_UNTHROTTLE 128

/* the reader's side: a ring of what was received (tty->read_lock) */
struct n_record {
	unsigned char buf[N_TTY_BUF_SIZE];
	int head, tail, count;
	struct tty_record *rec;
};

static inline struct n_record *nr_of(struct tty_struct *tty)
{
	return (struct n_record *) tty->disc_data;
}

/* add @n to the count at @offset of the tty's record */
static void record_add(struct n_record *nr, size_t offset, unsigned long n)
{
	unsigned long flags;

	if (!nr || !nr->rec)
		return;
	spin_lock_irqsave(&tty_records_lock, flags);
	*(unsigned long *) ((char *) nr->rec + offset) += n;
	spin_unlock_irqrestore(&tty_records_lock, flags);
}

static int n_record_open(struct tty_struct *tty)
{
	struct n_record *nr;

	if (!tty)
		return -EINVAL;
	nr = kmalloc(sizeof(*nr), GFP_KERNEL);
	if (!nr)
		return -ENOMEM;
	memset(nr, 0, sizeof(*nr));
	nr->rec = tty_record_of(tty);
	tty->disc_data = nr;
	tty->minimum_to_wake = 1;
	set_bit(TTY_DO_WRITE_WAKEUP, &tty->flags);
	return 0;
}

static void n_record_close(struct tty_struct *tty)
{
	struct n_record *nr = nr_of(tty);

	tty->disc_data = NULL;
	kfree(nr);
}

/* as n_tty's check_unthrottle(): room again, and the driver was told to stop */
static void check_unthrottle(struct tty_struct *tty, struct n_record *nr)
{
	if (nr->count < TTY_THRESHOLD_UNTHROTTLE &&
	    test_and_clear_bit(TTY_THROTTLED, &tty->flags)) {
		record_add(nr, offsetof(struct tty_record, unthrottles), 1);
		if (tty->driver.unthrottle)
			tty->driver.unthrottle(tty);
	}
}

static void n_record_flush_buffer(struct tty_struct *tty)
{
	struct n_record *nr = nr_of(tty);
	unsigned long flags;

	if (!nr)
		return;
	spin_lock_irqsave(&tty->read_lock, flags);
	nr->head = nr->tail = nr->count = 0;
	spin_unlock_irqrestore(&tty->read_lock, flags);
	check_unthrottle(tty, nr);
}

static ssize_t n_record_chars_in_buffer(struct tty_struct *tty)
{
	struct n_record *nr = nr_of(tty);

	return nr ? nr->count : 0;
}

static int n_record_receive_room(struct tty_struct *tty)
{
	struct n_record *nr = nr_of(tty);
	unsigned long flags;
	int left;

	if (!nr)
		return 0;
	left = N_TTY_BUF_SIZE - nr->count - 1;
	if (left < 0)
		left = 0;
	if (nr->rec) {
		spin_lock_irqsave(&tty_records_lock, flags);
		if ((unsigned long) left < nr->rec->room_min)
			nr->rec->room_min = left;
		spin_unlock_irqrestore(&tty_records_lock, flags);
	}
	return left;
}

/*
 * Bytes handed to the discipline of a tty whose discipline has closed:
 * release_dev() runs the tty's pending flip before it frees the tty, and
 * 2.4's n_tty, closed, dropped what came.  No reader could have them:
 * counted apart (rx_late), not as delivered.
 */
static void late_delivery(struct tty_struct *tty, int count)
{
	struct tty_record *rec = tty_record_of(tty);
	unsigned long flags;

	if (!rec)
		return;
	spin_lock_irqsave(&tty_records_lock, flags);
	rec->rx_late += count;
	spin_unlock_irqrestore(&tty_records_lock, flags);
}

/*
 * From the flip buffer: in the timer's bottom half, a work or the
 * driver's interrupt; it must not sleep.
 */
static void n_record_receive_buf(struct tty_struct *tty,
				 const unsigned char *cp, char *fp, int count)
{
	struct n_record *nr = nr_of(tty);
	struct tty_record *rec;
	unsigned long flags;
	int i;

	if (count <= 0)
		return;
	if (!nr) {
		/* closed: 2.4's n_tty dropped them too (no read_buf) */
		late_delivery(tty, count);
		return;
	}
	rec = nr->rec;
	spin_lock_irqsave(&tty->read_lock, flags);
	if (rec)
		spin_lock(&tty_records_lock);
	for (i = 0; i < count; i++) {
		if (rec) {
			char flag = fp ? fp[i] : TTY_NORMAL;

			rec->rx_bytes++;
			rec->rx_digest = tty_record_digest_rx(rec->rx_digest,
							      cp[i], flag);
			if (flag != TTY_NORMAL)
				rec->rx_flagged++;
		}
		/*
		 * The tty closes (its driver set tty->closing): 2.4's n_tty,
		 * but in raw mode, took nothing more in (an XON or XOFF
		 * alone acted).  So neither does this: what came meanwhile
		 * raced the close's flush, no reader would read it, and the
		 * room it would take depends on which came first.
		 */
		if (tty->closing)
			continue;
		if (nr->count >= N_TTY_BUF_SIZE - 1) {
			if (rec)
				rec->rx_dropped++;
			continue;
		}
		nr->buf[nr->head] = cp[i];
		nr->head = (nr->head + 1) & (N_TTY_BUF_SIZE - 1);
		nr->count++;
	}
	if (rec) {
		rec->rx_deliveries++;
		spin_unlock(&tty_records_lock);
	}
	spin_unlock_irqrestore(&tty->read_lock, flags);

	if (nr->count)
		wake_up_interruptible(&tty->read_wait);
	/* as n_tty: too little room left, the driver is told to hold on */
	if (n_record_receive_room(tty) < TTY_THRESHOLD_THROTTLE &&
	    !test_and_set_bit(TTY_THROTTLED, &tty->flags)) {
		record_add(nr, offsetof(struct tty_record, throttles), 1);
		if (tty->driver.throttle)
			tty->driver.throttle(tty);
	}
}

/*
 * From the driver's bottom half, or its work: maybe on another CPU while
 * the discipline closes.  2.4's n_tty kept nothing a close frees here, so
 * neither does this: the tty's record, not disc_data.
 */
static void n_record_write_wakeup(struct tty_struct *tty)
{
	struct tty_record *rec = tty_record_of(tty);
	unsigned long flags;

	if (!rec)
		return;
	spin_lock_irqsave(&tty_records_lock, flags);
	rec->write_wakeups++;
	spin_unlock_irqrestore(&tty_records_lock, flags);
}

/* what is buffered, up to @nr_bytes; -EAGAIN on a non-blocking empty read */
static ssize_t n_record_read(struct tty_struct *tty, struct file *file,
			     unsigned char *buf, size_t nr_bytes)
{
	DECLARE_WAITQUEUE(wait, current);
	struct n_record *nr = nr_of(tty);
	unsigned long flags;
	ssize_t done = 0;

	if (!nr)
		return -EIO;
	add_wait_queue(&tty->read_wait, &wait);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (nr->count || tty_hung_up_p(file) ||
		    test_bit(TTY_OTHER_CLOSED, &tty->flags))
			break;
		if (file->f_flags & O_NONBLOCK) {
			done = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			done = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	set_current_state(TASK_RUNNING);
	remove_wait_queue(&tty->read_wait, &wait);
	if (done)
		return done;

	while (nr_bytes && nr->count) {
		unsigned char c;

		spin_lock_irqsave(&tty->read_lock, flags);
		c = nr->buf[nr->tail];
		nr->tail = (nr->tail + 1) & (N_TTY_BUF_SIZE - 1);
		nr->count--;
		spin_unlock_irqrestore(&tty->read_lock, flags);
		if (put_user(c, buf + done))
			return done ? done : -EFAULT;
		done++;
		nr_bytes--;
	}
	record_add(nr, offsetof(struct tty_record, rx_read), done);
	check_unthrottle(tty, nr);
	return done;
}

/*
 * Hand the bytes to the driver as they are (from_user: they are the
 * caller's); wait for room unless O_NONBLOCK.
 */
static ssize_t n_record_write(struct tty_struct *tty, struct file *file,
			      const unsigned char *buf, size_t nr_bytes)
{
	DECLARE_WAITQUEUE(wait, current);
	struct n_record *nr = nr_of(tty);
	ssize_t written = 0;
	int c;

	add_wait_queue(&tty->write_wait, &wait);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(current)) {
			written = written ? written : -ERESTARTSYS;
			break;
		}
		if (tty_hung_up_p(file) || (tty->link && !tty->link->count)) {
			written = written ? written : -EIO;
			break;
		}
		c = tty->driver.write(tty, 1, buf, nr_bytes);
		if (c < 0) {
			written = written ? written : c;
			break;
		}
		record_add(nr, offsetof(struct tty_record, tx_bytes), c);
		buf += c;
		nr_bytes -= c;
		written += c;
		if (!nr_bytes)
			break;
		if (file->f_flags & O_NONBLOCK) {
			written = written ? written : -EAGAIN;
			break;
		}
		schedule();
	}
	set_current_state(TASK_RUNNING);
	remove_wait_queue(&tty->write_wait, &wait);
	return written;
}

static unsigned int n_record_poll(struct tty_struct *tty, struct file *file,
				  struct poll_table_struct *wait)
{
	unsigned int mask = 0;

	if (nr_of(tty) && nr_of(tty)->count)
		mask |= POLLIN | POLLRDNORM;
	if (tty_hung_up_p(file))
		mask |= POLLHUP;
	if (tty->driver.write_room && tty->driver.write_room(tty) > 0)
		mask |= POLLOUT | POLLWRNORM;
	return mask;
}

static int n_record_ioctl(struct tty_struct *tty, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	return n_tty_ioctl(tty, file, cmd, arg);
}

struct tty_ldisc tty_ldisc_N_TTY = {
	.magic = TTY_LDISC_MAGIC,
	.name = "n_record",
	.num = N_TTY,
	.open = n_record_open,
	.close = n_record_close,
	.flush_buffer = n_record_flush_buffer,
	.chars_in_buffer = n_record_chars_in_buffer,
	.read = n_record_read,
	.write = n_record_write,
	.ioctl = n_record_ioctl,
	.poll = n_record_poll,
	.receive_buf = n_record_receive_buf,
	.receive_room = n_record_receive_room,
	.write_wakeup = n_record_write_wakeup,
};
