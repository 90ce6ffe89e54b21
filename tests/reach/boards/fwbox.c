/*
 *  fwbox.c  -- driver for the FWBox/4 four port serial board, which runs
 *  firmware of its own.
 *
 *  A made-up ISA board, its driver written as 2.4.0's drivers of boards
 *  with firmware were (isicom, moxa): the module loads and registers
 *  its tty driver and a control device (a misc minor, "fwboxctl"), and
 *  its ports do nothing until a loader program has downloaded the
 *  firmware through that device and started it:
 *
 *	FWBOX_LOAD	a block of firmware (struct fwbox_block: the board,
 *			a magic number, a length, the bytes), written to the
 *			board, which checks its sum and says it took it
 *	FWBOX_START	the board starts what it was given and says so
 *
 *  Until then an open is refused (-ENODEV) and the interrupt handler
 *  acknowledges the board and does nothing.  Otherwise as zbox.c: a task
 *  queue of the driver's own run by its bottom half, a tq_struct per
 *  port for the write wakeup, a hangup task on keventd.
 *
 *  The board: sixteen ports from its base (io=, default 0x2a0)
 *	base+0 to base+7	as the ZBox's (examples/tty24/zbox.c)
 *	base+8	FWDATA	a byte of the firmware (write)
 *	base+9	FWSUM	the block's sum, low byte (write); 0x6b: it took
 *			the block (read)
 *	base+10	FWRUN	0x01: start (write); 0xc3: running (read)
 *
 *  Written for the sandbox's tests (tests/reach/run); not a board
 *  anybody made.  Nothing in the sandbox knows it: the device search
 *  finds the commands its control device looks for, and the block it
 *  takes, from its own comparisons (world/user.h).
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
#include <linux/miscdevice.h>
#include <linux/ioctl.h>

#include <asm/io.h>
#include <asm/system.h>
#include <asm/uaccess.h>

#define FWBOX_NORMAL_MAJOR 241 /* local use (devices.txt) */
#define FWBOX_NPORT 4
#define FWBOX_IO_RANGE 16
#define FWBOX_ID 0x3f
#define FWBOX_FIFO 8
#define FWBOX_MAGIC 0x5a42
#define FWBOX_BH 21 /* a bottom half no in-tree driver uses */
#define WAKEUP_CHARS 256

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

#define FB_DATA 0
#define FB_CHSEL 1
#define FB_ISR 2
#define FB_MSR 3
#define FB_MCR 3
#define FB_IER 4
#define FB_RXCNT 5
#define FB_ID 6
#define FB_SCR 7
#define FB_FWDATA 8
#define FB_FWSUM 9
#define FB_FWRUN 10

#define FB_FW_TAKEN 0x6b
#define FB_FW_START 0x01
#define FB_FW_RUNNING 0xc3

#define FB_MSR_DCD 0x01
#define FB_MSR_CTS 0x02
#define FB_MSR_DSR 0x04
#define FB_MSR_RI 0x08
#define FB_MSR_DELTA 0x80
#define FB_MCR_DTR 0x01
#define FB_MCR_RTS 0x02
#define FB_IER_RX 0x01
#define FB_IER_TX 0x02
#define FB_IER_MODEM 0x04
#define FB_IER_TEST 0x08

#define FB_EVENT_WRITE_WAKEUP 0

/* the control device's commands, as a loader program includes them */
#define FWBOX_MAGIC 0x4657 /* "FW" */
#define FWBOX_CHUNK 64

struct fwbox_block {
	int board; /* 0: there is one */
	unsigned short magic;
	unsigned short len; /* bytes of data */
	unsigned char data[FWBOX_CHUNK];
};

#define FWBOX_LOAD _IOW('f', 1, struct fwbox_block)
#define FWBOX_START _IO('f', 2)

static int io = 0x2a0;
static int irq; /* 0: probe for it */

MODULE_AUTHOR("the workqueue sandbox");
MODULE_DESCRIPTION("FWBox/4 serial board (made up)");
MODULE_PARM(io, "i");
MODULE_PARM_DESC(io, "the board's base port");
MODULE_PARM(irq, "i");
MODULE_PARM_DESC(irq, "its interrupt line; 0: probe for it");

