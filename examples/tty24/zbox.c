/*
 *  zbox.c  -- driver for the ZBox/4 four port serial board.
 *
 *  A made-up ISA board, and a driver written as 2.4.0's serial drivers
 *  were (riscom8, specialix, esp): a task queue of the driver's own run
 *  by a bottom half of its own, a tq_struct per port for the write
 *  wakeup, a hangup task for keventd, save_flags()/cli() around the
 *  port's state, the board found by its identity byte and a scratch
 *  register that reads back, its interrupt line from a module parameter
 *  or probed for.
 *
 *  The board: eight ports from its base (io=, default 0x2a0)
 *	base+0	DATA	received byte (read), byte to send (write), of
 *			the channel CHSEL selects
 *	base+1	CHSEL	channel, 0 to 3 (write)
 *	base+2	ISR	bits 0-3: a channel has received data,
 *			bits 4-7: a channel's transmitter is empty
 *	base+3	MSR	modem status of the channel: DCD 1, CTS 2, DSR 4,
 *			RI 8, changed 0x80 (read);  MCR: DTR 1, RTS 2 (write)
 *	base+4	IER	RX 1, TX 2, MODEM 4 for all channels; 8: interrupt
 *			once now, for the probe (write)
 *	base+5	RXCNT	bytes waiting on the channel, up to 16 (read)
 *	base+6	ID	0x3c (read)
 *	base+7	SCR	scratch register: reads back
 *
 *  Written for the sandbox's tests; not a board anybody made.  The
 *  generic device (drivers/include/world/device.h) plays one: its
 *  identity byte, a probe that raises line 5, and in the interrupt
 *  handler every channel with four bytes received and room to send,
 *  then no more, a carrier that comes and goes:
 *
 *  SHIM_DEVICE="seed=7 probe=5 0x2a6=0x3c 0x2a2@irq=0xff,0x00* 0x2a5@irq=0x04 0x2a0@irq=seeded 0x2a3@irq=0x03,0x83,0x03,0x82*"
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

#define ZBOX_NORMAL_MAJOR 240 /* local use (devices.txt) */
#define ZBOX_NPORT 4
#define ZBOX_IO_RANGE 8
#define ZBOX_ID 0x3c
#define ZBOX_FIFO 8
#define ZBOX_MAGIC 0x5a42
#define ZBOX_BH 20 /* a bottom half no in-tree driver uses */
#define WAKEUP_CHARS 256

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

#define ZB_DATA 0
#define ZB_CHSEL 1
#define ZB_ISR 2
#define ZB_MSR 3
#define ZB_MCR 3
#define ZB_IER 4
#define ZB_RXCNT 5
#define ZB_ID 6
#define ZB_SCR 7

#define ZB_MSR_DCD 0x01
#define ZB_MSR_CTS 0x02
#define ZB_MSR_DSR 0x04
#define ZB_MSR_RI 0x08
#define ZB_MSR_DELTA 0x80
#define ZB_MCR_DTR 0x01
#define ZB_MCR_RTS 0x02
#define ZB_IER_RX 0x01
#define ZB_IER_TX 0x02
#define ZB_IER_MODEM 0x04
#define ZB_IER_TEST 0x08

#define ZB_EVENT_WRITE_WAKEUP 0

static int io = 0x2a0;
static int irq; /* 0: probe for it */

MODULE_AUTHOR("the workqueue sandbox");
MODULE_DESCRIPTION("ZBox/4 serial board (made up)");
MODULE_PARM(io, "i");
MODULE_PARM_DESC(io, "the board's base port");
MODULE_PARM(irq, "i");
MODULE_PARM_DESC(irq, "its interrupt line; 0: probe for it");

