/*
 *  ibox.c  -- driver for the IBox/4 four port serial board.
 *
 *  A made-up ISA board, and a driver written as 2.4.0's serial drivers
 *  were (specialix, riscom8): the board's chip is reached through an
 *  index port and a data port, as a CD180's is: the driver writes the
 *  number of a register, then reads or writes the register at the data
 *  port.  A task queue of the driver's own run by a bottom half of its
 *  own, a tq_struct per port for the write wakeup, a hangup task for
 *  keventd, save_flags()/cli() around the port's state and around each
 *  register's two accesses; the board found by two scratch registers
 *  that keep what was written, each its own, and an identity register,
 *  its interrupt line from a module parameter or probed for.
 *
 *  The board: eight ports from its base (io=, default 0x2a0)
 *	base+0	INDEX	the number of the chip's register to reach (write)
 *	base+4	DATA	that register
 *  and the chip's registers
 *	0x10	DATA	received byte (read), byte to send (write), of
 *			the channel CAR selects
 *	0x11	CAR	channel, 0 to 3
 *	0x12	ISR	bits 0-3: a channel has received data,
 *			bits 4-7: a channel's transmitter is empty
 *	0x13	MSR	modem status of the channel: DCD 1, CTS 2, DSR 4,
 *			RI 8, changed 0x80 (read);  MCR: DTR 1, RTS 2 (write)
 *	0x14	IER	RX 1, TX 2, MODEM 4 for all channels; 8: interrupt
 *			once now, for the probe
 *	0x15	RXCNT	bytes waiting on the channel, up to 16 (read)
 *	0x16	ID	0x3d (read)
 *	0x17	SCR	scratch registers: read back
 *	0x18	SCR2
 *
 *  Written for the sandbox's tests; not a board anybody made.  The
 *  generic device (drivers/include/world/device.h) plays one: a register
 *  file behind the index port, its identity byte, a probe that raises
 *  line 5, and in the interrupt handler every channel with four bytes
 *  received and room to send, then no more, a carrier that comes and
 *  goes:
 *
 *  SHIM_DEVICE="seed=7 probe=5 index=0x2a0:0x2a4 0x2a4#0x16=0x3d 0x2a4#0x12@irq=0xff,0x00* 0x2a4#0x15@irq=0x04 0x2a4#0x10@irq=seeded 0x2a4#0x13@irq=0x03,0x83,0x03,0x82*"
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

#define IBOX_NORMAL_MAJOR 242 /* local use (devices.txt) */
#define IBOX_NPORT 4
#define IBOX_IO_RANGE 8
#define IBOX_ID 0x3d
#define IBOX_FIFO 8
#define IBOX_MAGIC 0x5a42
#define IBOX_BH 21 /* a bottom half no in-tree driver uses */
#define WAKEUP_CHARS 256

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

/* the board's two ports */
#define IBOX_INDEX 0 /* the number of the chip's register to reach */
#define IBOX_DATA 4  /* that register */

/* the chip's registers */
#define IB_DATA 0x10
#define IB_CAR 0x11
#define IB_ISR 0x12
#define IB_MSR 0x13
#define IB_MCR 0x13
#define IB_IER 0x14
#define IB_RXCNT 0x15
#define IB_ID 0x16
#define IB_SCR 0x17
#define IB_SCR2 0x18

#define IB_MSR_DCD 0x01
#define IB_MSR_CTS 0x02
#define IB_MSR_DSR 0x04
#define IB_MSR_RI 0x08
#define IB_MSR_DELTA 0x80
#define IB_MCR_DTR 0x01
#define IB_MCR_RTS 0x02
#define IB_IER_RX 0x01
#define IB_IER_TX 0x02
#define IB_IER_MODEM 0x04
#define IB_IER_TEST 0x08

#define IB_EVENT_WRITE_WAKEUP 0

static int io = 0x2a0;
static int irq; /* 0: probe for it */