struct fwbox_port {
	int magic;
	int line;
	int flags;
	int count;
	int blocked_open;
	int close_delay;
	unsigned short closing_wait;
	unsigned char mcr;
	unsigned char msr;
	unsigned long event;
	struct tty_struct *tty;
	unsigned char *xmit_buf;
	int xmit_head;
	int xmit_tail;
	int xmit_cnt;
	struct async_icount icount;
	struct tq_struct tqueue;
	struct tq_struct tqueue_hangup;
	wait_queue_head_t open_wait;
	wait_queue_head_t close_wait;
};

static struct fwbox_port fwbox_port[FWBOX_NPORT];
static int fwbox_irq;
static int fwbox_ier;
static int fwbox_loaded;  /* a block of firmware taken */
static int fwbox_running; /* the firmware started */

static DECLARE_TASK_QUEUE(tq_fwbox);

static struct tty_driver fwbox_driver;
static int fwbox_refcount;
static struct tty_struct *fwbox_table[FWBOX_NPORT];
static struct termios *fwbox_termios[FWBOX_NPORT];
static struct termios *fwbox_termios_locked[FWBOX_NPORT];
static unsigned char *tmp_buf;
static DECLARE_MUTEX(tmp_buf_sem);

static inline int fwbox_paranoia_check(struct fwbox_port *port, kdev_t device,
				       const char *routine)
{
	if (!port) {
		printk(KERN_WARNING "fwbox: null port for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	if (port->magic != FWBOX_MAGIC) {
		printk(KERN_WARNING "fwbox: bad magic for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	return 0;
}

static inline void fwbox_select(struct fwbox_port *port)
{
	outb(port->line, io + FB_CHSEL);
}

/*
 * The bottom half: run what the interrupt handler queued.
 */
static void do_fwbox_bh(void)
{
	run_task_queue(&tq_fwbox);
}

static inline void fwbox_sched_event(struct fwbox_port *port, int event)
{
	set_bit(event, &port->event);
	queue_task(&port->tqueue, &tq_fwbox);
	mark_bh(FWBOX_BH);
}

/* from the bottom half: writers may go on */
static void do_softint(void *private_)
{
	struct fwbox_port *port = (struct fwbox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (!tty)
		return;
	if (test_and_clear_bit(FB_EVENT_WRITE_WAKEUP, &port->event)) {
		if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
		    tty->ldisc.write_wakeup)
			(tty->ldisc.write_wakeup)(tty);
		wake_up_interruptible(&tty->write_wait);
	}
}

/* from keventd: the carrier went away */
static void do_fwbox_hangup(void *private_)
{
	struct fwbox_port *port = (struct fwbox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (tty)
		tty_hangup(tty);
}

static void fwbox_receive(struct fwbox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count;

	fwbox_select(port);
	count = inb(io + FB_RXCNT) & 0x1f;
	if (count > 16)
		count = 16;
	if (!tty) {
		while (count--)
			inb(io + FB_DATA);
		return;
	}
	port->icount.rx += count;
	while (count--) {
		if (tty->flip.count >= TTY_FLIPBUF_SIZE) {
			printk(KERN_WARNING "fwbox%d: flip buffer overflow\n",
			       port->line);
			inb(io + FB_DATA);
			continue;
		}
		*tty->flip.char_buf_ptr++ = inb(io + FB_DATA);
		*tty->flip.flag_buf_ptr++ = TTY_NORMAL;
		tty->flip.count++;
	}
	tty_flip_buffer_push(tty);
}

static void fwbox_transmit(struct fwbox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count = FWBOX_FIFO;

	if (!tty || !port->xmit_buf)
		return;
	fwbox_select(port);
	while (port->xmit_cnt > 0 && count-- > 0 && !tty->stopped &&
	       !tty->hw_stopped) {
		outb(port->xmit_buf[port->xmit_tail++], io + FB_DATA);
		port->xmit_tail &= SERIAL_XMIT_SIZE - 1;
		port->xmit_cnt--;
		port->icount.tx++;
	}
	if (port->xmit_cnt < WAKEUP_CHARS)
		fwbox_sched_event(port, FB_EVENT_WRITE_WAKEUP);
}

static void fwbox_modem(struct fwbox_port *port)
{
	unsigned char msr;

	fwbox_select(port);
	msr = inb(io + FB_MSR);
	if (!(msr & FB_MSR_DELTA))
		return;
	if ((msr ^ port->msr) & FB_MSR_DCD) {
		port->icount.dcd++;
		if (msr & FB_MSR_DCD)
			wake_up_interruptible(&port->open_wait);
		else if (port->tty && !C_CLOCAL(port->tty))
			schedule_task(&port->tqueue_hangup);
	}
	if ((msr ^ port->msr) & FB_MSR_CTS)
		port->icount.cts++;
	port->msr = msr & ~FB_MSR_DELTA;
}

static void fwbox_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	unsigned char isr;
	int loops = 0, i;

	/* no firmware: the board's interrupt means nothing yet */
	if (!fwbox_running) {
		inb(io + FB_ISR);
		return;
	}
	while ((isr = inb(io + FB_ISR)) && loops++ < 8) {
		for (i = 0; i < FWBOX_NPORT; i++) {
			struct fwbox_port *port = &fwbox_port[i];

			if (!(port->flags & ASYNC_INITIALIZED))
				continue;
			if (isr & (1 << i))
				fwbox_receive(port);
			if (isr & (0x10 << i))
				fwbox_transmit(port);
			fwbox_modem(port);
		}
	}
}

/* --- the board ----------------------------------------------------------- */

/* the scratch register reads back, and the identity byte is ours */
static int __init fwbox_probe(void)
{
	unsigned char a, b;
	unsigned long irqs;

	if (check_region(io, FWBOX_IO_RANGE))
		return -EBUSY;
	outb(0x5a, io + FB_SCR);
	a = inb(io + FB_SCR);
	outb(0xa5, io + FB_SCR);
	b = inb(io + FB_SCR);
	if (a != 0x5a || b != 0xa5 || inb(io + FB_ID) != FWBOX_ID) {
		printk(KERN_INFO "fwbox: no board at 0x%03x\n", io);
		return -ENODEV;
	}
	fwbox_irq = irq;
	if (!fwbox_irq) {
		/* let the board interrupt once, and see where */
		irqs = probe_irq_on();
		outb(FB_IER_TEST, io + FB_IER);
		udelay(100);
		fwbox_irq = probe_irq_off(irqs);
		outb(0, io + FB_IER);
		if (fwbox_irq <= 0) {
			printk(KERN_INFO "fwbox: board at 0x%03x, no IRQ "
					 "found\n",
			       io);
			return -ENODEV;
		}
	}
	request_region(io, FWBOX_IO_RANGE, "fwbox");
	printk(KERN_INFO "fwbox: FWBox/4 at 0x%03x, IRQ %d\n", io, fwbox_irq);
	return 0;
}

/* --- ports --------------------------------------------------------------- */

static void fwbox_set_mcr(struct fwbox_port *port)
{
	fwbox_select(port);
	outb(port->mcr, io + FB_MCR);
}

static int fwbox_startup(struct fwbox_port *port)
{
	unsigned long flags;
	unsigned long page;

	if (port->flags & ASYNC_INITIALIZED)
		return 0;
	if (!port->xmit_buf) {
		page = get_free_page(GFP_KERNEL);
		if (!page)
			return -ENOMEM;
		if (port->xmit_buf)
			free_page(page);
		else
			port->xmit_buf = (unsigned char *) page;
	}
	save_flags(flags);
	cli();
	if (port->tty)
		clear_bit(TTY_IO_ERROR, &port->tty->flags);
	port->xmit_cnt = port->xmit_head = port->xmit_tail = 0;
	port->mcr = FB_MCR_DTR | FB_MCR_RTS;
	fwbox_set_mcr(port);
	fwbox_select(port);
	port->msr = inb(io + FB_MSR) & ~FB_MSR_DELTA;
	port->flags |= ASYNC_INITIALIZED;
	restore_flags(flags);
	return 0;
}

static void fwbox_shutdown(struct fwbox_port *port)
{
	unsigned long flags;

	if (!(port->flags & ASYNC_INITIALIZED))
		return;
	save_flags(flags);
	cli();
	if (!port->tty || (port->tty->termios->c_cflag & HUPCL)) {
		port->mcr &= ~(FB_MCR_DTR | FB_MCR_RTS);
		fwbox_set_mcr(port);
	}
	if (port->xmit_buf) {
		free_page((unsigned long) port->xmit_buf);
		port->xmit_buf = 0;
	}
	if (port->tty)
		set_bit(TTY_IO_ERROR, &port->tty->flags);
	port->flags &= ~ASYNC_INITIALIZED;
	restore_flags(flags);
}

static int block_til_ready(struct tty_struct *tty, struct file *filp,
			   struct fwbox_port *port)
{
	DECLARE_WAITQUEUE(wait, current);
	unsigned long flags;
	int retval = 0;

	if ((filp->f_flags & O_NONBLOCK) ||
	    (tty->flags & (1 << TTY_IO_ERROR))) {
		port->flags |= ASYNC_NORMAL_ACTIVE;
		return 0;
	}
	add_wait_queue(&port->open_wait, &wait);
	save_flags(flags);
	cli();
	if (!tty_hung_up_p(filp))
		port->count--;
	restore_flags(flags);
	port->blocked_open++;
	while (1) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (tty_hung_up_p(filp) || !(port->flags & ASYNC_INITIALIZED)) {
			retval = -EAGAIN;
			break;
		}
		if (!(port->flags & ASYNC_CLOSING) &&
		    (C_CLOCAL(tty) || (port->msr & FB_MSR_DCD)))
			break;
		if (signal_pending(current)) {
			retval = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	current->state = TASK_RUNNING;
	remove_wait_queue(&port->open_wait, &wait);
	if (!tty_hung_up_p(filp))
		port->count++;
	port->blocked_open--;
	if (retval)
		return retval;
	port->flags |= ASYNC_NORMAL_ACTIVE;
	return 0;
}

static int fwbox_open(struct tty_struct *tty, struct file *filp)
{
	int line = MINOR(tty->device) - tty->driver.minor_start;
	struct fwbox_port *port;
	unsigned long page;
	int error;

	if (line < 0 || line >= FWBOX_NPORT || !fwbox_running)
		return -ENODEV;
	port = &fwbox_port[line];
	if (fwbox_paranoia_check(port, tty->device, "fwbox_open"))
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
	MOD_INC_USE_COUNT;
	port->count++;
	tty->driver_data = port;
	port->tty = tty;
	error = fwbox_startup(port);
	if (error)
		return error;
	error = block_til_ready(tty, filp, port);
	if (error)
		return error;
	return 0;
}

static void fwbox_close(struct tty_struct *tty, struct file *filp)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;
	unsigned long flags;

	if (!port || fwbox_paranoia_check(port, tty->device, "fwbox_close"))
		return;
	save_flags(flags);
	cli();
	if (tty_hung_up_p(filp)) {
		MOD_DEC_USE_COUNT;
		restore_flags(flags);
		return;
	}
	if ((tty->count == 1) && (port->count != 1)) {
		printk(KERN_WARNING "fwbox%d: bad port count %d\n", port->line,
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
	tty->closing = 1;
	if (port->closing_wait != ASYNC_CLOSING_WAIT_NONE)
		tty_wait_until_sent(tty, port->closing_wait);
	fwbox_shutdown(port);
	if (tty->driver.flush_buffer)
		tty->driver.flush_buffer(tty);
	if (tty->ldisc.flush_buffer)
		tty->ldisc.flush_buffer(tty);
	tty->closing = 0;
	port->event = 0;
	port->tty = 0;
	if (port->blocked_open) {
		if (port->close_delay) {
			current->state = TASK_INTERRUPTIBLE;
			schedule_timeout(port->close_delay);
		}
		wake_up_interruptible(&port->open_wait);
	}
	port->flags &= ~(ASYNC_NORMAL_ACTIVE | ASYNC_CLOSING);
	wake_up_interruptible(&port->close_wait);
	MOD_DEC_USE_COUNT;
	restore_flags(flags);
}

static int fwbox_write(struct tty_struct *tty, int from_user,
		       const unsigned char *buf, int count)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;
	unsigned long flags;
	int c, total = 0;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_write"))
		return 0;
	if (!tty || !port->xmit_buf || !tmp_buf)
		return 0;

	if (from_user)
		down(&tmp_buf_sem);
	save_flags(flags);
	while (1) {
		cli();
		c = MIN(count, MIN(SERIAL_XMIT_SIZE - port->xmit_cnt - 1,
				   SERIAL_XMIT_SIZE - port->xmit_head));
		if (c <= 0)
			break;
		if (from_user) {
			/* may sleep: cli()'s lock lets go, as in 2.4 */
			c -= copy_from_user(tmp_buf, buf, c);
			if (!c) {
				if (!total)
					total = -EFAULT;
				break;
			}
			cli();
			c = MIN(c, MIN(SERIAL_XMIT_SIZE - port->xmit_cnt - 1,
				       SERIAL_XMIT_SIZE - port->xmit_head));
			memcpy(port->xmit_buf + port->xmit_head, tmp_buf, c);
		} else {
			memcpy(port->xmit_buf + port->xmit_head, buf, c);
		}
		port->xmit_head = (port->xmit_head + c) &
				  (SERIAL_XMIT_SIZE - 1);
		port->xmit_cnt += c;
		restore_flags(flags);
		buf += c;
		count -= c;
		total += c;
	}
	if (from_user)
		up(&tmp_buf_sem);
	if (port->xmit_cnt && !tty->stopped && !tty->hw_stopped)
		outb(fwbox_ier | FB_IER_TX, io + FB_IER);
	restore_flags(flags);
	return total;
}

static void fwbox_put_char(struct tty_struct *tty, unsigned char ch)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;
	unsigned long flags;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_put_char"))
		return;
	if (!tty || !port->xmit_buf)
		return;
	save_flags(flags);
	cli();
	if (port->xmit_cnt < SERIAL_XMIT_SIZE - 1) {
		port->xmit_buf[port->xmit_head++] = ch;
		port->xmit_head &= SERIAL_XMIT_SIZE - 1;
		port->xmit_cnt++;
	}
	restore_flags(flags);
}

static void fwbox_flush_chars(struct tty_struct *tty)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_flush_chars"))
		return;
	if (port->xmit_cnt <= 0 || tty->stopped || tty->hw_stopped ||
	    !port->xmit_buf)
		return;
	outb(fwbox_ier | FB_IER_TX, io + FB_IER);
}

static int fwbox_write_room(struct tty_struct *tty)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;
	int ret;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_write_room"))
		return 0;
	ret = SERIAL_XMIT_SIZE - port->xmit_cnt - 1;
	return ret < 0 ? 0 : ret;
}

static int fwbox_chars_in_buffer(struct tty_struct *tty)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_chars_in_buffer"))
		return 0;
	return port->xmit_cnt;
}

