/*
 *  qbox.c  -- driver for the QBox/4 four port serial board.
 *
 *  A made-up ISA board, and a driver written as 2.4.0's serial drivers
 *  were, with the deferred work a board like it spreads over every place
 *  2.4 had for it:
 *
 *   - the transmitter: the QBox raises no transmit interrupt, so a task
 *     on tq_timer (qbox_poll) feeds every open port's FIFO at each tick
 *     and wakes the writers, queued again by itself from load to unload;
 *     module exit stops it and waits for its last run before the board's
 *     state goes;
 *   - the modem lines: the interrupt handler reads them and records what
 *     changed; the port's status task on tq_immediate (qbox_status)
 *     takes the record, keeps the lines TIOCMGET answers and counts the
 *     changes, the carrier's with a second look after the bounce;
 *   - a lost carrier: riscom8's idiom, the handler takes a module count
 *     and schedules the hangup task on keventd, giving the count back if
 *     it was queued already; the task hangs up and gives its count back;
 *   - the modem control lines: DTR and RTS are changed by a task on
 *     keventd (qbox_mctrl), which waits for the line drivers to settle;
 *     TIOCMGET answers what that task last told the board; the last
 *     close drops them (HUPCL) and waits for keventd
 *     (flush_scheduled_tasks()) before it frees the port's transmit
 *     state, the task among it;
 *   - the board's counters: every task counts what it did, under a
 *     spinlock of their own, which the ioctl reading them takes too.
 *
 *  The board: eight ports from its base (io=, default 0x2e0)
 *	base+0	DATA	received byte (read), byte to send (write), of
 *			the channel CHSEL selects
 *	base+1	CHSEL	channel, 0 to 3 (write)
 *	base+2	ISR	bits 0-3: a channel has received data,
 *			bits 4-7: a channel's modem lines changed
 *	base+3	TXFREE	room in the channel's transmit FIFO, 0 to 16
 *	base+4	MSR	modem status of the channel: DCD 1, CTS 2, DSR 4,
 *			RI 8 (read);  MCR: DTR 1, RTS 2 (write)
 *	base+5	RXCNT	bytes waiting on the channel, up to 16 (read)
 *	base+6	ID	0x51 (read);  IER: RX 1, MODEM 2 for all channels
 *			(write)
 *	base+7	SCR	scratch register: reads back
 *
 *  Written for the sandbox's tests; not a board anybody made.  The
 *  generic device (drivers/include/world/device.h) plays one: its
 *  identity byte, room to send, and in the interrupt handler every
 *  channel with four bytes received and its lines changed, then no more,
 *  the carrier coming and going:
 *
 *  SHIM_DEVICE="seed=5 0x2e6=0x51 0x2e3@task=0x08 0x2e2@irq=0xff,0x00* 0x2e5@irq=0x04 0x2e0@irq=seeded 0x2e4@irq=0x03,0x02,0x07,0x0a* 0x2e4@task=0x03"
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/tqueue.h>
#include <linux/errno.h>
#include <linux/tty.h>
#include <linux/tty_flip.h>
#include <linux/serial.h>
#include <linux/major.h>
#include <linux/ioport.h>
#include <linux/fcntl.h>
#include <linux/mm.h>
#include <linux/malloc.h>
#include <linux/delay.h>
#include <linux/init.h>

#include <asm/io.h>
#include <asm/system.h>
#include <asm/uaccess.h>

#define QBOX_NORMAL_MAJOR 242 /* local use (devices.txt) */
#define QBOX_NPORT 4
#define QBOX_IO_RANGE 8
#define QBOX_ID 0x51
#define QBOX_FIFO 16
#define QBOX_PASSES 4 /* rounds of the ISR in one interrupt */
#define QBOX_MAGIC 0x5142
#define QBOX_INFO_MAGIC 0x5149
#define QBOX_BOARD_MAGIC 0x5162
#define QBOX_BOUNCE 20 /* microseconds the carrier bounces for */
#define QBOX_SETTLE 50 /* microseconds the line drivers take */
#define WAKEUP_CHARS 256

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

#define QB_DATA 0
#define QB_CHSEL 1
#define QB_ISR 2
#define QB_TXFREE 3
#define QB_MSR 4
#define QB_MCR 4
#define QB_RXCNT 5
#define QB_ID 6
#define QB_IER 6
#define QB_SCR 7

#define QB_MSR_DCD 0x01
#define QB_MSR_CTS 0x02
#define QB_MSR_DSR 0x04
#define QB_MSR_RI 0x08
#define QB_MSR_ALL 0x0f
#define QB_MCR_DTR 0x01
#define QB_MCR_RTS 0x02
#define QB_IER_RX 0x01
#define QB_IER_MODEM 0x02

/* a private ioctl: the board's counters */
#define QBOX_GETSTATS 0x5101