MODULE_AUTHOR("the workqueue sandbox");
MODULE_DESCRIPTION("IBox/4 serial board (made up)");
MODULE_PARM(io, "i");
MODULE_PARM_DESC(io, "the board's base port");
MODULE_PARM(irq, "i");
MODULE_PARM_DESC(irq, "its interrupt line; 0: probe for it");

struct ibox_port {
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

static struct ibox_port ibox_port[IBOX_NPORT];
static int ibox_irq;
static int ibox_ier;

static DECLARE_TASK_QUEUE(tq_ibox);

static struct tty_driver ibox_driver;
static int ibox_refcount;
static struct tty_struct *ibox_table[IBOX_NPORT];
static struct termios *ibox_termios[IBOX_NPORT];
static struct termios *ibox_termios_locked[IBOX_NPORT];
static unsigned char *tmp_buf;
static DECLARE_MUTEX(tmp_buf_sem);

static inline int ibox_paranoia_check(struct ibox_port *port, kdev_t device,
				      const char *routine)
{
	if (!port) {
		printk(KERN_WARNING "ibox: null port for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	if (port->magic != IBOX_MAGIC) {
		printk(KERN_WARNING "ibox: bad magic for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	return 0;
}

/*
 * A register of the chip: its number to the index port, then the data
 * port.  With interrupts off: a handler in between would leave another
 * number there.
 */
static inline unsigned char ibox_in(unsigned char reg)
{
	unsigned long flags;
	unsigned char val;

	save_flags(flags);
	cli();
	outb(reg, io + IBOX_INDEX);
	val = inb(io + IBOX_DATA);
	restore_flags(flags);
	return val;
}

static inline void ibox_out(unsigned char reg, unsigned char val)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	outb(reg, io + IBOX_INDEX);
	outb(val, io + IBOX_DATA);
	restore_flags(flags);
}

static inline void ibox_select(struct ibox_port *port)
{
	ibox_out(IB_CAR, port->line);
}

/*
 * The bottom half: run what the interrupt handler queued.
 */
static void do_ibox_bh(void)
{
	run_task_queue(&tq_ibox);
}

static inline void ibox_sched_event(struct ibox_port *port, int event)
{
	set_bit(event, &port->event);
	queue_task(&port->tqueue, &tq_ibox);
	mark_bh(IBOX_BH);
}

/* from the bottom half: writers may go on */
static void do_softint(void *private_)
{
	struct ibox_port *port = (struct ibox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (!tty)
		return;
	if (test_and_clear_bit(IB_EVENT_WRITE_WAKEUP, &port->event)) {
		if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
		    tty->ldisc.write_wakeup)
			(tty->ldisc.write_wakeup)(tty);
		wake_up_interruptible(&tty->write_wait);
	}
}

/* from keventd: the carrier went away */
static void do_ibox_hangup(void *private_)
{
	struct ibox_port *port = (struct ibox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (tty)
		tty_hangup(tty);
}

static void ibox_receive(struct ibox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count;

	ibox_select(port);
	count = ibox_in(IB_RXCNT) & 0x1f;
	if (count > 16)
		count = 16;
	if (!tty) {
		while (count--)
			ibox_in(IB_DATA);
		return;
	}
	port->icount.rx += count;
	while (count--) {
		if (tty->flip.count >= TTY_FLIPBUF_SIZE) {
			printk(KERN_WARNING "ibox%d: flip buffer overflow\n",
			       port->line);
			ibox_in(IB_DATA);
			continue;
		}
		*tty->flip.char_buf_ptr++ = ibox_in(IB_DATA);
		*tty->flip.flag_buf_ptr++ = TTY_NORMAL;
		tty->flip.count++;
	}
	tty_flip_buffer_push(tty);
}

static void ibox_transmit(struct ibox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count = IBOX_FIFO;

	if (!tty || !port->xmit_buf)
		return;
	ibox_select(port);
	while (port->xmit_cnt > 0 && count-- > 0 && !tty->stopped &&
	       !tty->hw_stopped) {
		ibox_out(IB_DATA, port->xmit_buf[port->xmit_tail++]);
		port->xmit_tail &= SERIAL_XMIT_SIZE - 1;
		port->xmit_cnt--;
		port->icount.tx++;
	}
	if (port->xmit_cnt < WAKEUP_CHARS)
		ibox_sched_event(port, IB_EVENT_WRITE_WAKEUP);
}

static void ibox_modem(struct ibox_port *port)
{
	unsigned char msr;

	ibox_select(port);
	msr = ibox_in(IB_MSR);
	if (!(msr & IB_MSR_DELTA))
		return;
	if ((msr ^ port->msr) & IB_MSR_DCD) {
		port->icount.dcd++;
		if (msr & IB_MSR_DCD)
			wake_up_interruptible(&port->open_wait);
		else if (port->tty && !C_CLOCAL(port->tty))
			schedule_task(&port->tqueue_hangup);
	}
	if ((msr ^ port->msr) & IB_MSR_CTS)
		port->icount.cts++;
	port->msr = msr & ~IB_MSR_DELTA;
}

static void ibox_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	unsigned char isr;
	int loops = 0, i;

	while ((isr = ibox_in(IB_ISR)) && loops++ < 8) {
		for (i = 0; i < IBOX_NPORT; i++) {
			struct ibox_port *port = &ibox_port[i];

			if (!(port->flags & ASYNC_INITIALIZED))
				continue;
			if (isr & (1 << i))
				ibox_receive(port);
			if (isr & (0x10 << i))
				ibox_transmit(port);
			ibox_modem(port);
		}
	}
}

/* --- the board ----------------------------------------------------------- */

/* the scratch register reads back, and the identity byte is ours */
static int __init ibox_probe(void)
{
	unsigned char a, b;
	unsigned long irqs;

	if (check_region(io, IBOX_IO_RANGE))
		return -EBUSY;
	/* each scratch register holds its own value: a board, not a bus
	 * that keeps the last byte written */
	ibox_out(IB_SCR, 0x5a);
	ibox_out(IB_SCR2, 0xa5);
	a = ibox_in(IB_SCR);
	b = ibox_in(IB_SCR2);
	if (a != 0x5a || b != 0xa5 || ibox_in(IB_ID) != IBOX_ID) {
		printk(KERN_INFO "ibox: no board at 0x%03x\n", io);
		return -ENODEV;
	}
	ibox_irq = irq;
	if (!ibox_irq) {
		/* let the board interrupt once, and see where */
		irqs = probe_irq_on();
		ibox_out(IB_IER, IB_IER_TEST);
		udelay(100);
		ibox_irq = probe_irq_off(irqs);
		ibox_out(IB_IER, 0);
		if (ibox_irq <= 0) {
			printk(KERN_INFO "ibox: board at 0x%03x, no IRQ "
					 "found\n",
			       io);
			return -ENODEV;
		}
	}
	request_region(io, IBOX_IO_RANGE, "ibox");
	printk(KERN_INFO "ibox: IBox/4 at 0x%03x, IRQ %d\n", io, ibox_irq);
	return 0;
}

/* --- ports --------------------------------------------------------------- */

static void ibox_set_mcr(struct ibox_port *port)
{
	ibox_select(port);
	ibox_out(IB_MCR, port->mcr);
}

static int ibox_startup(struct ibox_port *port)
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
	port->mcr = IB_MCR_DTR | IB_MCR_RTS;
	ibox_set_mcr(port);
	ibox_select(port);
	port->msr = ibox_in(IB_MSR) & ~IB_MSR_DELTA;
	port->flags |= ASYNC_INITIALIZED;
	restore_flags(flags);
	return 0;
}

static void ibox_shutdown(struct ibox_port *port)
{
	unsigned long flags;

	if (!(port->flags & ASYNC_INITIALIZED))
		return;
	save_flags(flags);
	cli();
	if (!port->tty || (port->tty->termios->c_cflag & HUPCL)) {
		port->mcr &= ~(IB_MCR_DTR | IB_MCR_RTS);
		ibox_set_mcr(port);
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
			   struct ibox_port *port)
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
		    (C_CLOCAL(tty) || (port->msr & IB_MSR_DCD)))
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

static int ibox_open(struct tty_struct *tty, struct file *filp)
{
	int line = MINOR(tty->device) - tty->driver.minor_start;
	struct ibox_port *port;
	unsigned long page;
	int error;

	if (line < 0 || line >= IBOX_NPORT)
		return -ENODEV;
	port = &ibox_port[line];
	if (ibox_paranoia_check(port, tty->device, "ibox_open"))
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
	error = ibox_startup(port);
	if (error)
		return error;
	error = block_til_ready(tty, filp, port);
	if (error)
		return error;
	return 0;
}

static void ibox_close(struct tty_struct *tty, struct file *filp)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;
	unsigned long flags;

	if (!port || ibox_paranoia_check(port, tty->device, "ibox_close"))
		return;
	save_flags(flags);
	cli();
	if (tty_hung_up_p(filp)) {
		MOD_DEC_USE_COUNT;
		restore_flags(flags);
		return;
	}
	if ((tty->count == 1) && (port->count != 1)) {
		printk(KERN_WARNING "ibox%d: bad port count %d\n", port->line,
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
	ibox_shutdown(port);
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

static int ibox_write(struct tty_struct *tty, int from_user,
		      const unsigned char *buf, int count)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;
	unsigned long flags;
	int c, total = 0;

	if (ibox_paranoia_check(port, tty->device, "ibox_write"))
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
		ibox_out(IB_IER, ibox_ier | IB_IER_TX);
	restore_flags(flags);
	return total;
}

static void ibox_put_char(struct tty_struct *tty, unsigned char ch)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;
	unsigned long flags;

	if (ibox_paranoia_check(port, tty->device, "ibox_put_char"))
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

static void ibox_flush_chars(struct tty_struct *tty)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;

	if (ibox_paranoia_check(port, tty->device, "ibox_flush_chars"))
		return;
	if (port->xmit_cnt <= 0 || tty->stopped || tty->hw_stopped ||
	    !port->xmit_buf)
		return;
	ibox_out(IB_IER, ibox_ier | IB_IER_TX);
}

static int ibox_write_room(struct tty_struct *tty)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;
	int ret;

	if (ibox_paranoia_check(port, tty->device, "ibox_write_room"))
		return 0;
	ret = SERIAL_XMIT_SIZE - port->xmit_cnt - 1;
	return ret < 0 ? 0 : ret;
}

static int ibox_chars_in_buffer(struct tty_struct *tty)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;