static void fwbox_flush_buffer(struct tty_struct *tty)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;
	unsigned long flags;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_flush_buffer"))
		return;
	save_flags(flags);
	cli();
	port->xmit_cnt = port->xmit_head = port->xmit_tail = 0;
	restore_flags(flags);
	wake_up_interruptible(&tty->write_wait);
	if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
	    tty->ldisc.write_wakeup)
		(tty->ldisc.write_wakeup)(tty);
}

static int fwbox_get_modem_info(struct fwbox_port *port, unsigned int *value)
{
	unsigned char msr;
	unsigned int result;
	unsigned long flags;

	save_flags(flags);
	cli();
	fwbox_select(port);
	msr = inb(io + FB_MSR);
	restore_flags(flags);
	result = ((port->mcr & FB_MCR_DTR) ? TIOCM_DTR : 0) |
		 ((port->mcr & FB_MCR_RTS) ? TIOCM_RTS : 0) |
		 ((msr & FB_MSR_DCD) ? TIOCM_CAR : 0) |
		 ((msr & FB_MSR_CTS) ? TIOCM_CTS : 0) |
		 ((msr & FB_MSR_DSR) ? TIOCM_DSR : 0) |
		 ((msr & FB_MSR_RI) ? TIOCM_RNG : 0);
	return put_user(result, value);
}

