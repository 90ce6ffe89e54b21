/*
 *  sbox.c  -- driver for the SBox family of serial boards, told where
 *  its board is by a string module parameter.
 *
 *  A made-up ISA board, its driver configured as 2.4.0's stallion and
 *  istallion were: insmod sbox board=TYPE,IO,IRQ (an array of up to
 *  three strings, "1-3s"), TYPE one of the names of the family's boards
 *  (sbox2, sbox4, sbox4-at, ...), looked up in a table with strcmp(),
 *  IO and IRQ numbers as simple_strtoul() reads them.  Without a board
 *  named, or with a name it does not know, the module finds nothing
 *  (-ENODEV); with no line given, it refuses (-EINVAL).  Otherwise as
 *  sbox.c: a task queue of the driver's own run by its bottom half, a
 *  tq_struct per port for the write wakeup, a hangup task on keventd.
 *
 *  The board: the SBox's eight ports from IO (examples/tty24/sbox.c),
 *  its identity byte 0x2c for a two port board, 0x4c for a four port
 *  one.
 *
 *  Written for the sandbox's tests (tests/reach/run); not a board
 *  anybody made.  Nothing in the sandbox knows it: the device search
 *  finds the names it takes from what it compared its parameter with
 *  (world/user.h).
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

#define SBOX_NORMAL_MAJOR 242 /* local use (devices.txt) */
#define SBOX_NPORT 4
#define SBOX_IO_RANGE 8
#define SBOX_FIFO 8
#define SBOX_MAGIC 0x5a42
#define SBOX_BH 22 /* a bottom half no in-tree driver uses */
#define WAKEUP_CHARS 256

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

#define SB_DATA 0
#define SB_CHSEL 1
#define SB_ISR 2
#define SB_MSR 3
#define SB_MCR 3
#define SB_IER 4
#define SB_RXCNT 5
#define SB_ID 6
#define SB_SCR 7

#define SB_MSR_DCD 0x01
#define SB_MSR_CTS 0x02
#define SB_MSR_DSR 0x04
#define SB_MSR_RI 0x08
#define SB_MSR_DELTA 0x80
#define SB_MCR_DTR 0x01
#define SB_MCR_RTS 0x02
#define SB_IER_RX 0x01
#define SB_IER_TX 0x02
#define SB_IER_MODEM 0x04
#define SB_IER_TEST 0x08

#define SB_EVENT_WRITE_WAKEUP 0

static char *board[3];

MODULE_AUTHOR("the workqueue sandbox");
MODULE_DESCRIPTION("SBox serial boards (made up)");
MODULE_PARM(board, "1-3s");
MODULE_PARM_DESC(board, "the board: type,io,irq");

/* the family, by the names its boards go by */
static struct sbox_type {
	const char *name;
	int nports;
	unsigned char id;
} sbox_types[] = {
	{ .name = "sbox2", .nports = 2, .id = 0x2c },
	{ .name = "sbox2-isa", .nports = 2, .id = 0x2c },
	{ .name = "sbox4", .nports = 4, .id = 0x4c },
	{ .name = "sbox4-at", .nports = 4, .id = 0x4c },
	{ .name = "sbox4-isa", .nports = 4, .id = 0x4c },
};

static struct sbox_type *sbox_type;
static int io;
static int irq;