struct zbox_port {
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

static struct zbox_port zbox_port[ZBOX_NPORT];
static int zbox_irq;
static int zbox_ier;

static DECLARE_TASK_QUEUE(tq_zbox);

static struct tty_driver zbox_driver;
static int zbox_refcount;
static struct tty_struct *zbox_table[ZBOX_NPORT];
static struct termios *zbox_termios[ZBOX_NPORT];
static struct termios *zbox_termios_locked[ZBOX_NPORT];
static unsigned char *tmp_buf;
static DECLARE_MUTEX(tmp_buf_sem);

static inline int zbox_paranoia_check(struct zbox_port *port, kdev_t device,
				      const char *routine)
{
	if (!port) {
		printk(KERN_WARNING "zbox: null port for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	if (port->magic != ZBOX_MAGIC) {
		printk(KERN_WARNING "zbox: bad magic for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	return 0;
}

static inline void zbox_select(struct zbox_port *port)
{
	outb(port->line, io + ZB_CHSEL);
}

/*
 * The bottom half: run what the interrupt handler queued.
 */
static void do_zbox_bh(void)
{
	run_task_queue(&tq_zbox);
}

static inline void zbox_sched_event(struct zbox_port *port, int event)
{
	set_bit(event, &port->event);
	queue_task(&port->tqueue, &tq_zbox);
	mark_bh(ZBOX_BH);
}

/* from the bottom half: writers may go on */
static void do_softint(void *private_)
{
	struct zbox_port *port = (struct zbox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (!tty)
		return;
	if (test_and_clear_bit(ZB_EVENT_WRITE_WAKEUP, &port->event)) {
		if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
		    tty->ldisc.write_wakeup)
			(tty->ldisc.write_wakeup)(tty);
		wake_up_interruptible(&tty->write_wait);
	}
}

/* from keventd: the carrier went away */
static void do_zbox_hangup(void *private_)
{
	struct zbox_port *port = (struct zbox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (tty)
		tty_hangup(tty);
}

static void zbox_receive(struct zbox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count;

	zbox_select(port);
	count = inb(io + ZB_RXCNT) & 0x1f;
	if (count > 16)
		count = 16;
	if (!tty) {
		while (count--)
			inb(io + ZB_DATA);
		return;
	}
	port->icount.rx += count;
	while (count--) {
		if (tty->flip.count >= TTY_FLIPBUF_SIZE) {
			printk(KERN_WARNING "zbox%d: flip buffer overflow\n",
			       port->line);
			inb(io + ZB_DATA);
			continue;
		}
		*tty->flip.char_buf_ptr++ = inb(io + ZB_DATA);
		*tty->flip.flag_buf_ptr++ = TTY_NORMAL;
		tty->flip.count++;
	}
	tty_flip_buffer_push(tty);
}

static void zbox_transmit(struct zbox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count = ZBOX_FIFO;

	if (!tty || !port->xmit_buf)
		return;
	zbox_select(port);
	while (port->xmit_cnt > 0 && count-- > 0 && !tty->stopped &&
	       !tty->hw_stopped) {
		outb(port->xmit_buf[port->xmit_tail++], io + ZB_DATA);
		port->xmit_tail &= SERIAL_XMIT_SIZE - 1;
		port->xmit_cnt--;
		port->icount.tx++;
	}
	if (port->xmit_cnt < WAKEUP_CHARS)
		zbox_sched_event(port, ZB_EVENT_WRITE_WAKEUP);
}

static void zbox_modem(struct zbox_port *port)
{
	unsigned char msr;

	zbox_select(port);
	msr = inb(io + ZB_MSR);
	if (!(msr & ZB_MSR_DELTA))
		return;
	if ((msr ^ port->msr) & ZB_MSR_DCD) {
		port->icount.dcd++;
		if (msr & ZB_MSR_DCD)
			wake_up_interruptible(&port->open_wait);
		else if (port->tty && !C_CLOCAL(port->tty))
			schedule_task(&port->tqueue_hangup);
	}
	if ((msr ^ port->msr) & ZB_MSR_CTS)
		port->icount.cts++;
	port->msr = msr & ~ZB_MSR_DELTA;
}

static void zbox_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	unsigned char isr;
	int loops = 0, i;

	while ((isr = inb(io + ZB_ISR)) && loops++ < 8) {
		for (i = 0; i < ZBOX_NPORT; i++) {
			struct zbox_port *port = &zbox_port[i];

			if (!(port->flags & ASYNC_INITIALIZED))
				continue;
			if (isr & (1 << i))
				zbox_receive(port);
			if (isr & (0x10 << i))
				zbox_transmit(port);
			zbox_modem(port);
		}
	}
}

/* --- the board ----------------------------------------------------------- */

/* the scratch register reads back, and the identity byte is ours */
static int __init zbox_probe(void)
{
	unsigned char a, b;
	unsigned long irqs;

	if (check_region(io, ZBOX_IO_RANGE))
		return -EBUSY;
	outb(0x5a, io + ZB_SCR);
	a = inb(io + ZB_SCR);
	outb(0xa5, io + ZB_SCR);
	b = inb(io + ZB_SCR);
	if (a != 0x5a || b != 0xa5 || inb(io + ZB_ID) != ZBOX_ID) {
		printk(KERN_INFO "zbox: no board at 0x%03x\n", io);
		return -ENODEV;
	}
	zbox_irq = irq;
	if (!zbox_irq) {
		/* let the board interrupt once, and see where */
		irqs = probe_irq_on();
		outb(ZB_IER_TEST, io + ZB_IER);
		udelay(100);
		zbox_irq = probe_irq_off(irqs);
		outb(0, io + ZB_IER);
		if (zbox_irq <= 0) {
			printk(KERN_INFO "zbox: board at 0x%03x, no IRQ "
					 "found\n",
			       io);
			return -ENODEV;
		}
	}
	request_region(io, ZBOX_IO_RANGE, "zbox");
	printk(KERN_INFO "zbox: ZBox/4 at 0x%03x, IRQ %d\n", io, zbox_irq);
	return 0;
}

/* --- ports --------------------------------------------------------------- */

static void zbox_set_mcr(struct zbox_port *port)
{
	zbox_select(port);
	outb(port->mcr, io + ZB_MCR);
}

static int zbox_startup(struct zbox_port *port)
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
	port->mcr = ZB_MCR_DTR | ZB_MCR_RTS;
	zbox_set_mcr(port);
	zbox_select(port);
	port->msr = inb(io + ZB_MSR) & ~ZB_MSR_DELTA;
	port->flags |= ASYNC_INITIALIZED;
	restore_flags(flags);
	return 0;
}

static void zbox_shutdown(struct zbox_port *port)
{
	unsigned long flags;

	if (!(port->flags & ASYNC_INITIALIZED))
		return;
	save_flags(flags);
	cli();
	if (!port->tty || (port->tty->termios->c_cflag & HUPCL)) {
		port->mcr &= ~(ZB_MCR_DTR | ZB_MCR_RTS);
		zbox_set_mcr(port);
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
			   struct zbox_port *port)
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
		    (C_CLOCAL(tty) || (port->msr & ZB_MSR_DCD)))
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

static int zbox_open(struct tty_struct *tty, struct file *filp)
{
	int line = MINOR(tty->device) - tty->driver.minor_start;
	struct zbox_port *port;
	unsigned long page;
	int error;

	if (line < 0 || line >= ZBOX_NPORT)
		return -ENODEV;
	port = &zbox_port[line];
	if (zbox_paranoia_check(port, tty->device, "zbox_open"))
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
	error = zbox_startup(port);
	if (error)
		return error;
	error = block_til_ready(tty, filp, port);
	if (error)
		return error;
	return 0;
}

static void zbox_close(struct tty_struct *tty, struct file *filp)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;
	unsigned long flags;

	if (!port || zbox_paranoia_check(port, tty->device, "zbox_close"))
		return;
	save_flags(flags);
	cli();
	if (tty_hung_up_p(filp)) {
		MOD_DEC_USE_COUNT;
		restore_flags(flags);
		return;
	}
	if ((tty->count == 1) && (port->count != 1)) {
		printk(KERN_WARNING "zbox%d: bad port count %d\n", port->line,
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
	zbox_shutdown(port);
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

static int zbox_write(struct tty_struct *tty, int from_user,
		      const unsigned char *buf, int count)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;
	unsigned long flags;
	int c, total = 0;

	if (zbox_paranoia_check(port, tty->device, "zbox_write"))
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
		outb(zbox_ier | ZB_IER_TX, io + ZB_IER);
	restore_flags(flags);
	return total;
}

static void zbox_put_char(struct tty_struct *tty, unsigned char ch)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;
	unsigned long flags;

	if (zbox_paranoia_check(port, tty->device, "zbox_put_char"))
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

static void zbox_flush_chars(struct tty_struct *tty)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;

	if (zbox_paranoia_check(port, tty->device, "zbox_flush_chars"))
		return;
	if (port->xmit_cnt <= 0 || tty->stopped || tty->hw_stopped ||
	    !port->xmit_buf)
		return;
	outb(zbox_ier | ZB_IER_TX, io + ZB_IER);
}

static int zbox_write_room(struct tty_struct *tty)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;
	int ret;

	if (zbox_paranoia_check(port, tty->device, "zbox_write_room"))
		return 0;
	ret = SERIAL_XMIT_SIZE - port->xmit_cnt - 1;
	return ret < 0 ? 0 : ret;
}

static int zbox_chars_in_buffer(struct tty_struct *tty)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;

	if (zbox_paranoia_check(port, tty->device, "zbox_chars_in_buffer"))
		return 0;
	return port->xmit_cnt;
}

static void zbox_flush_buffer(struct tty_struct *tty)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;
	unsigned long flags;

