/*
 * n_record.c - the recording line discipline (see world/n_record.h).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/errno.h>
#include <asm/bitops.h>
#include <linux/tty.h>
#include <world/util.h>
#include <world/n_record.h>

struct n_record_line {
	spinlock_t lock;
	struct n_record_stats st;
	unsigned int head, tail, cnt;
};

/* the locks are initialised statically: open takes one first thing */
static struct n_record_line lines[NR_TTYS] = {
	[0 ... NR_TTYS - 1] = { .lock = SPIN_LOCK_UNLOCKED },
};
/*
 * The lines' buffers, zeroed data apart from them: a batch of schedules
 * copies initialised data back at every schedule, zeroed data only where
 * a schedule wrote.
 */
static unsigned char line_buf[NR_TTYS][N_RECORD_BUFSIZE];
static DECLARE_WAIT_QUEUE_HEAD(n_record_wait);

static struct n_record_line *line_of(struct tty_struct *tty)
{
	return tty->disc_data;
}

static int n_record_open(struct tty_struct *tty)
{
	struct n_record_line *l;
	unsigned long flags;

	if (tty->index < 0 || tty->index >= NR_TTYS)
		return -EINVAL;
	l = &lines[tty->index];
	spin_lock_irqsave(&l->lock, flags);
	memset(&l->st, 0, sizeof(l->st));
	l->st.digest = WORLD_DIGEST_INIT;
	l->st.opened = 1;
	l->head = l->tail = l->cnt = 0;
	spin_unlock_irqrestore(&l->lock, flags);
	tty->disc_data = l;
	return 0;
}

static void n_record_close(struct tty_struct *tty)
{
	struct n_record_line *l = line_of(tty);
	unsigned long flags;

	if (!l)
		return;
	spin_lock_irqsave(&l->lock, flags);
	l->st.opened = 0;
	spin_unlock_irqrestore(&l->lock, flags);
	tty->disc_data = NULL;
	wake_up_all(&n_record_wait);
}

static void n_record_flush_buffer(struct tty_struct *tty)
{
	struct n_record_line *l = line_of(tty);
	unsigned long flags;

	if (!l)
		return;
	spin_lock_irqsave(&l->lock, flags);
	l->st.flushed += l->cnt;
	l->head = l->tail = l->cnt = 0;
	spin_unlock_irqrestore(&l->lock, flags);
}

/* process or interrupt context: never sleeps */
static void n_record_receive_buf(struct tty_struct *tty,
				 const unsigned char *cp, char *fp, int count)
{
	struct n_record_line *l = line_of(tty);
	unsigned long flags;
	int i;

	if (!l || count <= 0)
		return;
	spin_lock_irqsave(&l->lock, flags);
	l->st.bytes += count;
	l->st.digest = world_digest(l->st.digest, cp, count);
	l->st.deliveries++;
	l->st.last_jiffies = jiffies;
	for (i = 0; i < count; i++) {
		if (fp && fp[i] != TTY_NORMAL)
			l->st.flagged++;
		if (l->cnt < N_RECORD_BUFSIZE) {
			line_buf[l - lines][l->head] = cp[i];
			l->head = (l->head + 1) % N_RECORD_BUFSIZE;
			l->cnt++;
		} else {
			l->st.overflow++;
		}
	}
	spin_unlock_irqrestore(&l->lock, flags);
	wake_up_interruptible(&tty->read_wait);
	wake_up_all(&n_record_wait);
}

static int n_record_receive_room(struct tty_struct *tty)
{
	struct n_record_line *l = line_of(tty);

	return l ? N_RECORD_BUFSIZE - l->cnt : 0;
}

struct tty_ldisc tty_ldisc_record = {
	.magic = TTY_LDISC_MAGIC,
	.name = "n_record",
	.open = n_record_open,
	.close = n_record_close,
	.flush_buffer = n_record_flush_buffer,
	.receive_buf = n_record_receive_buf,
	.receive_room = n_record_receive_room,
};

void n_record_get(int line, struct n_record_stats *st)
{
	struct n_record_line *l = &lines[line];
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	*st = l->st;
	spin_unlock_irqrestore(&l->lock, flags);
}

static u64 bytes_of(int line)
{
	struct n_record_stats st;

	n_record_get(line, &st);
	return st.bytes;
}

u64 n_record_wait_bytes(int line, u64 bytes, unsigned long timeout_ms)
{
	wait_event_timeout(n_record_wait, bytes_of(line) >= bytes,
			   (long) (timeout_ms * HZ / 1000));
	return bytes_of(line);
}

int n_record_read(struct tty_struct *tty, unsigned char *buf, int n)
{
	struct n_record_line *l = line_of(tty);
	unsigned long flags;
	int copied = 0;

	if (!l)
		return -EIO;
	set_bit(TTY_DONT_FLIP, &tty->flags);
	spin_lock_irqsave(&l->lock, flags);
	while (copied < n && l->cnt) {
		buf[copied++] = line_buf[l - lines][l->tail];
		l->tail = (l->tail + 1) % N_RECORD_BUFSIZE;
		l->cnt--;
	}
	l->st.read += copied;
	spin_unlock_irqrestore(&l->lock, flags);
	clear_bit(TTY_DONT_FLIP, &tty->flags);
	return copied;
}

void n_record_hold_flip(struct tty_struct *tty)
{
	set_bit(TTY_DONT_FLIP, &tty->flags);
}

void n_record_release_flip(struct tty_struct *tty)
{
	clear_bit(TTY_DONT_FLIP, &tty->flags);
}