static int io = 0x2e0;
static int irq = 9;

MODULE_AUTHOR("the workqueue sandbox");
MODULE_DESCRIPTION("QBox/4 serial board (made up)");
MODULE_PARM(io, "i");
MODULE_PARM_DESC(io, "the board's base port");
MODULE_PARM(irq, "i");
MODULE_PARM_DESC(irq, "its interrupt line");

/* what the board's tasks did, for QBOX_GETSTATS */
struct qbox_stats {
	unsigned long events; /* all of the below */
	unsigned long status; /* status task runs that found a change */
	unsigned long hangups;
	unsigned long mctrl; /* modem control changes told to the board */
};

struct qbox_board {
	int magic;
	spinlock_t lock; /* the registers (CHSEL selects), the ports' states */
	struct tq_struct tq_poll; /* the transmitter, on tq_timer */
	int polling;		  /* the poll task is queued or running */
	int stopping;		  /* module exit: it queues itself no more */
	unsigned long last_tick;  /* when it last fed the FIFOs */
	wait_queue_head_t poll_wait;
	spinlock_t stats_lock;
	struct qbox_stats stats;
};

/* the transmit side of an open port: from its first open to its last close */
struct qbox_info {
	int magic;
	struct qbox_port *port;
	unsigned char *xmit_buf;
	int xmit_head;
	int xmit_tail;
	int xmit_cnt;
	unsigned char mcr_want;	   /* DTR and RTS, as last asked for */
	unsigned char mcr;	   /* as the board was last told: TIOCMGET */
	struct tq_struct tq_mctrl; /* keventd: tells the board, settles */
};

struct qbox_port {
	int magic;
	int line;
	int flags;
	int count;
	int close_delay; /* hundredths of a second, as setserial says it */
	int closing_wait;
	struct tty_struct *tty;
	struct qbox_info *info;
	unsigned char msr; /* the lines the status task last took: TIOCMGET */
	unsigned char msr_new;	 /* as the interrupt last read them */
	unsigned char msr_delta; /* what changed since the status task ran */
	struct async_icount icount;
	struct tq_struct tq_status;	/* tq_immediate */
	struct tq_struct tqueue_hangup; /* keventd */
	wait_queue_head_t close_wait;
};

static struct qbox_port qbox_port[QBOX_NPORT];
static struct qbox_board *qbox_board;

static struct tty_driver qbox_driver;
static int qbox_refcount;
static struct tty_struct *qbox_table[QBOX_NPORT];
static struct termios *qbox_termios[QBOX_NPORT];
static struct termios *qbox_termios_locked[QBOX_NPORT];
static unsigned char *tmp_buf;
static DECLARE_MUTEX(tmp_buf_sem);

static inline int qbox_paranoia_check(struct qbox_port *port,
				      const char *routine)
{
	if (!port || port->magic != QBOX_MAGIC) {
		printk(KERN_WARNING "qbox: bad port %p in %s\n", port, routine);
		return 1;
	}
	return 0;
}

/* count one event of @what; any context but hard irq */
static void qbox_count(struct qbox_board *bp, unsigned long *what)
{
	unsigned long flags;

	spin_lock_irqsave(&bp->stats_lock, flags);
	(*what)++;
	bp->stats.events++;
	spin_unlock_irqrestore(&bp->stats_lock, flags);
}

/* --- the deferred work ------------------------------------------------- */

/*
 * From tq_immediate: what the interrupt recorded of the modem lines.  A
 * carrier that changed bounces for a few microseconds: look again once
 * it has settled, before taking it.
 */
static void qbox_status(void *private_)
{
	struct qbox_port *port = (struct qbox_port *) private_;
	struct qbox_board *bp = qbox_board;
	unsigned char delta;
	unsigned long flags;

	if (qbox_paranoia_check(port, "qbox_status"))
		return;
	spin_lock_irqsave(&bp->lock, flags);
	delta = port->msr_delta;
	port->msr_delta = 0;
	if (delta & QB_MSR_DCD) {
		udelay(QBOX_BOUNCE);
		outb(port->line, io + QB_CHSEL);
		port->msr_new = (port->msr_new & ~QB_MSR_DCD) |
				(inb(io + QB_MSR) & QB_MSR_DCD);
	}
	port->msr = port->msr_new;
	if (delta & QB_MSR_DCD)
		port->icount.dcd++;
	if (delta & QB_MSR_CTS)
		port->icount.cts++;
	if (delta & QB_MSR_DSR)
		port->icount.dsr++;
	if (delta & QB_MSR_RI)
		port->icount.rng++;
	spin_unlock_irqrestore(&bp->lock, flags);
	if (delta)
		qbox_count(bp, &bp->stats.status);
}