	if (ibox_paranoia_check(port, tty->device, "ibox_chars_in_buffer"))
		return 0;
	return port->xmit_cnt;
}

static void ibox_flush_buffer(struct tty_struct *tty)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;
	unsigned long flags;

	if (ibox_paranoia_check(port, tty->device, "ibox_flush_buffer"))
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

static int ibox_get_modem_info(struct ibox_port *port, unsigned int *value)
{
	unsigned char msr;
	unsigned int result;
	unsigned long flags;

	save_flags(flags);
	cli();
	ibox_select(port);
	msr = ibox_in(IB_MSR);
	restore_flags(flags);
	result = ((port->mcr & IB_MCR_DTR) ? TIOCM_DTR : 0) |
		 ((port->mcr & IB_MCR_RTS) ? TIOCM_RTS : 0) |
		 ((msr & IB_MSR_DCD) ? TIOCM_CAR : 0) |
		 ((msr & IB_MSR_CTS) ? TIOCM_CTS : 0) |
		 ((msr & IB_MSR_DSR) ? TIOCM_DSR : 0) |
		 ((msr & IB_MSR_RI) ? TIOCM_RNG : 0);
	return put_user(result, value);
}

static int ibox_set_modem_info(struct ibox_port *port, unsigned int cmd,
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
			port->mcr |= IB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr |= IB_MCR_DTR;
		break;
	case TIOCMBIC:
		if (arg & TIOCM_RTS)
			port->mcr &= ~IB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr &= ~IB_MCR_DTR;
		break;
	case TIOCMSET:
		port->mcr = ((arg & TIOCM_RTS) ? IB_MCR_RTS : 0) |
			    ((arg & TIOCM_DTR) ? IB_MCR_DTR : 0);
		break;
	default:
		restore_flags(flags);
		return -EINVAL;
	}
	ibox_set_mcr(port);
	restore_flags(flags);
	return 0;
}