struct sbox_port {
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

static struct sbox_port sbox_port[SBOX_NPORT];
static int sbox_nports;
static int sbox_irq;
static int sbox_ier;

static DECLARE_TASK_QUEUE(tq_sbox);

static struct tty_driver sbox_driver;
static int sbox_refcount;
static struct tty_struct *sbox_table[SBOX_NPORT];
static struct termios *sbox_termios[SBOX_NPORT];
static struct termios *sbox_termios_locked[SBOX_NPORT];
static unsigned char *tmp_buf;
static DECLARE_MUTEX(tmp_buf_sem);

static inline int sbox_paranoia_check(struct sbox_port *port, kdev_t device,
				      const char *routine)
{
	if (!port) {
		printk(KERN_WARNING "sbox: null port for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	if (port->magic != SBOX_MAGIC) {
		printk(KERN_WARNING "sbox: bad magic for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	return 0;
}

static inline void sbox_select(struct sbox_port *port)
{
	outb(port->line, io + SB_CHSEL);
}

/*
 * The bottom half: run what the interrupt handler queued.
 */
static void do_sbox_bh(void)
{
	run_task_queue(&tq_sbox);
}

static inline void sbox_sched_event(struct sbox_port *port, int event)
{
	set_bit(event, &port->event);
	queue_task(&port->tqueue, &tq_sbox);
	mark_bh(SBOX_BH);
}

/* from the bottom half: writers may go on */
static void do_softint(void *private_)
{
	struct sbox_port *port = (struct sbox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (!tty)
		return;
	if (test_and_clear_bit(SB_EVENT_WRITE_WAKEUP, &port->event)) {
		if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
		    tty->ldisc.write_wakeup)
			(tty->ldisc.write_wakeup)(tty);
		wake_up_interruptible(&tty->write_wait);
	}
}

/* from keventd: the carrier went away */
static void do_sbox_hangup(void *private_)
{
	struct sbox_port *port = (struct sbox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (tty)
		tty_hangup(tty);
}

static void sbox_receive(struct sbox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count;

	sbox_select(port);
	count = inb(io + SB_RXCNT) & 0x1f;
	if (count > 16)
		count = 16;
	if (!tty) {
		while (count--)
			inb(io + SB_DATA);
		return;
	}
	port->icount.rx += count;
	while (count--) {
		if (tty->flip.count >= TTY_FLIPBUF_SIZE) {
			printk(KERN_WARNING "sbox%d: flip buffer overflow\n",
			       port->line);
			inb(io + SB_DATA);
			continue;
		}
		*tty->flip.char_buf_ptr++ = inb(io + SB_DATA);
		*tty->flip.flag_buf_ptr++ = TTY_NORMAL;
		tty->flip.count++;
	}
	tty_flip_buffer_push(tty);
}

static void sbox_transmit(struct sbox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count = SBOX_FIFO;

	if (!tty || !port->xmit_buf)
		return;
	sbox_select(port);
	while (port->xmit_cnt > 0 && count-- > 0 && !tty->stopped &&
	       !tty->hw_stopped) {
		outb(port->xmit_buf[port->xmit_tail++], io + SB_DATA);
		port->xmit_tail &= SERIAL_XMIT_SIZE - 1;
		port->xmit_cnt--;
		port->icount.tx++;
	}
	if (port->xmit_cnt < WAKEUP_CHARS)
		sbox_sched_event(port, SB_EVENT_WRITE_WAKEUP);
}

static void sbox_modem(struct sbox_port *port)
{
	unsigned char msr;

	sbox_select(port);
	msr = inb(io + SB_MSR);
	if (!(msr & SB_MSR_DELTA))
		return;
	if ((msr ^ port->msr) & SB_MSR_DCD) {
		port->icount.dcd++;
		if (msr & SB_MSR_DCD)
			wake_up_interruptible(&port->open_wait);
		else if (port->tty && !C_CLOCAL(port->tty))
			schedule_task(&port->tqueue_hangup);
	}
	if ((msr ^ port->msr) & SB_MSR_CTS)
		port->icount.cts++;
	port->msr = msr & ~SB_MSR_DELTA;
}

static void sbox_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	unsigned char isr;
	int loops = 0, i;

	while ((isr = inb(io + SB_ISR)) && loops++ < 8) {
		for (i = 0; i < SBOX_NPORT; i++) {
			struct sbox_port *port = &sbox_port[i];

			if (!(port->flags & ASYNC_INITIALIZED))
				continue;
			if (isr & (1 << i))
				sbox_receive(port);
			if (isr & (0x10 << i))
				sbox_transmit(port);
			sbox_modem(port);
		}
	}
}

/* --- the board ----------------------------------------------------------- */

/* the scratch register reads back, and the identity byte is ours */
static int __init sbox_probe(void)
{
	unsigned char a, b;

	if (check_region(io, SBOX_IO_RANGE))
		return -EBUSY;
	outb(0x5a, io + SB_SCR);
	a = inb(io + SB_SCR);
	outb(0xa5, io + SB_SCR);
	b = inb(io + SB_SCR);
	if (a != 0x5a || b != 0xa5 || inb(io + SB_ID) != sbox_type->id) {
		printk(KERN_INFO "sbox: no board at 0x%03x\n", io);
		return -ENODEV;
	}
	sbox_irq = irq;
	request_region(io, SBOX_IO_RANGE, "sbox");
	printk(KERN_INFO "sbox: %s at 0x%03x, IRQ %d\n", sbox_type->name, io,
	       sbox_irq);
	return 0;
}

/* --- ports --------------------------------------------------------------- */

static void sbox_set_mcr(struct sbox_port *port)
{
	sbox_select(port);
	outb(port->mcr, io + SB_MCR);
}

static int sbox_startup(struct sbox_port *port)
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
	port->mcr = SB_MCR_DTR | SB_MCR_RTS;
	sbox_set_mcr(port);
	sbox_select(port);
	port->msr = inb(io + SB_MSR) & ~SB_MSR_DELTA;
	port->flags |= ASYNC_INITIALIZED;
	restore_flags(flags);
	return 0;
}

static void sbox_shutdown(struct sbox_port *port)
{
	unsigned long flags;

	if (!(port->flags & ASYNC_INITIALIZED))
		return;
	save_flags(flags);
	cli();
	if (!port->tty || (port->tty->termios->c_cflag & HUPCL)) {
		port->mcr &= ~(SB_MCR_DTR | SB_MCR_RTS);
		sbox_set_mcr(port);
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
			   struct sbox_port *port)
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
		    (C_CLOCAL(tty) || (port->msr & SB_MSR_DCD)))
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

static int sbox_open(struct tty_struct *tty, struct file *filp)
{
	int line = MINOR(tty->device) - tty->driver.minor_start;
	struct sbox_port *port;
	unsigned long page;
	int error;

	if (line < 0 || line >= sbox_nports)
		return -ENODEV;
	port = &sbox_port[line];
	if (sbox_paranoia_check(port, tty->device, "sbox_open"))
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
	error = sbox_startup(port);
	if (error)
		return error;
	error = block_til_ready(tty, filp, port);
	if (error)
		return error;
	return 0;
}

static void sbox_close(struct tty_struct *tty, struct file *filp)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;
	unsigned long flags;

	if (!port || sbox_paranoia_check(port, tty->device, "sbox_close"))
		return;
	save_flags(flags);
	cli();
	if (tty_hung_up_p(filp)) {
		MOD_DEC_USE_COUNT;
		restore_flags(flags);
		return;
	}
	if ((tty->count == 1) && (port->count != 1)) {
		printk(KERN_WARNING "sbox%d: bad port count %d\n", port->line,
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
	sbox_shutdown(port);
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

static int sbox_write(struct tty_struct *tty, int from_user,
		      const unsigned char *buf, int count)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;
	unsigned long flags;
	int c, total = 0;

	if (sbox_paranoia_check(port, tty->device, "sbox_write"))
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
		outb(sbox_ier | SB_IER_TX, io + SB_IER);
	restore_flags(flags);
	return total;
}

static void sbox_put_char(struct tty_struct *tty, unsigned char ch)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;
	unsigned long flags;

	if (sbox_paranoia_check(port, tty->device, "sbox_put_char"))
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

static void sbox_flush_chars(struct tty_struct *tty)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;

	if (sbox_paranoia_check(port, tty->device, "sbox_flush_chars"))
		return;
	if (port->xmit_cnt <= 0 || tty->stopped || tty->hw_stopped ||
	    !port->xmit_buf)
		return;
	outb(sbox_ier | SB_IER_TX, io + SB_IER);
}

static int sbox_write_room(struct tty_struct *tty)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;
	int ret;

	if (sbox_paranoia_check(port, tty->device, "sbox_write_room"))
		return 0;
	ret = SERIAL_XMIT_SIZE - port->xmit_cnt - 1;
	return ret < 0 ? 0 : ret;
}

static int sbox_chars_in_buffer(struct tty_struct *tty)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;

	if (sbox_paranoia_check(port, tty->device, "sbox_chars_in_buffer"))
		return 0;
	return port->xmit_cnt;
}

static void sbox_flush_buffer(struct tty_struct *tty)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;
	unsigned long flags;

