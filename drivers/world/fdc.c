/*
 * fdc.c - the simulated floppy controller (see world/fdc.h).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/errno.h>
#include <linux/completion.h>
#include <linux/preempt.h>
#include <world/util.h>
#include <world/irq.h>
#include <world/fdc.h>

#define SEEK_TICKS_PER_TRACK 3
#define HEAD_SETTLE_TICKS 15
#define ROTATION_TICKS 10 /* to find the first sector */
#define MAX_BAD 8

struct sim_fdc {
	unsigned int irq;
	spinlock_t lock;
	struct timer_list timer;
	int busy;
	int motor;
	int cyl;		/* where the head is */
	struct fdc_cmd cmd;	/* the command in progress */
	unsigned char st0, pcn; /* what sense-interrupt reports */
	int sense_pending;
	unsigned char result[7];
	int result_len;
	int lose_countdown;
	int stall_armed; /* sim_fdc_stall(): the next process-context command */
	struct completion stalled, unstall;
	struct {
		unsigned long lba;
		int times;
	} bad[MAX_BAD];
	struct sim_fdc_stats st;
	unsigned char *image;
};

static struct sim_fdc *the_fdc;

static unsigned long lba_of(int cyl, int head, int sector)
{
	return ((unsigned long) cyl * FD_HEADS + head) * FD_SECTORS + sector -
	       1;
}

/* called with fdc->lock held: 1 if this sector fails now */
static int sector_fails(struct sim_fdc *fdc, unsigned long lba)
{
	int i;

	for (i = 0; i < MAX_BAD; i++) {
		if (fdc->bad[i].times && fdc->bad[i].lba == lba) {
			fdc->bad[i].times--;
			return 1;
		}
	}
	return 0;
}

/* the command's time is up: do it, then interrupt */
static void fdc_done(unsigned long data)
{
	struct sim_fdc *fdc = (struct sim_fdc *) data;
	struct fdc_cmd *c = &fdc->cmd;
	unsigned long flags;
	int raise = 1, i, done = 0;
	unsigned char st0 = 0, st1 = 0;

	spin_lock_irqsave(&fdc->lock, flags);
	fdc->busy = 0;
	switch (c->op) {
	case FD_RECALIBRATE:
		fdc->cyl = 0;
		fdc->st0 = ST0_SE;
		fdc->pcn = 0;
		fdc->sense_pending = 1;
		fdc->st.recals++;
		break;
	case FD_SEEK:
		fdc->cyl = c->cyl;
		fdc->st0 = ST0_SE;
		fdc->pcn = c->cyl;
		fdc->sense_pending = 1;
		fdc->st.seeks++;
		break;
	case FD_READ:
	case FD_WRITE:
		if (!fdc->motor || c->cyl != fdc->cyl) {
			st0 = ST0_ABNORMAL;
			st1 = ST1_ND;
		} else {
			for (i = 0; i < c->count; i++) {
				unsigned long lba =
					lba_of(c->cyl, c->head, c->sector + i);
				unsigned char *disk =
					fdc->image + lba * FD_SECTSIZE;

				if (sector_fails(fdc, lba)) {
					st0 = ST0_ABNORMAL;
					st1 = ST1_CRC;
					fdc->st.crc_errors++;
					break;
				}
				if (c->op == FD_READ) {
					memcpy(c->buf + i * FD_SECTSIZE, disk,
					       FD_SECTSIZE);
					fdc->st.sectors_read++;
				} else {
					memcpy(disk, c->buf + i * FD_SECTSIZE,
					       FD_SECTSIZE);
					fdc->st.sectors_written++;
				}
				done++;
			}
		}
		if (c->op == FD_READ)
			fdc->st.reads++;
		else
			fdc->st.writes++;
		fdc->result[0] = st0 | (c->head << 2);
		fdc->result[1] = st1;
		fdc->result[2] = 0;
		fdc->result[3] = c->cyl;
		fdc->result[4] = c->head;
		fdc->result[5] = c->sector + done;
		fdc->result[6] = 2; /* 512-byte sectors */
		fdc->result_len = 7;
		break;
	case FD_VERSION: /* a reset */
		fdc->st0 = ST0_RESET;
		fdc->pcn = fdc->cyl;
		fdc->sense_pending = 1;
		fdc->st.resets++;
		break;
	}
	if (fdc->lose_countdown && --fdc->lose_countdown == 0) {
		fdc->st.lost_interrupts++;
		raise = 0;
	}
	if (raise)
		fdc->st.interrupts++;
	spin_unlock_irqrestore(&fdc->lock, flags);

	if (raise)
		sim_raise_irq(fdc->irq);
}