/* from keventd: the carrier went away; give back the handler's count */
static void do_qbox_hangup(void *private_)
{
	struct qbox_port *port = (struct qbox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (tty)
		tty_hangup(tty);
	qbox_count(qbox_board, &qbox_board->stats.hangups);
	MOD_DEC_USE_COUNT;
}

/*
 * From keventd: tell the board the modem control lines last asked for,
 * then wait, busily, for its line drivers to settle before the next
 * change: a wait neither an interrupt nor a holder of the global
 * interrupt lock (set_termios, the tty layer's hangup) may spend.
 * Changes asked for meanwhile are told at the next run.
 */
static void qbox_mctrl(void *private_)
{
	struct qbox_info *info = (struct qbox_info *) private_;
	struct qbox_board *bp = qbox_board;
	unsigned long flags;

	if (!info || info->magic != QBOX_INFO_MAGIC)
		return;
	spin_lock_irqsave(&bp->lock, flags);
	outb(info->port->line, io + QB_CHSEL);
	outb(info->mcr_want, io + QB_MCR);
	info->mcr = info->mcr_want;
	spin_unlock_irqrestore(&bp->lock, flags);
	udelay(QBOX_SETTLE);
	qbox_count(bp, &bp->stats.mctrl);
}

static void qbox_set_mcr(struct qbox_info *info, unsigned char mcr)
{
	struct qbox_board *bp = qbox_board;
	unsigned long flags;

	spin_lock_irqsave(&bp->lock, flags);
	info->mcr_want = mcr;
	spin_unlock_irqrestore(&bp->lock, flags);
	schedule_task(&info->tq_mctrl);
}

/* feed @port's FIFO from its buffer; the board lock held */
static void qbox_transmit(struct qbox_port *port)
{
	struct qbox_info *info = port->info;
	struct tty_struct *tty = port->tty;
	int room, sent = 0;

	if (!(port->flags & ASYNC_INITIALIZED) || !info || !tty ||
	    !info->xmit_buf || info->xmit_cnt <= 0 || tty->stopped ||
	    tty->hw_stopped)
		return;
	outb(port->line, io + QB_CHSEL);
	room = inb(io + QB_TXFREE);
	if (room > QBOX_FIFO)
		room = QBOX_FIFO;
	while (room-- > 0 && info->xmit_cnt > 0) {
		outb(info->xmit_buf[info->xmit_tail++], io + QB_DATA);
		info->xmit_tail &= SERIAL_XMIT_SIZE - 1;
		info->xmit_cnt--;
		port->icount.tx++;
		sent++;
	}
	if (sent && info->xmit_cnt < WAKEUP_CHARS) {
		if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
		    tty->ldisc.write_wakeup)
			(tty->ldisc.write_wakeup)(tty);
		wake_up_interruptible(&tty->write_wait);
	}
}

/*
 * From tq_timer, at every tick from load to unload: the transmitters.
 * Module exit sets stopping; the run that sees it says so and wakes it,
 * the board lock held until it is done with the board.
 */
static void qbox_poll(void *private_)
{
	struct qbox_board *bp = (struct qbox_board *) private_;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&bp->lock, flags);
	/*
	 * A FIFO empties at line speed: a second run in the same tick (a
	 * close's tty layer runs tq_timer at once) finds no room to fill.
	 */
	if (bp->last_tick != jiffies) {
		bp->last_tick = jiffies;
		for (i = 0; i < QBOX_NPORT; i++)
			qbox_transmit(&qbox_port[i]);
	}
	if (bp->stopping) {
		bp->polling = 0;
		wake_up(&bp->poll_wait);
		spin_unlock_irqrestore(&bp->lock, flags);
		return;
	}
	spin_unlock_irqrestore(&bp->lock, flags);
	queue_task(&bp->tq_poll, &tq_timer);
}

/* --- the interrupt ------------------------------------------------------- */

/* the channel's bytes into the flip buffer; the board lock held */
static int qbox_receive(struct qbox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count;

	outb(port->line, io + QB_CHSEL);
	count = inb(io + QB_RXCNT) & 0x1f;
	if (count > QBOX_FIFO)
		count = QBOX_FIFO;
	port->icount.rx += count;
	while (count-- > 0) {
		unsigned char ch = inb(io + QB_DATA);

		if (!tty || tty->flip.count >= TTY_FLIPBUF_SIZE) {
			port->icount.buf_overrun++;
			continue;
		}
		*tty->flip.char_buf_ptr++ = ch;
		*tty->flip.flag_buf_ptr++ = TTY_NORMAL;
		tty->flip.count++;
	}
	return tty != 0;
}

/*
 * The channel's modem lines changed: record them for the status task;
 * a carrier lost on a line that minds it goes to the hangup task.  The
 * board lock held.
 */