static int fwbox_set_modem_info(struct fwbox_port *port, unsigned int cmd,
				unsigned int *value)
{
	unsigned int arg;
	unsigned long flags;

	if (get_user(arg, value))
		return -EFAULT;
	save_flags(flags);
	cli();
	switch (cmd) {
	case TIOCMBIS:
		if (arg & TIOCM_RTS)
			port->mcr |= FB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr |= FB_MCR_DTR;
		break;
	case TIOCMBIC:
		if (arg & TIOCM_RTS)
			port->mcr &= ~FB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr &= ~FB_MCR_DTR;
		break;
	case TIOCMSET:
		port->mcr = ((arg & TIOCM_RTS) ? FB_MCR_RTS : 0) |
			    ((arg & TIOCM_DTR) ? FB_MCR_DTR : 0);
		break;
	default:
		restore_flags(flags);
		return -EINVAL;
	}
	fwbox_set_mcr(port);
	restore_flags(flags);
	return 0;
}

static int fwbox_get_serial_info(struct fwbox_port *port,
				 struct serial_struct *retinfo)
{
	struct serial_struct tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = PORT_16550A;
	tmp.line = port->line;
	tmp.port = io;
	tmp.irq = fwbox_irq;
	tmp.flags = port->flags;
	tmp.baud_base = 115200;
	tmp.close_delay = port->close_delay * HZ / 100;
	tmp.closing_wait = port->closing_wait * HZ / 100;
	tmp.xmit_fifo_size = FWBOX_FIFO;
	if (copy_to_user(retinfo, &tmp, sizeof(*retinfo)))
		return -EFAULT;
	return 0;
}