	if (zbox_paranoia_check(port, tty->device, "zbox_flush_buffer"))
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

static int zbox_get_modem_info(struct zbox_port *port, unsigned int *value)
{
	unsigned char msr;
	unsigned int result;
	unsigned long flags;

	save_flags(flags);
	cli();
	zbox_select(port);
	msr = inb(io + ZB_MSR);
	restore_flags(flags);
	result = ((port->mcr & ZB_MCR_DTR) ? TIOCM_DTR : 0) |
		 ((port->mcr & ZB_MCR_RTS) ? TIOCM_RTS : 0) |
		 ((msr & ZB_MSR_DCD) ? TIOCM_CAR : 0) |
		 ((msr & ZB_MSR_CTS) ? TIOCM_CTS : 0) |
		 ((msr & ZB_MSR_DSR) ? TIOCM_DSR : 0) |
		 ((msr & ZB_MSR_RI) ? TIOCM_RNG : 0);
	return put_user(result, value);
}

static int zbox_set_modem_info(struct zbox_port *port, unsigned int cmd,
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
			port->mcr |= ZB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr |= ZB_MCR_DTR;
		break;
	case TIOCMBIC:
		if (arg & TIOCM_RTS)
			port->mcr &= ~ZB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr &= ~ZB_MCR_DTR;
		break;
	case TIOCMSET:
		port->mcr = ((arg & TIOCM_RTS) ? ZB_MCR_RTS : 0) |
			    ((arg & TIOCM_DTR) ? ZB_MCR_DTR : 0);
		break;
	default:
		restore_flags(flags);
		return -EINVAL;
	}
	zbox_set_mcr(port);
	restore_flags(flags);
	return 0;
}