static void qbox_check_modem(struct qbox_port *port)
{
	struct tty_struct *tty = port->tty;
	unsigned char msr, delta;

	outb(port->line, io + QB_CHSEL);
	msr = inb(io + QB_MSR) & QB_MSR_ALL;
	delta = msr ^ port->msr_new;
	if (!delta)
		return;
	port->msr_new = msr;
	port->msr_delta |= delta;
	queue_task(&port->tq_status, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	if ((delta & QB_MSR_DCD) && !(msr & QB_MSR_DCD) && tty &&
	    !C_CLOCAL(tty)) {
		MOD_INC_USE_COUNT;
		if (schedule_task(&port->tqueue_hangup) == 0)
			MOD_DEC_USE_COUNT;
	}
}

static void qbox_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct qbox_board *bp = (struct qbox_board *) dev_id;
	unsigned char isr;
	int pass = 0, push = 0, i;

	spin_lock(&bp->lock);
	while ((isr = inb(io + QB_ISR)) && pass++ < QBOX_PASSES) {
		for (i = 0; i < QBOX_NPORT; i++) {
			struct qbox_port *port = &qbox_port[i];

			if (!(port->flags & ASYNC_INITIALIZED))
				continue;
			if ((isr & (1 << i)) && qbox_receive(port))
				push |= 1 << i;
			if (isr & (0x10 << i))
				qbox_check_modem(port);
		}
	}
	spin_unlock(&bp->lock);
	/* the line discipline may throttle us from here: without the lock */
	for (i = 0; i < QBOX_NPORT; i++)
		if ((push & (1 << i)) && qbox_port[i].tty)
			tty_flip_buffer_push(qbox_port[i].tty);
}

/* --- the board ----------------------------------------------------------- */

/* the scratch register reads back, and the identity byte is ours */
static int __init qbox_probe(void)
{
	unsigned char a, b;

	if (check_region(io, QBOX_IO_RANGE))
		return -EBUSY;
	outb(0x3c, io + QB_SCR);
	a = inb(io + QB_SCR);
	outb(0xc3, io + QB_SCR);
	b = inb(io + QB_SCR);
	if (a != 0x3c || b != 0xc3 || inb(io + QB_ID) != QBOX_ID) {
		printk(KERN_INFO "qbox: no board at 0x%03x\n", io);
		return -ENODEV;
	}
	request_region(io, QBOX_IO_RANGE, "qbox");
	printk(KERN_INFO "qbox: QBox/4 at 0x%03x, IRQ %d\n", io, irq);
	return 0;
}

/* --- ports --------------------------------------------------------------- */

static int qbox_startup(struct qbox_port *port)
{
	struct qbox_board *bp = qbox_board;
	struct qbox_info *info = port->info;
	unsigned long flags;
	unsigned long page;

	if (port->flags & ASYNC_INITIALIZED)
		return 0;
	page = get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	spin_lock_irqsave(&bp->lock, flags);
	if (info->xmit_buf)
		free_page(page);
	else
		info->xmit_buf = (unsigned char *) page;
	info->xmit_cnt = info->xmit_head = info->xmit_tail = 0;
	if (port->tty) {
		clear_bit(TTY_IO_ERROR, &port->tty->flags);
		port->tty->low_latency = (port->flags & ASYNC_LOW_LATENCY) ? 1 :
									     0;
	}
	outb(port->line, io + QB_CHSEL);
	port->msr = port->msr_new = inb(io + QB_MSR) & QB_MSR_ALL;
	port->msr_delta = 0;
	port->flags |= ASYNC_INITIALIZED;
	spin_unlock_irqrestore(&bp->lock, flags);
	qbox_set_mcr(info, QB_MCR_DTR | QB_MCR_RTS);
	return 0;
}

/*
 * The port stops: no interrupt or poll touches it from here; its lines
 * drop if the tty says so.  What that queued on keventd, the caller
 * waits for.
 */
static void qbox_shutdown(struct qbox_port *port)
{
	struct qbox_board *bp = qbox_board;
	struct qbox_info *info = port->info;
	unsigned char *buf;
	unsigned long flags;

	if (!(port->flags & ASYNC_INITIALIZED))
		return;
	spin_lock_irqsave(&bp->lock, flags);
	port->flags &= ~ASYNC_INITIALIZED;
	buf = info->xmit_buf;
	info->xmit_buf = 0;
	info->xmit_cnt = info->xmit_head = info->xmit_tail = 0;
	if (port->tty)
		set_bit(TTY_IO_ERROR, &port->tty->flags);
	spin_unlock_irqrestore(&bp->lock, flags);
	if (buf)
		free_page((unsigned long) buf);
	if (!port->tty || (port->tty->termios->c_cflag & HUPCL))
		qbox_set_mcr(info, 0);
}

/* a port's transmit state, kept by a port hung up until it opens again */
static struct qbox_info *qbox_get_info(struct qbox_port *port)
{
	struct qbox_info *info = port->info;

