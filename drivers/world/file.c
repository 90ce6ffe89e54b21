/*
 * file.c - simulated files with asynchronous reads and writes
 * (see world/file.h).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/interrupt.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/aio.h>
#include <world/util.h>
#include <world/file.h>

struct sim_file {
	unsigned char *data;
	size_t size;
	unsigned long latency;
	spinlock_t lock;
};

/* one asynchronous transfer in flight */
struct sim_io {
	struct timer_list timer;
	struct kiocb *iocb;
	char *buf;
	size_t count;
	loff_t pos;
	int write;
};

static struct file *fd_table[SIM_NR_FILES];
static spinlock_t fd_lock = SPIN_LOCK_UNLOCKED;
static struct sim_file_stats fstats;
static spinlock_t stats_lock = SPIN_LOCK_UNLOCKED;
/* transfers started and whose completion has not returned yet */
static atomic_t in_flight = ATOMIC_INIT(0);

/* the transfer itself; 0 or the bytes moved */
static ssize_t do_io(struct file *filp, char *buf, size_t count, loff_t pos,
		     int write)
{
	struct sim_file *sf = filp->private_data;
	unsigned long flags;

	if (pos < 0 || (size_t) pos >= sf->size)
		return 0;
	if (count > sf->size - pos)
		count = sf->size - pos;
	spin_lock_irqsave(&sf->lock, flags);
	if (write)
		memcpy(sf->data + pos, buf, count);
	else
		memcpy(buf, sf->data + pos, count);
	spin_unlock_irqrestore(&sf->lock, flags);
	return count;
}

/* timer context: the disk is done; its interrupt completes the request */
static void sim_io_done(unsigned long data)
{
	struct sim_io *io = (struct sim_io *) data;
	struct kiocb *iocb = io->iocb;
	unsigned long flags;
	ssize_t ret;

	irq_enter();
	ret = do_io(iocb->ki_filp, io->buf, io->count, io->pos, io->write);
	spin_lock_irqsave(&stats_lock, flags);
	if (io->write)
		fstats.writes++;
	else
		fstats.reads++;
	spin_unlock_irqrestore(&stats_lock, flags);
	iocb->private = NULL;
	kfree(io);
	aio_complete(iocb, ret, 0);
	atomic_dec_return(&in_flight);
	irq_exit();
}

static ssize_t sim_aio_rw(struct kiocb *iocb, char *buf, size_t count,
			  loff_t pos, int write)
{
	struct sim_file *sf = iocb->ki_filp->private_data;
	struct sim_io *io;
	unsigned long flags;
	ssize_t ret;

	if (!sf->latency) {
		ret = do_io(iocb->ki_filp, buf, count, pos, write);
		spin_lock_irqsave(&stats_lock, flags);
		if (write)
			fstats.writes++;
		else
			fstats.reads++;
		spin_unlock_irqrestore(&stats_lock, flags);
		return ret;
	}
	io = kmalloc(sizeof(*io), GFP_KERNEL);
	if (!io)
		return -ENOMEM;
	init_timer(&io->timer);
	io->timer.function = sim_io_done;
	io->timer.data = (unsigned long) io;
	io->timer.expires = jiffies + sf->latency;
	io->iocb = iocb;
	io->buf = buf;
	io->count = count;
	io->pos = pos;
	io->write = write;
	iocb->private = io;
	spin_lock_irqsave(&stats_lock, flags);
	fstats.queued++;
	spin_unlock_irqrestore(&stats_lock, flags);
	atomic_inc_return(&in_flight);
	add_timer(&io->timer);
	return -EIOCBQUEUED;
}

static ssize_t sim_aio_read(struct kiocb *iocb, char *buf, size_t count,
			    loff_t pos)
{
	return sim_aio_rw(iocb, buf, count, pos, 0);
}