static int fwbox_set_serial_info(struct fwbox_port *port,
				 struct serial_struct *newinfo)
{
	struct serial_struct tmp;

	if (copy_from_user(&tmp, newinfo, sizeof(tmp)))
		return -EFAULT;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	port->flags = (port->flags & ~ASYNC_USR_MASK) |
		      (tmp.flags & ASYNC_USR_MASK);
	port->close_delay = tmp.close_delay * HZ / 100;
	port->closing_wait = tmp.closing_wait * HZ / 100;
	return 0;
}

static int fwbox_ioctl(struct tty_struct *tty, struct file *filp,
		       unsigned int cmd, unsigned long arg)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;
	struct serial_icounter_struct icount;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_ioctl"))
		return -ENODEV;
	switch (cmd) {
	case TIOCMGET:
		return fwbox_get_modem_info(port, (unsigned int *) arg);
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		return fwbox_set_modem_info(port, cmd, (unsigned int *) arg);
	case TIOCGSERIAL:
		return fwbox_get_serial_info(port,
					     (struct serial_struct *) arg);
	case TIOCSSERIAL:
		return fwbox_set_serial_info(port,
					     (struct serial_struct *) arg);
	case TIOCGICOUNT:
		memset(&icount, 0, sizeof(icount));
		icount.rx = port->icount.rx;
		icount.tx = port->icount.tx;
		icount.dcd = port->icount.dcd;
		icount.cts = port->icount.cts;
		if (copy_to_user((void *) arg, &icount, sizeof(icount)))
			return -EFAULT;
		return 0;
	default:
		return -ENOIOCTLCMD;
	}
}