	if (info)
		return info;
	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return 0;
	memset(info, 0, sizeof(*info));
	info->magic = QBOX_INFO_MAGIC;
	info->port = port;
	info->tq_mctrl.routine = qbox_mctrl;
	info->tq_mctrl.data = info;
	port->info = info;
	return info;
}

/* no carrier wait: the lines are local unless told (stty -clocal) */
static int qbox_open(struct tty_struct *tty, struct file *filp)
{
	int line = MINOR(tty->device) - tty->driver.minor_start;
	struct qbox_port *port;
	unsigned long page;
	int error;

	if (line < 0 || line >= QBOX_NPORT)
		return -ENODEV;
	port = &qbox_port[line];
	if (qbox_paranoia_check(port, "qbox_open"))
		return -ENODEV;
	if (!tmp_buf) {
		page = get_free_page(GFP_KERNEL);
		if (!page)
			return -ENOMEM;
		if (tmp_buf)
			free_page(page);
		else
			tmp_buf = (unsigned char *) page;
	}
	if (!qbox_get_info(port))
		return -ENOMEM;
	MOD_INC_USE_COUNT;
	port->count++;
	tty->driver_data = port;
	port->tty = tty;
	error = qbox_startup(port);
	if (error)
		return error;
	port->flags |= ASYNC_NORMAL_ACTIVE;
	return 0;
}

static void qbox_close(struct tty_struct *tty, struct file *filp)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;
	struct qbox_board *bp = qbox_board;
	struct qbox_info *info;
	unsigned long flags;

	if (!port || qbox_paranoia_check(port, "qbox_close"))
		return;
	save_flags(flags);
	cli();
	if (tty_hung_up_p(filp)) {
		MOD_DEC_USE_COUNT;
		restore_flags(flags);
		return;
	}
	if ((tty->count == 1) && (port->count != 1)) {
		printk(KERN_WARNING "qbox%d: bad port count %d\n", port->line,
		       port->count);
		port->count = 1;
	}
	if (--port->count < 0)
		port->count = 0;
	if (port->count) {
		MOD_DEC_USE_COUNT;
		restore_flags(flags);
		return;
	}
	port->flags |= ASYNC_CLOSING;
	restore_flags(flags);
	tty->closing = 1;
	if (port->closing_wait != ASYNC_CLOSING_WAIT_NONE)
		tty_wait_until_sent(tty, port->closing_wait * HZ / 100);
	qbox_shutdown(port);
	if (tty->driver.flush_buffer)
		tty->driver.flush_buffer(tty);
	if (tty->ldisc.flush_buffer)
		tty->ldisc.flush_buffer(tty);
	tty->closing = 0;
	/* the lines' drop, and a hangup the last interrupt queued */
	flush_scheduled_tasks();
	spin_lock_irqsave(&bp->lock, flags);
	info = port->info;
	port->info = 0;
	port->tty = 0;
	spin_unlock_irqrestore(&bp->lock, flags);
	kfree(info);
	port->flags &= ~(ASYNC_NORMAL_ACTIVE | ASYNC_CLOSING);
	wake_up_interruptible(&port->close_wait);
	MOD_DEC_USE_COUNT;
}

static int qbox_write(struct tty_struct *tty, int from_user,
		      const unsigned char *buf, int count)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;
	struct qbox_board *bp = qbox_board;
	struct qbox_info *info;
	unsigned long flags;
	int c, total = 0;

	if (qbox_paranoia_check(port, "qbox_write"))
		return 0;
	info = port->info;
	if (!info || !info->xmit_buf || !tmp_buf)
		return 0;
	if (from_user)
		down(&tmp_buf_sem);
	while (count > 0) {
		c = MIN(count, SERIAL_XMIT_SIZE);
		if (from_user) {
			c -= copy_from_user(tmp_buf, buf, c);
			if (!c) {
				if (!total)
					total = -EFAULT;
				break;
			}
		}
		spin_lock_irqsave(&bp->lock, flags);
		if (!info->xmit_buf) {
			spin_unlock_irqrestore(&bp->lock, flags);
			break;
		}
		c = MIN(c, MIN(SERIAL_XMIT_SIZE - info->xmit_cnt - 1,
			       SERIAL_XMIT_SIZE - info->xmit_head));
		if (c <= 0) {
			spin_unlock_irqrestore(&bp->lock, flags);
			break;
		}
		memcpy(info->xmit_buf + info->xmit_head,
		       from_user ? tmp_buf : buf, c);
		info->xmit_head = (info->xmit_head + c) &
				  (SERIAL_XMIT_SIZE - 1);
		info->xmit_cnt += c;
		spin_unlock_irqrestore(&bp->lock, flags);
		buf += c;
		count -= c;
		total += c;
	}
	if (from_user)
		up(&tmp_buf_sem);
	return total;
}