static int zbox_get_serial_info(struct zbox_port *port,
				struct serial_struct *retinfo)
{
	struct serial_struct tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = PORT_16550A;
	tmp.line = port->line;
	tmp.port = io;
	tmp.irq = zbox_irq;
	tmp.flags = port->flags;
	tmp.baud_base = 115200;
	tmp.close_delay = port->close_delay * HZ / 100;
	tmp.closing_wait = port->closing_wait * HZ / 100;
	tmp.xmit_fifo_size = ZBOX_FIFO;
	if (copy_to_user(retinfo, &tmp, sizeof(*retinfo)))
		return -EFAULT;
	return 0;
}

static int zbox_set_serial_info(struct zbox_port *port,
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

static int zbox_ioctl(struct tty_struct *tty, struct file *filp,
		      unsigned int cmd, unsigned long arg)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;
	struct serial_icounter_struct icount;

	if (zbox_paranoia_check(port, tty->device, "zbox_ioctl"))
		return -ENODEV;
	switch (cmd) {
	case TIOCMGET:
		return zbox_get_modem_info(port, (unsigned int *) arg);
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		return zbox_set_modem_info(port, cmd, (unsigned int *) arg);
	case TIOCGSERIAL:
		return zbox_get_serial_info(port, (struct serial_struct *) arg);
	case TIOCSSERIAL:
		return zbox_set_serial_info(port, (struct serial_struct *) arg);
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

static void zbox_throttle(struct tty_struct *tty)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;
	unsigned long flags;

	if (zbox_paranoia_check(port, tty->device, "zbox_throttle"))
		return;
	save_flags(flags);
	cli();
	port->mcr &= ~ZB_MCR_RTS;
	zbox_set_mcr(port);
	restore_flags(flags);
}

static void zbox_unthrottle(struct tty_struct *tty)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;
	unsigned long flags;

	if (zbox_paranoia_check(port, tty->device, "zbox_unthrottle"))
		return;
	save_flags(flags);
	cli();
	port->mcr |= ZB_MCR_RTS;
	zbox_set_mcr(port);
	restore_flags(flags);
}

static void zbox_stop(struct tty_struct *tty)
{
	outb(zbox_ier & ~ZB_IER_TX, io + ZB_IER);
}

static void zbox_start(struct tty_struct *tty)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;

	if (port->xmit_cnt && port->xmit_buf)
		outb(zbox_ier | ZB_IER_TX, io + ZB_IER);
}

static void zbox_hangup(struct tty_struct *tty)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;

	if (zbox_paranoia_check(port, tty->device, "zbox_hangup"))
		return;
	zbox_shutdown(port);
	port->event = 0;
	port->count = 0;
	port->flags &= ~ASYNC_NORMAL_ACTIVE;
	port->tty = 0;
	wake_up_interruptible(&port->open_wait);
}