static void start(struct sim_fdc *fdc, unsigned long ticks)
{
	fdc->busy = 1;
	fdc->st.commands++;
	fdc->timer.expires = jiffies + ticks;
	add_timer(&fdc->timer);
}

int sim_fdc_command(struct sim_fdc *fdc, const struct fdc_cmd *cmd)
{
	unsigned long flags, ticks;
	/* a stall needs a caller that may sleep: a bottom half, not a timer */
	int ret = 0, stall = 0, may_sleep = !in_atomic();

	spin_lock_irqsave(&fdc->lock, flags);
	if (fdc->busy) {
		ret = -EBUSY;
		goto out;
	}
	switch (cmd->op) {
	case FD_RECALIBRATE:
		ticks = SEEK_TICKS_PER_TRACK * fdc->cyl + HEAD_SETTLE_TICKS;
		break;
	case FD_SEEK:
		if (cmd->cyl < 0 || cmd->cyl >= FD_TRACKS) {
			ret = -EINVAL;
			goto out;
		}
		ticks = SEEK_TICKS_PER_TRACK * (cmd->cyl > fdc->cyl ?
							cmd->cyl - fdc->cyl :
							fdc->cyl - cmd->cyl) +
			HEAD_SETTLE_TICKS;
		break;
	case FD_READ:
	case FD_WRITE:
		if (cmd->head < 0 || cmd->head >= FD_HEADS || cmd->sector < 1 ||
		    cmd->count < 1 ||
		    cmd->sector + cmd->count - 1 > FD_SECTORS || !cmd->buf) {
			ret = -EINVAL;
			goto out;
		}
		ticks = ROTATION_TICKS + cmd->count;
		break;
	default:
		ret = -EINVAL;
		goto out;
	}
	fdc->cmd = *cmd;
	fdc->sense_pending = 0;
	if (fdc->stall_armed && may_sleep) {
		fdc->stall_armed = 0;
		fdc->busy = 1;
		fdc->st.commands++;
		stall = 1;
	} else {
		start(fdc, ticks);
	}
out:
	spin_unlock_irqrestore(&fdc->lock, flags);
	if (stall) {
		/*
		 * Done at once: the interrupt comes before the command returns,
		 * on this CPU, once the line's previous handler has finished
		 * (else that handler would run it again, wherever it is).
		 */
		synchronize_irq(fdc->irq);
		fdc_done((unsigned long) fdc);
		complete(&fdc->stalled);
		wait_for_completion(&fdc->unstall);
	}
	return ret;
}

void sim_fdc_stall(struct sim_fdc *fdc)
{
	unsigned long flags;

	init_completion(&fdc->stalled);
	init_completion(&fdc->unstall);
	spin_lock_irqsave(&fdc->lock, flags);
	fdc->stall_armed = 1;
	spin_unlock_irqrestore(&fdc->lock, flags);
}

void sim_fdc_wait_stalled(struct sim_fdc *fdc)
{
	wait_for_completion(&fdc->stalled);
}

void sim_fdc_unstall(struct sim_fdc *fdc)
{
	complete(&fdc->unstall);
}

int sim_fdc_sense(struct sim_fdc *fdc, unsigned char *st0, unsigned char *pcn)
{
	unsigned long flags;
	int ret = 2;

	spin_lock_irqsave(&fdc->lock, flags);
	if (fdc->sense_pending) {
		*st0 = fdc->st0;
		*pcn = fdc->pcn;
		fdc->sense_pending = 0;
	} else {
		*st0 = 0x80; /* invalid command: nothing to sense */
		*pcn = fdc->cyl;
		ret = 1;
	}
	spin_unlock_irqrestore(&fdc->lock, flags);
	return ret;
}

int sim_fdc_result(struct sim_fdc *fdc, unsigned char *buf, int max)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&fdc->lock, flags);
	n = min(max, fdc->result_len);
	memcpy(buf, fdc->result, n);
	fdc->result_len = 0;
	spin_unlock_irqrestore(&fdc->lock, flags);
	return n;
}