static void qbox_put_char(struct tty_struct *tty, unsigned char ch)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;
	struct qbox_board *bp = qbox_board;
	struct qbox_info *info;
	unsigned long flags;

	if (qbox_paranoia_check(port, "qbox_put_char"))
		return;
	spin_lock_irqsave(&bp->lock, flags);
	info = port->info;
	if (info && info->xmit_buf && info->xmit_cnt < SERIAL_XMIT_SIZE - 1) {
		info->xmit_buf[info->xmit_head++] = ch;
		info->xmit_head &= SERIAL_XMIT_SIZE - 1;
		info->xmit_cnt++;
	}
	spin_unlock_irqrestore(&bp->lock, flags);
}

/* the poll sends at the next tick: nothing to start */
static void qbox_flush_chars(struct tty_struct *tty)
{
}

static int qbox_write_room(struct tty_struct *tty)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;
	int ret;

	if (qbox_paranoia_check(port, "qbox_write_room") || !port->info)
		return 0;
	ret = SERIAL_XMIT_SIZE - port->info->xmit_cnt - 1;
	return ret < 0 ? 0 : ret;
}

static int qbox_chars_in_buffer(struct tty_struct *tty)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;

	if (qbox_paranoia_check(port, "qbox_chars_in_buffer") || !port->info)
		return 0;
	return port->info->xmit_cnt;
}

static void qbox_flush_buffer(struct tty_struct *tty)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;
	struct qbox_board *bp = qbox_board;
	unsigned long flags;

	if (qbox_paranoia_check(port, "qbox_flush_buffer"))
		return;
	spin_lock_irqsave(&bp->lock, flags);
	if (port->info)
		port->info->xmit_cnt = port->info->xmit_head =
			port->info->xmit_tail = 0;
	spin_unlock_irqrestore(&bp->lock, flags);
	wake_up_interruptible(&tty->write_wait);
	if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
	    tty->ldisc.write_wakeup)
		(tty->ldisc.write_wakeup)(tty);
}

static int qbox_get_modem_info(struct qbox_port *port, unsigned int *value)
{
	struct qbox_board *bp = qbox_board;
	unsigned char mcr, msr;
	unsigned long flags;

	spin_lock_irqsave(&bp->lock, flags);
	mcr = port->info ? port->info->mcr : 0;
	msr = port->msr;
	spin_unlock_irqrestore(&bp->lock, flags);
	return put_user(((mcr & QB_MCR_DTR) ? TIOCM_DTR : 0) |
				((mcr & QB_MCR_RTS) ? TIOCM_RTS : 0) |
				((msr & QB_MSR_DCD) ? TIOCM_CAR : 0) |
				((msr & QB_MSR_CTS) ? TIOCM_CTS : 0) |
				((msr & QB_MSR_DSR) ? TIOCM_DSR : 0) |
				((msr & QB_MSR_RI) ? TIOCM_RNG : 0),
			value);
}

static int qbox_set_modem_info(struct qbox_port *port, unsigned int cmd,
			       unsigned int *value)
{
	struct qbox_info *info = port->info;
	unsigned int arg;
	unsigned char mcr, bits = 0;

	if (get_user(arg, value))
		return -EFAULT;
	if (!info)
		return -EIO;
	if (arg & TIOCM_RTS)
		bits |= QB_MCR_RTS;
	if (arg & TIOCM_DTR)
		bits |= QB_MCR_DTR;
	mcr = info->mcr_want;
	switch (cmd) {
	case TIOCMBIS:
		mcr |= bits;
		break;
	case TIOCMBIC:
		mcr &= ~bits;
		break;
	case TIOCMSET:
		mcr = bits;
		break;
	default:
		return -EINVAL;
	}
	qbox_set_mcr(info, mcr);
	return 0;
}

static int qbox_get_serial_info(struct qbox_port *port,
				struct serial_struct *retinfo)
{
	struct serial_struct tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = PORT_16550A;
	tmp.line = port->line;
	tmp.port = io;
	tmp.irq = irq;
	tmp.flags = port->flags;
	tmp.baud_base = 115200;
	tmp.close_delay = port->close_delay;
	tmp.closing_wait = port->closing_wait;
	tmp.xmit_fifo_size = QBOX_FIFO;
	if (copy_to_user(retinfo, &tmp, sizeof(*retinfo)))
		return -EFAULT;
	return 0;
}

static int qbox_set_serial_info(struct qbox_port *port,
				struct serial_struct *newinfo)
{
	struct serial_struct tmp;

	if (copy_from_user(&tmp, newinfo, sizeof(tmp)))
		return -EFAULT;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	port->flags = (port->flags & ~ASYNC_USR_MASK) |
		      (tmp.flags & ASYNC_USR_MASK);
	port->close_delay = tmp.close_delay;
	port->closing_wait = tmp.closing_wait;
	return 0;
}