static int ibox_get_serial_info(struct ibox_port *port,
				struct serial_struct *retinfo)
{
	struct serial_struct tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = PORT_16550A;
	tmp.line = port->line;
	tmp.port = io;
	tmp.irq = ibox_irq;
	tmp.flags = port->flags;
	tmp.baud_base = 115200;
	tmp.close_delay = port->close_delay * HZ / 100;
	tmp.closing_wait = port->closing_wait * HZ / 100;
	tmp.xmit_fifo_size = IBOX_FIFO;
	if (copy_to_user(retinfo, &tmp, sizeof(*retinfo)))
		return -EFAULT;
	return 0;
}

static int ibox_set_serial_info(struct ibox_port *port,
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

static int ibox_ioctl(struct tty_struct *tty, struct file *filp,
		      unsigned int cmd, unsigned long arg)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;
	struct serial_icounter_struct icount;

	if (ibox_paranoia_check(port, tty->device, "ibox_ioctl"))
		return -ENODEV;
	switch (cmd) {
	case TIOCMGET:
		return ibox_get_modem_info(port, (unsigned int *) arg);
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		return ibox_set_modem_info(port, cmd, (unsigned int *) arg);
	case TIOCGSERIAL:
		return ibox_get_serial_info(port, (struct serial_struct *) arg);
	case TIOCSSERIAL:
		return ibox_set_serial_info(port, (struct serial_struct *) arg);
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

static void ibox_throttle(struct tty_struct *tty)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;
	unsigned long flags;

	if (ibox_paranoia_check(port, tty->device, "ibox_throttle"))
		return;
	save_flags(flags);
	cli();
	port->mcr &= ~IB_MCR_RTS;
	ibox_set_mcr(port);
	restore_flags(flags);
}

static void ibox_unthrottle(struct tty_struct *tty)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;
	unsigned long flags;

	if (ibox_paranoia_check(port, tty->device, "ibox_unthrottle"))
		return;
	save_flags(flags);
	cli();
	port->mcr |= IB_MCR_RTS;
	ibox_set_mcr(port);
	restore_flags(flags);
}