static void fwbox_throttle(struct tty_struct *tty)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;
	unsigned long flags;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_throttle"))
		return;
	save_flags(flags);
	cli();
	port->mcr &= ~FB_MCR_RTS;
	fwbox_set_mcr(port);
	restore_flags(flags);
}

static void fwbox_unthrottle(struct tty_struct *tty)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;
	unsigned long flags;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_unthrottle"))
		return;
	save_flags(flags);
	cli();
	port->mcr |= FB_MCR_RTS;
	fwbox_set_mcr(port);
	restore_flags(flags);
}

static void fwbox_stop(struct tty_struct *tty)
{
	outb(fwbox_ier & ~FB_IER_TX, io + FB_IER);
}

static void fwbox_start(struct tty_struct *tty)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;

	if (port->xmit_cnt && port->xmit_buf)
		outb(fwbox_ier | FB_IER_TX, io + FB_IER);
}

static void fwbox_hangup(struct tty_struct *tty)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;

	if (fwbox_paranoia_check(port, tty->device, "fwbox_hangup"))
		return;
	fwbox_shutdown(port);
	port->event = 0;
	port->count = 0;
	port->flags &= ~ASYNC_NORMAL_ACTIVE;
	port->tty = 0;
	wake_up_interruptible(&port->open_wait);
}