static int qbox_get_stats(struct qbox_stats *to)
{
	struct qbox_board *bp = qbox_board;
	struct qbox_stats tmp;
	unsigned long flags;

	spin_lock_irqsave(&bp->stats_lock, flags);
	tmp = bp->stats;
	spin_unlock_irqrestore(&bp->stats_lock, flags);
	if (copy_to_user(to, &tmp, sizeof(tmp)))
		return -EFAULT;
	return 0;
}

static int qbox_ioctl(struct tty_struct *tty, struct file *filp,
		      unsigned int cmd, unsigned long arg)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;
	struct serial_icounter_struct icount;

	if (qbox_paranoia_check(port, "qbox_ioctl"))
		return -ENODEV;
	switch (cmd) {
	case TIOCMGET:
		return qbox_get_modem_info(port, (unsigned int *) arg);
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		return qbox_set_modem_info(port, cmd, (unsigned int *) arg);
	case TIOCGSERIAL:
		return qbox_get_serial_info(port, (struct serial_struct *) arg);
	case TIOCSSERIAL:
		return qbox_set_serial_info(port, (struct serial_struct *) arg);
	case TIOCGICOUNT:
		memset(&icount, 0, sizeof(icount));
		icount.rx = port->icount.rx;
		icount.tx = port->icount.tx;
		icount.dcd = port->icount.dcd;
		icount.cts = port->icount.cts;
		icount.dsr = port->icount.dsr;
		icount.rng = port->icount.rng;
		icount.buf_overrun = port->icount.buf_overrun;
		if (copy_to_user((void *) arg, &icount, sizeof(icount)))
			return -EFAULT;
		return 0;
	case QBOX_GETSTATS:
		return qbox_get_stats((struct qbox_stats *) arg);
	default:
		return -ENOIOCTLCMD;
	}
}

/* RTS at once: the line discipline throttles from its receive path */
static void qbox_rts(struct qbox_port *port, int on)
{
	struct qbox_board *bp = qbox_board;
	struct qbox_info *info = port->info;
	unsigned long flags;

	if (!info)
		return;
	spin_lock_irqsave(&bp->lock, flags);
	if (on)
		info->mcr_want |= QB_MCR_RTS;
	else
		info->mcr_want &= ~QB_MCR_RTS;
	info->mcr = (info->mcr & ~QB_MCR_RTS) | (info->mcr_want & QB_MCR_RTS);
	outb(port->line, io + QB_CHSEL);
	outb(info->mcr, io + QB_MCR);
	spin_unlock_irqrestore(&bp->lock, flags);
}

static void qbox_throttle(struct tty_struct *tty)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;

	if (!qbox_paranoia_check(port, "qbox_throttle"))
		qbox_rts(port, 0);
}

static void qbox_unthrottle(struct tty_struct *tty)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;

	if (!qbox_paranoia_check(port, "qbox_unthrottle"))
		qbox_rts(port, 1);
}

/* the poll looks at tty->stopped itself */
static void qbox_stop(struct tty_struct *tty)
{
}

static void qbox_start(struct tty_struct *tty)
{
}

/* from keventd (the tty layer's hangup): the port stops where it is */
static void qbox_hangup(struct tty_struct *tty)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;

	if (qbox_paranoia_check(port, "qbox_hangup"))
		return;
	qbox_shutdown(port);
	port->count = 0;
	port->flags &= ~ASYNC_NORMAL_ACTIVE;
	port->tty = 0;
}

static void qbox_set_termios(struct tty_struct *tty, struct termios *old)
{
	struct qbox_port *port = (struct qbox_port *) tty->driver_data;
	struct qbox_info *info = port->info;

	if (tty->termios->c_cflag == old->c_cflag || !info)
		return;
	if (tty_get_baud_rate(tty))
		qbox_set_mcr(info, info->mcr_want | QB_MCR_DTR);
	else
		qbox_set_mcr(info, info->mcr_want & ~QB_MCR_DTR);
	if ((old->c_cflag & CRTSCTS) && !(tty->termios->c_cflag & CRTSCTS))
		tty->hw_stopped = 0;
}

/* --- the module ---------------------------------------------------------- */