void sim_fdc_reset(struct sim_fdc *fdc)
{
	unsigned long flags;

	del_timer_sync(&fdc->timer);
	spin_lock_irqsave(&fdc->lock, flags);
	fdc->busy = 0;
	fdc->result_len = 0;
	fdc->cmd.op = FD_VERSION;
	start(fdc, 1);
	spin_unlock_irqrestore(&fdc->lock, flags);
}

int sim_fdc_version(struct sim_fdc *fdc)
{
	return fdc ? FDC_82077 : -1;
}

void sim_fdc_motor(struct sim_fdc *fdc, int on)
{
	unsigned long flags;

	spin_lock_irqsave(&fdc->lock, flags);
	fdc->motor = on;
	spin_unlock_irqrestore(&fdc->lock, flags);
}

void sim_fdc_lose_irq(struct sim_fdc *fdc, int nth)
{
	unsigned long flags;

	spin_lock_irqsave(&fdc->lock, flags);
	fdc->lose_countdown = nth;
	spin_unlock_irqrestore(&fdc->lock, flags);
}

void sim_fdc_bad_sector(struct sim_fdc *fdc, unsigned long lba, int times)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&fdc->lock, flags);
	for (i = 0; i < MAX_BAD; i++) {
		if (!fdc->bad[i].times) {
			fdc->bad[i].lba = lba;
			fdc->bad[i].times = times;
			break;
		}
	}
	spin_unlock_irqrestore(&fdc->lock, flags);
}

void sim_fdc_get_stats(struct sim_fdc *fdc, struct sim_fdc_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&fdc->lock, flags);
	*st = fdc->st;
	spin_unlock_irqrestore(&fdc->lock, flags);
}

u64 sim_fdc_image_digest(struct sim_fdc *fdc)
{
	unsigned long flags;
	u64 h;

	spin_lock_irqsave(&fdc->lock, flags);
	h = world_digest(WORLD_DIGEST_INIT, fdc->image,
			 (size_t) FD_TOTAL * FD_SECTSIZE);
	spin_unlock_irqrestore(&fdc->lock, flags);
	return h;
}

void sim_fdc_fill(struct sim_fdc *fdc, u64 seed)
{
	u64 s = world_prng_seed(seed);
	size_t i;

	for (i = 0; i < (size_t) FD_TOTAL * FD_SECTSIZE / 8; i++) {
		u64 v = world_prng_next(&s);

		memcpy(fdc->image + i * 8, &v, 8);
	}
}

void sim_fdc_peek(struct sim_fdc *fdc, unsigned long lba, unsigned char *buf)
{
	unsigned long flags;

	spin_lock_irqsave(&fdc->lock, flags);
	memcpy(buf, fdc->image + lba * FD_SECTSIZE, FD_SECTSIZE);
	spin_unlock_irqrestore(&fdc->lock, flags);
}

struct sim_fdc *sim_fdc_get(void)
{
	return the_fdc;
}

struct sim_fdc *sim_fdc_plug(unsigned int irq)
{
	struct sim_fdc *fdc;

	if (the_fdc || irq >= NR_SIM_IRQS)
		return NULL;
	fdc = kmalloc(sizeof(*fdc), GFP_KERNEL);
	if (!fdc)
		return NULL;
	memset(fdc, 0, sizeof(*fdc));
	fdc->image = kmalloc((size_t) FD_TOTAL * FD_SECTSIZE, GFP_KERNEL);
	if (!fdc->image) {
		kfree(fdc);
		return NULL;
	}
	memset(fdc->image, 0xf6,
	       (size_t) FD_TOTAL * FD_SECTSIZE); /* formatted */
	fdc->irq = irq;
	fdc->cyl = 37; /* wherever the head was left */
	spin_lock_init(&fdc->lock);
	init_timer(&fdc->timer);
	fdc->timer.function = fdc_done;
	fdc->timer.data = (unsigned long) fdc;
	the_fdc = fdc;
	return fdc;
}

void sim_fdc_unplug(struct sim_fdc *fdc)
{
	if (!fdc)
		return;
	del_timer_sync(&fdc->timer);
	if (the_fdc == fdc)
		the_fdc = NULL;
	kfree(fdc->image);
	kfree(fdc);
}