static void fwbox_set_termios(struct tty_struct *tty, struct termios *old)
{
	struct fwbox_port *port = (struct fwbox_port *) tty->driver_data;
	unsigned long flags;

	if (tty->termios->c_cflag == old->c_cflag)
		return;
	save_flags(flags);
	cli();
	if (tty_get_baud_rate(tty))
		port->mcr |= FB_MCR_DTR;
	else
		port->mcr &= ~FB_MCR_DTR;
	fwbox_set_mcr(port);
	restore_flags(flags);
	if ((old->c_cflag & CRTSCTS) && !(tty->termios->c_cflag & CRTSCTS)) {
		tty->hw_stopped = 0;
		fwbox_start(tty);
	}
}

/* --- the control device: the firmware's loader -------------------------- */

static int fwbox_load(struct fwbox_block *arg)
{
	struct fwbox_block blk;
	unsigned char sum = 0;
	int i;

	if (copy_from_user(&blk, arg, sizeof(blk)))
		return -EFAULT;
	if (blk.board != 0)
		return -ENXIO;
	if (blk.magic != FWBOX_MAGIC) {
		printk(KERN_INFO "fwbox: not a firmware block\n");
		return -EINVAL;
	}
	if (blk.len > FWBOX_CHUNK)
		return -EINVAL;
	for (i = 0; i < blk.len; i++) {
		outb(blk.data[i], io + FB_FWDATA);
		sum += blk.data[i];
	}
	outb(sum, io + FB_FWSUM);
	if (inb(io + FB_FWSUM) != FB_FW_TAKEN) {
		printk(KERN_INFO "fwbox: the board refused the block\n");
		return -EIO;
	}
	fwbox_loaded = 1;
	return 0;
}

static int fwbox_run(void)
{
	int i;

	if (!fwbox_loaded)
		return -EAGAIN;
	outb(FB_FW_START, io + FB_FWRUN);
	for (i = 0; i < 100; i++) {
		if (inb(io + FB_FWRUN) == FB_FW_RUNNING)
			break;
		udelay(10);
	}
	if (i == 100) {
		printk(KERN_INFO "fwbox: the firmware did not start\n");
		return -EIO;
	}
	fwbox_running = 1;
	printk(KERN_INFO "fwbox: firmware running\n");
	return 0;
}

static int fwbox_ctl_ioctl(struct inode *inode, struct file *filp,
			   unsigned int cmd, unsigned long arg)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	switch (cmd) {
	case FWBOX_LOAD:
		return fwbox_load((struct fwbox_block *) arg);
	case FWBOX_START:
		return fwbox_run();
	default:
		return -ENOIOCTLCMD;
	}
}

static struct file_operations fwbox_ctl_fops = {
	owner : THIS_MODULE,
	ioctl : fwbox_ctl_ioctl,
};

static struct miscdevice fwbox_ctl = { MISC_DYNAMIC_MINOR, "fwboxctl",
				       &fwbox_ctl_fops };

/* --- the module ---------------------------------------------------------- */