	if (sbox_paranoia_check(port, tty->device, "sbox_flush_buffer"))
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

static int sbox_get_modem_info(struct sbox_port *port, unsigned int *value)
{
	unsigned char msr;
	unsigned int result;
	unsigned long flags;

	save_flags(flags);
	cli();
	sbox_select(port);
	msr = inb(io + SB_MSR);
	restore_flags(flags);
	result = ((port->mcr & SB_MCR_DTR) ? TIOCM_DTR : 0) |
		 ((port->mcr & SB_MCR_RTS) ? TIOCM_RTS : 0) |
		 ((msr & SB_MSR_DCD) ? TIOCM_CAR : 0) |
		 ((msr & SB_MSR_CTS) ? TIOCM_CTS : 0) |
		 ((msr & SB_MSR_DSR) ? TIOCM_DSR : 0) |
		 ((msr & SB_MSR_RI) ? TIOCM_RNG : 0);
	return put_user(result, value);
}

static int sbox_set_modem_info(struct sbox_port *port, unsigned int cmd,
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
			port->mcr |= SB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr |= SB_MCR_DTR;
		break;
	case TIOCMBIC:
		if (arg & TIOCM_RTS)
			port->mcr &= ~SB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr &= ~SB_MCR_DTR;
		break;
	case TIOCMSET:
		port->mcr = ((arg & TIOCM_RTS) ? SB_MCR_RTS : 0) |
			    ((arg & TIOCM_DTR) ? SB_MCR_DTR : 0);
		break;
	default:
		restore_flags(flags);
		return -EINVAL;
	}
	sbox_set_mcr(port);
	restore_flags(flags);
	return 0;
}