static void ibox_stop(struct tty_struct *tty)
{
	ibox_out(IB_IER, ibox_ier & ~IB_IER_TX);
}

static void ibox_start(struct tty_struct *tty)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;

	if (port->xmit_cnt && port->xmit_buf)
		ibox_out(IB_IER, ibox_ier | IB_IER_TX);
}

static void ibox_hangup(struct tty_struct *tty)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;

	if (ibox_paranoia_check(port, tty->device, "ibox_hangup"))
		return;
	ibox_shutdown(port);
	port->event = 0;
	port->count = 0;
	port->flags &= ~ASYNC_NORMAL_ACTIVE;
	port->tty = 0;
	wake_up_interruptible(&port->open_wait);
}

static void ibox_set_termios(struct tty_struct *tty, struct termios *old)
{
	struct ibox_port *port = (struct ibox_port *) tty->driver_data;
	unsigned long flags;

	if (tty->termios->c_cflag == old->c_cflag)
		return;
	save_flags(flags);
	cli();
	if (tty_get_baud_rate(tty))
		port->mcr |= IB_MCR_DTR;
	else
		port->mcr &= ~IB_MCR_DTR;
	ibox_set_mcr(port);
	restore_flags(flags);
	if ((old->c_cflag & CRTSCTS) && !(tty->termios->c_cflag & CRTSCTS)) {
		tty->hw_stopped = 0;
		ibox_start(tty);
	}
}

/* --- the module ---------------------------------------------------------- */

