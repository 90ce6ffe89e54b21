#include <linux/tqueue.h>

/* The seed's renames, declarations and uses alike. */
struct tty_flip_buffer {
	struct tq_struct tqueue;
	int count;
};

struct tty_struct {
	struct tty_flip_buffer flip;
	struct tq_struct tq_hangup;
	struct tq_struct SAK_tq;
};

struct drm_device {
	struct tq_struct tq;
};

static void do_tty_hangup(void *data);
static void flush_to_ldisc(void *data);
static void do_mce_timer(void *data);
static void handler(void *data);

static struct tq_struct floppy_tq;

static struct tq_struct mce_task = {
	.routine = do_mce_timer
};

static void initialize_tty_struct(struct tty_struct *tty)
{
	tty->flip.tqueue.routine = flush_to_ldisc;
	tty->flip.tqueue.data = tty;
	tty->tq_hangup.routine = do_tty_hangup;
	tty->tq_hangup.data = tty;
	INIT_TQUEUE(&tty->SAK_tq, 0, 0);
}

static void kick(struct tty_struct *tty, struct drm_device *dev)
{
	schedule_task(&tty->flip.tqueue);
	schedule_task(&tty->tq_hangup);
	schedule_task(&dev->tq);
	schedule_task(&mce_task);
	floppy_tq.routine = (void *)(void *) handler;
	schedule_task(&floppy_tq);
	if (floppy_tq.sync)
		return;
}