static int sbox_get_serial_info(struct sbox_port *port,
				struct serial_struct *retinfo)
{
	struct serial_struct tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = PORT_16550A;
	tmp.line = port->line;
	tmp.port = io;
	tmp.irq = sbox_irq;
	tmp.flags = port->flags;
	tmp.baud_base = 115200;
	tmp.close_delay = port->close_delay * HZ / 100;
	tmp.closing_wait = port->closing_wait * HZ / 100;
	tmp.xmit_fifo_size = SBOX_FIFO;
	if (copy_to_user(retinfo, &tmp, sizeof(*retinfo)))
		return -EFAULT;
	return 0;
}

static int sbox_set_serial_info(struct sbox_port *port,
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

static int sbox_ioctl(struct tty_struct *tty, struct file *filp,
		      unsigned int cmd, unsigned long arg)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;
	struct serial_icounter_struct icount;

	if (sbox_paranoia_check(port, tty->device, "sbox_ioctl"))
		return -ENODEV;
	switch (cmd) {
	case TIOCMGET:
		return sbox_get_modem_info(port, (unsigned int *) arg);
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		return sbox_set_modem_info(port, cmd, (unsigned int *) arg);
	case TIOCGSERIAL:
		return sbox_get_serial_info(port, (struct serial_struct *) arg);
	case TIOCSSERIAL:
		return sbox_set_serial_info(port, (struct serial_struct *) arg);
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

static void sbox_throttle(struct tty_struct *tty)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;
	unsigned long flags;

	if (sbox_paranoia_check(port, tty->device, "sbox_throttle"))
		return;
	save_flags(flags);
	cli();
	port->mcr &= ~SB_MCR_RTS;
	sbox_set_mcr(port);
	restore_flags(flags);
}

static void sbox_unthrottle(struct tty_struct *tty)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;
	unsigned long flags;

	if (sbox_paranoia_check(port, tty->device, "sbox_unthrottle"))
		return;
	save_flags(flags);
	cli();
	port->mcr |= SB_MCR_RTS;
	sbox_set_mcr(port);
	restore_flags(flags);
}

static void sbox_stop(struct tty_struct *tty)
{
	outb(sbox_ier & ~SB_IER_TX, io + SB_IER);
}

static void sbox_start(struct tty_struct *tty)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;

	if (port->xmit_cnt && port->xmit_buf)
		outb(sbox_ier | SB_IER_TX, io + SB_IER);
}

static void sbox_hangup(struct tty_struct *tty)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;

	if (sbox_paranoia_check(port, tty->device, "sbox_hangup"))
		return;
	sbox_shutdown(port);
	port->event = 0;
	port->count = 0;
	port->flags &= ~ASYNC_NORMAL_ACTIVE;
	port->tty = 0;
	wake_up_interruptible(&port->open_wait);
}

static void sbox_set_termios(struct tty_struct *tty, struct termios *old)
{
	struct sbox_port *port = (struct sbox_port *) tty->driver_data;
	unsigned long flags;

	if (tty->termios->c_cflag == old->c_cflag)
		return;
	save_flags(flags);
	cli();
	if (tty_get_baud_rate(tty))
		port->mcr |= SB_MCR_DTR;
	else
		port->mcr &= ~SB_MCR_DTR;
	sbox_set_mcr(port);
	restore_flags(flags);
	if ((old->c_cflag & CRTSCTS) && !(tty->termios->c_cflag & CRTSCTS)) {
		tty->hw_stopped = 0;
		sbox_start(tty);
	}
}

/* --- the module ---------------------------------------------------------- */