static int __init qbox_init_driver(void)
{
	int i;

	memset(&qbox_driver, 0, sizeof(qbox_driver));
	qbox_driver.magic = TTY_DRIVER_MAGIC;
	qbox_driver.driver_name = "qbox";
	qbox_driver.name = "ttyQ";
	qbox_driver.major = QBOX_NORMAL_MAJOR;
	qbox_driver.num = QBOX_NPORT;
	qbox_driver.type = TTY_DRIVER_TYPE_SERIAL;
	qbox_driver.subtype = SERIAL_TYPE_NORMAL;
	qbox_driver.init_termios = tty_std_termios;
	qbox_driver.init_termios.c_cflag = B9600 | CS8 | CREAD | HUPCL | CLOCAL;
	qbox_driver.flags = TTY_DRIVER_REAL_RAW;
	qbox_driver.refcount = &qbox_refcount;
	qbox_driver.table = qbox_table;
	qbox_driver.termios = qbox_termios;
	qbox_driver.termios_locked = qbox_termios_locked;

	qbox_driver.open = qbox_open;
	qbox_driver.close = qbox_close;
	qbox_driver.write = qbox_write;
	qbox_driver.put_char = qbox_put_char;
	qbox_driver.flush_chars = qbox_flush_chars;
	qbox_driver.write_room = qbox_write_room;
	qbox_driver.chars_in_buffer = qbox_chars_in_buffer;
	qbox_driver.flush_buffer = qbox_flush_buffer;
	qbox_driver.ioctl = qbox_ioctl;
	qbox_driver.throttle = qbox_throttle;
	qbox_driver.unthrottle = qbox_unthrottle;
	qbox_driver.set_termios = qbox_set_termios;
	qbox_driver.stop = qbox_stop;
	qbox_driver.start = qbox_start;
	qbox_driver.hangup = qbox_hangup;

	for (i = 0; i < QBOX_NPORT; i++) {
		struct qbox_port *port = &qbox_port[i];

		memset(port, 0, sizeof(*port));
		port->magic = QBOX_MAGIC;
		port->line = i;
		/*
		 * Sixteen bytes of FIFO, and no transmit interrupt to share
		 * the line with: the received bytes go up at once
		 * (setserial ^low_latency for a tick later).
		 */
		port->flags = ASYNC_LOW_LATENCY;
		port->close_delay = 5;
		port->closing_wait = 300;
		port->tq_status.routine = qbox_status;
		port->tq_status.data = port;
		port->tqueue_hangup.routine = do_qbox_hangup;
		port->tqueue_hangup.data = port;
		init_waitqueue_head(&port->close_wait);
	}
	if (tty_register_driver(&qbox_driver)) {
		printk(KERN_ERR "qbox: couldn't register the tty driver\n");
		return -EIO;
	}
	return 0;
}

static int __init qbox_init(void)
{
	struct qbox_board *bp;
	int error;

	printk(KERN_INFO "qbox: QBox/4 driver, the sandbox's own\n");
	error = qbox_probe();
	if (error)
		return error;
	bp = kmalloc(sizeof(*bp), GFP_KERNEL);
	if (!bp) {
		error = -ENOMEM;
		goto out_region;
	}
	memset(bp, 0, sizeof(*bp));
	bp->magic = QBOX_BOARD_MAGIC;
	spin_lock_init(&bp->lock);
	spin_lock_init(&bp->stats_lock);
	init_waitqueue_head(&bp->poll_wait);
	bp->tq_poll.routine = qbox_poll;
	bp->tq_poll.data = bp;
	qbox_board = bp;
	error = qbox_init_driver();
	if (error)
		goto out_board;
	error = request_irq(irq, qbox_interrupt, SA_INTERRUPT, "qbox", bp);
	if (error) {
		printk(KERN_ERR "qbox: IRQ %d busy\n", irq);
		tty_unregister_driver(&qbox_driver);
		goto out_board;
	}
	outb(QB_IER_RX | QB_IER_MODEM, io + QB_IER);
	bp->polling = 1;
	queue_task(&bp->tq_poll, &tq_timer);
	return 0;

out_board:
	qbox_board = 0;
	kfree(bp);
out_region:
	release_region(io, QBOX_IO_RANGE);
	return error;
}

static void __exit qbox_exit(void)
{
	struct qbox_board *bp = qbox_board;
	unsigned long flags;
	int i;

	outb(0, io + QB_IER);
	free_irq(irq, bp);
	if (tty_unregister_driver(&qbox_driver))
		printk(KERN_ERR "qbox: couldn't unregister the tty driver\n");
	/* the poll's last run sees stopping; then it is off the board */
	spin_lock_irqsave(&bp->lock, flags);
	bp->stopping = 1;
	spin_unlock_irqrestore(&bp->lock, flags);
	wait_event(bp->poll_wait, !bp->polling);
	spin_lock_irqsave(&bp->lock, flags);
	spin_unlock_irqrestore(&bp->lock, flags);
	/* the hangups and line changes the last interrupts and closes queued */
	flush_scheduled_tasks();
	for (i = 0; i < QBOX_NPORT; i++) {
		kfree(qbox_port[i].info);
		qbox_port[i].info = 0;
	}
	qbox_board = 0;
	kfree(bp);
	if (tmp_buf) {
		free_page((unsigned long) tmp_buf);
		tmp_buf = 0;
	}
	release_region(io, QBOX_IO_RANGE);
}

module_init(qbox_init);
module_exit(qbox_exit);