static int __init fwbox_init_drivers(void)
{
	int i;

	memset(&fwbox_driver, 0, sizeof(fwbox_driver));
	fwbox_driver.magic = TTY_DRIVER_MAGIC;
	fwbox_driver.driver_name = "fwbox";
	fwbox_driver.name = "ttyF";
	fwbox_driver.major = FWBOX_NORMAL_MAJOR;
	fwbox_driver.num = FWBOX_NPORT;
	fwbox_driver.type = TTY_DRIVER_TYPE_SERIAL;
	fwbox_driver.subtype = SERIAL_TYPE_NORMAL;
	fwbox_driver.init_termios = tty_std_termios;
	fwbox_driver.init_termios.c_cflag = B9600 | CS8 | CREAD | HUPCL |
					    CLOCAL;
	fwbox_driver.flags = TTY_DRIVER_REAL_RAW;
	fwbox_driver.refcount = &fwbox_refcount;
	fwbox_driver.table = fwbox_table;
	fwbox_driver.termios = fwbox_termios;
	fwbox_driver.termios_locked = fwbox_termios_locked;

	fwbox_driver.open = fwbox_open;
	fwbox_driver.close = fwbox_close;
	fwbox_driver.write = fwbox_write;
	fwbox_driver.put_char = fwbox_put_char;
	fwbox_driver.flush_chars = fwbox_flush_chars;
	fwbox_driver.write_room = fwbox_write_room;
	fwbox_driver.chars_in_buffer = fwbox_chars_in_buffer;
	fwbox_driver.flush_buffer = fwbox_flush_buffer;
	fwbox_driver.ioctl = fwbox_ioctl;
	fwbox_driver.throttle = fwbox_throttle;
	fwbox_driver.unthrottle = fwbox_unthrottle;
	fwbox_driver.set_termios = fwbox_set_termios;
	fwbox_driver.stop = fwbox_stop;
	fwbox_driver.start = fwbox_start;
	fwbox_driver.hangup = fwbox_hangup;

	for (i = 0; i < FWBOX_NPORT; i++) {
		struct fwbox_port *port = &fwbox_port[i];

		memset(port, 0, sizeof(*port));
		port->magic = FWBOX_MAGIC;
		port->line = i;
		port->close_delay = 5 * HZ / 10;
		port->closing_wait = 30 * HZ;
		port->tqueue.routine = do_softint;
		port->tqueue.data = port;
		port->tqueue_hangup.routine = do_fwbox_hangup;
		port->tqueue_hangup.data = port;
		init_waitqueue_head(&port->open_wait);
		init_waitqueue_head(&port->close_wait);
	}
	if (tty_register_driver(&fwbox_driver)) {
		printk(KERN_ERR "fwbox: couldn't register the tty driver\n");
		return -EIO;
	}
	return 0;
}

static int __init fwbox_init(void)
{
	int error;

	printk(KERN_INFO "fwbox: FWBox/4 driver, the sandbox's own\n");
	error = fwbox_probe();
	if (error)
		return error;
	init_bh(FWBOX_BH, do_fwbox_bh);
	error = fwbox_init_drivers();
	if (error)
		goto out_bh;
	error = request_irq(fwbox_irq, fwbox_interrupt, SA_INTERRUPT, "fwbox",
			    fwbox_port);
	if (error) {
		printk(KERN_ERR "fwbox: IRQ %d busy\n", fwbox_irq);
		tty_unregister_driver(&fwbox_driver);
		goto out_bh;
	}
	error = misc_register(&fwbox_ctl);
	if (error) {
		printk(KERN_ERR "fwbox: couldn't register fwboxctl\n");
		free_irq(fwbox_irq, fwbox_port);
		tty_unregister_driver(&fwbox_driver);
		goto out_bh;
	}
	fwbox_ier = FB_IER_RX | FB_IER_MODEM;
	outb(fwbox_ier, io + FB_IER);
	return 0;

out_bh:
	remove_bh(FWBOX_BH);
	release_region(io, FWBOX_IO_RANGE);
	return error;
}

static void __exit fwbox_exit(void)
{
	outb(0, io + FB_IER);
	misc_deregister(&fwbox_ctl);
	free_irq(fwbox_irq, fwbox_port);
	if (tty_unregister_driver(&fwbox_driver))
		printk(KERN_ERR "fwbox: couldn't unregister the tty driver\n");
	remove_bh(FWBOX_BH);
	if (tmp_buf) {
		free_page((unsigned long) tmp_buf);
		tmp_buf = 0;
	}
	release_region(io, FWBOX_IO_RANGE);
}

module_init(fwbox_init);
module_exit(fwbox_exit);