static int __init sbox_init_drivers(void)
{
	int i;

	memset(&sbox_driver, 0, sizeof(sbox_driver));
	sbox_driver.magic = TTY_DRIVER_MAGIC;
	sbox_driver.driver_name = "sbox";
	sbox_driver.name = "ttyB";
	sbox_driver.major = SBOX_NORMAL_MAJOR;
	sbox_driver.num = sbox_nports;
	sbox_driver.type = TTY_DRIVER_TYPE_SERIAL;
	sbox_driver.subtype = SERIAL_TYPE_NORMAL;
	sbox_driver.init_termios = tty_std_termios;
	sbox_driver.init_termios.c_cflag = B9600 | CS8 | CREAD | HUPCL | CLOCAL;
	sbox_driver.flags = TTY_DRIVER_REAL_RAW;
	sbox_driver.refcount = &sbox_refcount;
	sbox_driver.table = sbox_table;
	sbox_driver.termios = sbox_termios;
	sbox_driver.termios_locked = sbox_termios_locked;

	sbox_driver.open = sbox_open;
	sbox_driver.close = sbox_close;
	sbox_driver.write = sbox_write;
	sbox_driver.put_char = sbox_put_char;
	sbox_driver.flush_chars = sbox_flush_chars;
	sbox_driver.write_room = sbox_write_room;
	sbox_driver.chars_in_buffer = sbox_chars_in_buffer;
	sbox_driver.flush_buffer = sbox_flush_buffer;
	sbox_driver.ioctl = sbox_ioctl;
	sbox_driver.throttle = sbox_throttle;
	sbox_driver.unthrottle = sbox_unthrottle;
	sbox_driver.set_termios = sbox_set_termios;
	sbox_driver.stop = sbox_stop;
	sbox_driver.start = sbox_start;
	sbox_driver.hangup = sbox_hangup;

	for (i = 0; i < SBOX_NPORT; i++) {
		struct sbox_port *port = &sbox_port[i];

		memset(port, 0, sizeof(*port));
		port->magic = SBOX_MAGIC;
		port->line = i;
		port->close_delay = 5 * HZ / 10;
		port->closing_wait = 30 * HZ;
		port->tqueue.routine = do_softint;
		port->tqueue.data = port;
		port->tqueue_hangup.routine = do_sbox_hangup;
		port->tqueue_hangup.data = port;
		init_waitqueue_head(&port->open_wait);
		init_waitqueue_head(&port->close_wait);
	}
	if (tty_register_driver(&sbox_driver)) {
		printk(KERN_ERR "sbox: couldn't register the tty driver\n");
		return -EIO;
	}
	return 0;
}

/* board=TYPE,IO,IRQ, as stallion's board0= */
static int __init sbox_parse(void)
{
	int i;

	if (!board[0] || !*board[0]) {
		printk(KERN_INFO "sbox: no board given (board=type,io,irq)\n");
		return -ENODEV;
	}
	for (i = 0; i < sizeof(sbox_types) / sizeof(sbox_types[0]); i++)
		if (!strcmp(board[0], sbox_types[i].name))
			break;
	if (i == sizeof(sbox_types) / sizeof(sbox_types[0])) {
		printk(KERN_INFO "sbox: unknown board %s\n", board[0]);
		return -ENODEV;
	}
	sbox_type = &sbox_types[i];
	sbox_nports = sbox_type->nports;
	io = board[1] ? simple_strtoul(board[1], NULL, 0) : 0;
	irq = board[2] ? simple_strtoul(board[2], NULL, 0) : 0;
	if (io < 0x100 || io > 0x3f8 || irq <= 0 || irq > 15) {
		printk(KERN_INFO "sbox: %s needs a port and a line\n",
		       sbox_type->name);
		return -EINVAL;
	}
	return 0;
}

static int __init sbox_init(void)
{
	int error;

	printk(KERN_INFO "sbox: SBox driver, the sandbox's own\n");
	error = sbox_parse();
	if (error)
		return error;
	error = sbox_probe();
	if (error)
		return error;
	init_bh(SBOX_BH, do_sbox_bh);
	error = sbox_init_drivers();
	if (error)
		goto out_bh;
	error = request_irq(sbox_irq, sbox_interrupt, SA_INTERRUPT, "sbox",
			    sbox_port);
	if (error) {
		printk(KERN_ERR "sbox: IRQ %d busy\n", sbox_irq);
		tty_unregister_driver(&sbox_driver);
		goto out_bh;
	}
	sbox_ier = SB_IER_RX | SB_IER_MODEM;
	outb(sbox_ier, io + SB_IER);
	return 0;

out_bh:
	remove_bh(SBOX_BH);
	release_region(io, SBOX_IO_RANGE);
	return error;
}

static void __exit sbox_exit(void)
{
	outb(0, io + SB_IER);
	free_irq(sbox_irq, sbox_port);
	if (tty_unregister_driver(&sbox_driver))
		printk(KERN_ERR "sbox: couldn't unregister the tty driver\n");
	remove_bh(SBOX_BH);
	if (tmp_buf) {
		free_page((unsigned long) tmp_buf);
		tmp_buf = 0;
	}
	release_region(io, SBOX_IO_RANGE);
}

module_init(sbox_init);
module_exit(sbox_exit);