static ssize_t sim_aio_write(struct kiocb *iocb, const char *buf, size_t count,
			     loff_t pos)
{
	return sim_aio_rw(iocb, (char *) buf, count, pos, 1);
}

/* the last reference is gone: a file system may sleep here */
static int sim_release(struct file *filp)
{
	struct sim_file *sf = filp->private_data;
	unsigned long flags;
	u64 h;

	might_sleep();
	h = world_digest(WORLD_DIGEST_INIT, sf->data, sf->size);
	spin_lock_irqsave(&stats_lock, flags);
	fstats.released++;
	fstats.released_digest += world_mix64(h);
	spin_unlock_irqrestore(&stats_lock, flags);
	kfree(sf->data);
	kfree(sf);
	return 0;
}

static struct file_operations sim_file_ops = {
	.release = sim_release,
	.aio_read = sim_aio_read,
	.aio_write = sim_aio_write,
};

void __fput(struct file *filp)
{
	if (filp->f_op && filp->f_op->release)
		filp->f_op->release(filp);
	kfree(filp);
}

void fput(struct file *filp)
{
	if (atomic_dec_and_test(&filp->f_count))
		__fput(filp);
}

struct file *fget(unsigned int fd)
{
	struct file *filp = NULL;

	if (fd >= SIM_NR_FILES)
		return NULL;
	spin_lock(&fd_lock);
	filp = fd_table[fd];
	if (filp)
		get_file(filp);
	spin_unlock(&fd_lock);
	return filp;
}

int sim_file_open(const char *name, size_t size, unsigned long latency,
		  u64 seed)
{
	struct file *filp;
	struct sim_file *sf;
	u64 s = world_prng_seed(seed);
	unsigned long flags;
	int fd;

	filp = kmalloc(sizeof(*filp), GFP_KERNEL);
	sf = kmalloc(sizeof(*sf), GFP_KERNEL);
	if (!filp || !sf)
		goto nomem;
	sf->data = kmalloc(size ? size : 1, GFP_KERNEL);
	if (!sf->data)
		goto nomem;
	world_prng_fill(&s, sf->data, size);
	sf->size = size;
	sf->latency = latency;
	spin_lock_init(&sf->lock);
	atomic_set(&filp->f_count, 1);
	filp->f_op = &sim_file_ops;
	filp->private_data = sf;
	snprintf(filp->f_name, sizeof(filp->f_name), "%s", name);

	spin_lock(&fd_lock);
	for (fd = 0; fd < SIM_NR_FILES; fd++)
		if (!fd_table[fd])
			break;
	if (fd < SIM_NR_FILES)
		fd_table[fd] = filp;
	spin_unlock(&fd_lock);
	if (fd == SIM_NR_FILES) {
		kfree(sf->data);
		kfree(sf);
		kfree(filp);
		return -EMFILE;
	}
	spin_lock_irqsave(&stats_lock, flags);
	fstats.opened++;
	spin_unlock_irqrestore(&stats_lock, flags);
	return fd;

nomem:
	if (sf)
		kfree(sf);
	kfree(filp);
	return -ENOMEM;
}

int sim_file_close(int fd)
{
	struct file *filp;

	if (fd < 0 || fd >= SIM_NR_FILES)
		return -EBADF;
	spin_lock(&fd_lock);
	filp = fd_table[fd];
	fd_table[fd] = NULL;
	spin_unlock(&fd_lock);
	if (!filp)
		return -EBADF;
	fput(filp);
	return 0;
}

void sim_file_get_stats(struct sim_file_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&stats_lock, flags);
	*st = fstats;
	spin_unlock_irqrestore(&stats_lock, flags);
}

/*
 * Wait until the disk is idle: every transfer started has completed and
 * its completion handler has returned (the request's last reference may be
 * dropped there, after the event its waiter saw).  The hardware's own
 * quiescence, not the driver's: process context.
 */
void sim_file_sync(void)
{
	while (atomic_add_return(0, &in_flight)) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule_timeout(1);
	}
}