static int __init ibox_init_drivers(void)
{
	int i;

	memset(&ibox_driver, 0, sizeof(ibox_driver));
	ibox_driver.magic = TTY_DRIVER_MAGIC;
	ibox_driver.driver_name = "ibox";
	ibox_driver.name = "ttyJ";
	ibox_driver.major = IBOX_NORMAL_MAJOR;
	ibox_driver.num = IBOX_NPORT;
	ibox_driver.type = TTY_DRIVER_TYPE_SERIAL;
	ibox_driver.subtype = SERIAL_TYPE_NORMAL;
	ibox_driver.init_termios = tty_std_termios;
	ibox_driver.init_termios.c_cflag = B9600 | CS8 | CREAD | HUPCL | CLOCAL;
	ibox_driver.flags = TTY_DRIVER_REAL_RAW;
	ibox_driver.refcount = &ibox_refcount;
	ibox_driver.table = ibox_table;
	ibox_driver.termios = ibox_termios;
	ibox_driver.termios_locked = ibox_termios_locked;

	ibox_driver.open = ibox_open;
	ibox_driver.close = ibox_close;
	ibox_driver.write = ibox_write;
	ibox_driver.put_char = ibox_put_char;
	ibox_driver.flush_chars = ibox_flush_chars;
	ibox_driver.write_room = ibox_write_room;
	ibox_driver.chars_in_buffer = ibox_chars_in_buffer;
	ibox_driver.flush_buffer = ibox_flush_buffer;
	ibox_driver.ioctl = ibox_ioctl;
	ibox_driver.throttle = ibox_throttle;
	ibox_driver.unthrottle = ibox_unthrottle;
	ibox_driver.set_termios = ibox_set_termios;
	ibox_driver.stop = ibox_stop;
	ibox_driver.start = ibox_start;
	ibox_driver.hangup = ibox_hangup;

	for (i = 0; i < IBOX_NPORT; i++) {
		struct ibox_port *port = &ibox_port[i];

		memset(port, 0, sizeof(*port));
		port->magic = IBOX_MAGIC;
		port->line = i;
		port->close_delay = 5 * HZ / 10;
		port->closing_wait = 30 * HZ;
		port->tqueue.routine = do_softint;
		port->tqueue.data = port;
		port->tqueue_hangup.routine = do_ibox_hangup;
		port->tqueue_hangup.data = port;
		init_waitqueue_head(&port->open_wait);
		init_waitqueue_head(&port->close_wait);
	}
	if (tty_register_driver(&ibox_driver)) {
		printk(KERN_ERR "ibox: couldn't register the tty driver\n");
		return -EIO;
	}
	return 0;
}

static int __init ibox_init(void)
{
	int error;

	printk(KERN_INFO "ibox: IBox/4 driver, the sandbox's own\n");
	error = ibox_probe();
	if (error)
		return error;
	init_bh(IBOX_BH, do_ibox_bh);
	error = ibox_init_drivers();
	if (error)
		goto out_bh;
	error = request_irq(ibox_irq, ibox_interrupt, SA_INTERRUPT, "ibox",
			    ibox_port);
	if (error) {
		printk(KERN_ERR "ibox: IRQ %d busy\n", ibox_irq);
		tty_unregister_driver(&ibox_driver);
		goto out_bh;
	}
	ibox_ier = IB_IER_RX | IB_IER_MODEM;
	ibox_out(IB_IER, ibox_ier);
	return 0;

out_bh:
	remove_bh(IBOX_BH);
	release_region(io, IBOX_IO_RANGE);
	return error;
}

static void __exit ibox_exit(void)
{
	ibox_out(IB_IER, 0);
	free_irq(ibox_irq, ibox_port);
	if (tty_unregister_driver(&ibox_driver))
		printk(KERN_ERR "ibox: couldn't unregister the tty driver\n");
	remove_bh(IBOX_BH);
	if (tmp_buf) {
		free_page((unsigned long) tmp_buf);
		tmp_buf = 0;
	}
	release_region(io, IBOX_IO_RANGE);
}

module_init(ibox_init);
module_exit(ibox_exit);