static void zbox_set_termios(struct tty_struct *tty, struct termios *old)
{
	struct zbox_port *port = (struct zbox_port *) tty->driver_data;
	unsigned long flags;

	if (tty->termios->c_cflag == old->c_cflag)
		return;
	save_flags(flags);
	cli();
	if (tty_get_baud_rate(tty))
		port->mcr |= ZB_MCR_DTR;
	else
		port->mcr &= ~ZB_MCR_DTR;
	zbox_set_mcr(port);
	restore_flags(flags);
	if ((old->c_cflag & CRTSCTS) && !(tty->termios->c_cflag & CRTSCTS)) {
		tty->hw_stopped = 0;
		zbox_start(tty);
	}
}

/* --- the module ---------------------------------------------------------- */

static int __init zbox_init_drivers(void)
{
	int i;

	memset(&zbox_driver, 0, sizeof(zbox_driver));
	zbox_driver.magic = TTY_DRIVER_MAGIC;
	zbox_driver.driver_name = "zbox";
	zbox_driver.name = "ttyZ";
	zbox_driver.major = ZBOX_NORMAL_MAJOR;
	zbox_driver.num = ZBOX_NPORT;
	zbox_driver.type = TTY_DRIVER_TYPE_SERIAL;
	zbox_driver.subtype = SERIAL_TYPE_NORMAL;
	zbox_driver.init_termios = tty_std_termios;
	zbox_driver.init_termios.c_cflag = B9600 | CS8 | CREAD | HUPCL | CLOCAL;
	zbox_driver.flags = TTY_DRIVER_REAL_RAW;
	zbox_driver.refcount = &zbox_refcount;
	zbox_driver.table = zbox_table;
	zbox_driver.termios = zbox_termios;
	zbox_driver.termios_locked = zbox_termios_locked;

	zbox_driver.open = zbox_open;
	zbox_driver.close = zbox_close;
	zbox_driver.write = zbox_write;
	zbox_driver.put_char = zbox_put_char;
	zbox_driver.flush_chars = zbox_flush_chars;
	zbox_driver.write_room = zbox_write_room;
	zbox_driver.chars_in_buffer = zbox_chars_in_buffer;
	zbox_driver.flush_buffer = zbox_flush_buffer;
	zbox_driver.ioctl = zbox_ioctl;
	zbox_driver.throttle = zbox_throttle;
	zbox_driver.unthrottle = zbox_unthrottle;
	zbox_driver.set_termios = zbox_set_termios;
	zbox_driver.stop = zbox_stop;
	zbox_driver.start = zbox_start;
	zbox_driver.hangup = zbox_hangup;

	for (i = 0; i < ZBOX_NPORT; i++) {
		struct zbox_port *port = &zbox_port[i];

		memset(port, 0, sizeof(*port));
		port->magic = ZBOX_MAGIC;
		port->line = i;
		port->close_delay = 5 * HZ / 10;
		port->closing_wait = 30 * HZ;
		port->tqueue.routine = do_softint;
		port->tqueue.data = port;
		port->tqueue_hangup.routine = do_zbox_hangup;
		port->tqueue_hangup.data = port;
		init_waitqueue_head(&port->open_wait);
		init_waitqueue_head(&port->close_wait);
	}
	if (tty_register_driver(&zbox_driver)) {
		printk(KERN_ERR "zbox: couldn't register the tty driver\n");
		return -EIO;
	}
	return 0;
}

static int __init zbox_init(void)
{
	int error;

	printk(KERN_INFO "zbox: ZBox/4 driver, the sandbox's own\n");
	error = zbox_probe();
	if (error)
		return error;
	init_bh(ZBOX_BH, do_zbox_bh);
	error = zbox_init_drivers();
	if (error)
		goto out_bh;
	error = request_irq(zbox_irq, zbox_interrupt, SA_INTERRUPT, "zbox",
			    zbox_port);
	if (error) {
		printk(KERN_ERR "zbox: IRQ %d busy\n", zbox_irq);
		tty_unregister_driver(&zbox_driver);
		goto out_bh;
	}
	zbox_ier = ZB_IER_RX | ZB_IER_MODEM;
	outb(zbox_ier, io + ZB_IER);
	return 0;

out_bh:
	remove_bh(ZBOX_BH);
	release_region(io, ZBOX_IO_RANGE);
	return error;
}

static void __exit zbox_exit(void)
{
	outb(0, io + ZB_IER);
	free_irq(zbox_irq, zbox_port);
	if (tty_unregister_driver(&zbox_driver))
		printk(KERN_ERR "zbox: couldn't unregister the tty driver\n");
	remove_bh(ZBOX_BH);
	if (tmp_buf) {
		free_page((unsigned long) tmp_buf);
		tmp_buf = 0;
	}
	release_region(io, ZBOX_IO_RANGE);
}

module_init(zbox_init);
module_exit(zbox_exit);
