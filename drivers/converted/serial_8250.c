/*
 * serial_8250.c - an 8250/16550 serial driver, the parts that feed the
 * tty layer's deferred work, as of 2.5.39.
 *
 * Receive: the interrupt moves characters from the UART into the tty's
 * flip buffer; when the buffer is full it calls the flip routine itself,
 * through tty->flip.tqueue.routine, and gives up if TTY_DONT_FLIP kept it
 * full; at the end it pushes the buffer (tty_flip_buffer_push).
 *
 * Transmit: as the 2.4 serial driver did it, the interrupt refills the
 * UART from the port's circular buffer, and once that has drained below
 * WAKEUP_CHARS it schedules the write wakeup on tq_immediate and marks
 * IMMEDIATE_BH (rs_sched_event), so writers are woken in bottom-half
 * context.
 *
 * The UARTs are simulated (world/uart.c); serial_in/serial_out stand for
 * inb/outb.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>
#include <linux/tty.h>
#include <linux/tty_flip.h>
#include <asm/bitops.h>

#include <entry/tty.h>
#include <world/irq.h>
#include <world/uart.h>

#define UART_NR			4
#define PASS_LIMIT		256
#define WAKEUP_CHARS		256
#define SERIAL_XMIT_SIZE	4096
#define SERIAL_MAGIC		0x5301

#define ASYNC_INITIALIZED	0x80000000

/* the events the bottom half handles */
#define RS_EVENT_WRITE_WAKEUP	0

struct async_icount {
	unsigned long rx, tx, frame, parity, overrun, brk, buf_overrun;
	unsigned long write_wakeups;
};

struct uart_8250_port {
	int			magic;
	int			line;
	unsigned int		irq;
	struct sim_uart		*hw;	/* where the registers are */
	spinlock_t		lock;
	int			flags;
	unsigned char		ier;
	unsigned char		mcr;
	struct tty_struct	*tty;
	unsigned long		event;
	struct work_struct	work;
	unsigned char		*xmit_buf;
	int			xmit_head;
	int			xmit_tail;
	int			xmit_cnt;
	struct async_icount	icount;
};

static struct uart_8250_port serial8250_ports[UART_NR];

static inline unsigned char serial_in(struct uart_8250_port *up, int offset)
{
	return sim_uart_in(up->hw, offset);
}

static inline void serial_out(struct uart_8250_port *up, int offset, int value)
{
	sim_uart_out(up->hw, offset, value);
}

/*
 * This routine is used by the interrupt handler to schedule
 * processing in the software interrupt portion of the driver.
 */
static inline void rs_sched_event(struct uart_8250_port *up, int event)
{
	up->event |= 1 << event;
	/* was an immediate bottom half: this work now runs in process context */
	schedule_work(&up->work);
}

/*
 * The bottom half: runs from tq_immediate, in bottom-half context.
 * up->lock keeps the tty from being released under us.
 */
static void do_softint(void *private_)
{
	struct uart_8250_port *up = (struct uart_8250_port *) private_;
	struct tty_struct *tty;
	unsigned long flags;

	spin_lock_irqsave(&up->lock, flags);
	tty = up->tty;
	if (tty && test_and_clear_bit(RS_EVENT_WRITE_WAKEUP, &up->event)) {
		up->icount.write_wakeups++;
		tty_wakeup(tty);
	}
	spin_unlock_irqrestore(&up->lock, flags);
}

static void receive_chars(struct uart_8250_port *up, int *status)
{
	struct tty_struct *tty = up->tty;
	unsigned char ch;
	char flag;
	int max_count = 256;

	do {
		if (unlikely(tty->flip.count >= TTY_FLIPBUF_SIZE)) {
			tty->flip.work.func((void *)tty);
			if (tty->flip.count >= TTY_FLIPBUF_SIZE)
				return; // if TTY_DONT_FLIP is set
		}
		ch = serial_in(up, UART_RX);
		flag = TTY_NORMAL;
		up->icount.rx++;

		if (unlikely(*status & (UART_LSR_BI | UART_LSR_PE |
					UART_LSR_FE | UART_LSR_OE))) {
			if (*status & UART_LSR_BI) {
				up->icount.brk++;
				flag = TTY_BREAK;
			} else if (*status & UART_LSR_PE) {
				up->icount.parity++;
				flag = TTY_PARITY;
			} else if (*status & UART_LSR_FE) {
				up->icount.frame++;
				flag = TTY_FRAME;
			}
			if (*status & UART_LSR_OE)
				up->icount.overrun++;
		}
		spin_lock(&tty->flip.lock);
		tty_insert_flip_char(tty, ch, flag);
		spin_unlock(&tty->flip.lock);
		*status = serial_in(up, UART_LSR);
	} while ((*status & UART_LSR_DR) && (max_count-- > 0));
	tty_flip_buffer_push(tty);
}

static void transmit_chars(struct uart_8250_port *up)
{
	struct tty_struct *tty = up->tty;
	int count;

	if (up->xmit_cnt <= 0 || tty->stopped || tty->hw_stopped) {
		up->ier &= ~UART_IER_THRI;
		serial_out(up, UART_IER, up->ier);
		return;
	}

	count = SIM_UART_TX_FIFO;
	do {
		serial_out(up, UART_TX, up->xmit_buf[up->xmit_tail++]);
		up->xmit_tail &= SERIAL_XMIT_SIZE - 1;
		up->icount.tx++;
		if (--up->xmit_cnt <= 0)
			break;
	} while (--count > 0);

	if (up->xmit_cnt < WAKEUP_CHARS)
		rs_sched_event(up, RS_EVENT_WRITE_WAKEUP);

	if (up->xmit_cnt <= 0) {
		up->ier &= ~UART_IER_THRI;
		serial_out(up, UART_IER, up->ier);
	}
}

/*
 * This is the serial driver's interrupt routine.
 */
static void serial8250_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct uart_8250_port *up = dev_id;
	int pass_counter = 0;

	spin_lock(&up->lock);
	do {
		int iir, status;

		iir = serial_in(up, UART_IIR);
		if (iir & UART_IIR_NO_INT)
			break;
		if (!up->tty || !(up->flags & ASYNC_INITIALIZED))
			break;

		status = serial_in(up, UART_LSR);
		if (status & UART_LSR_DR)
			receive_chars(up, &status);
		if ((iir & UART_IIR_ID) == UART_IIR_THRI ||
		    (status & UART_LSR_THRE))
			transmit_chars(up);

		if (pass_counter++ > PASS_LIMIT)
			break;
	} while (1);
	spin_unlock(&up->lock);
}

static int serial8250_startup(struct uart_8250_port *up)
{
	unsigned long flags;
	unsigned char *page;
	int retval;

	up->hw = sim_uart_line(up->line);
	if (!up->hw)
		return -ENODEV;
	up->irq = sim_uart_irq(up->hw);

	page = kmalloc(SERIAL_XMIT_SIZE, GFP_KERNEL);
	if (!page)
		return -ENOMEM;

	spin_lock_irqsave(&up->lock, flags);
	up->xmit_buf = page;
	up->xmit_head = up->xmit_tail = up->xmit_cnt = 0;
	up->event = 0;
	spin_unlock_irqrestore(&up->lock, flags);

	retval = request_irq(up->irq, serial8250_interrupt, SA_SHIRQ,
			     "serial", up);
	if (retval) {
		spin_lock_irqsave(&up->lock, flags);
		up->xmit_buf = NULL;
		spin_unlock_irqrestore(&up->lock, flags);
		kfree(page);
		return retval;
	}

	spin_lock_irqsave(&up->lock, flags);
	/* keep the line's wiring (loopback or not), raise DTR and RTS */
	up->mcr = (serial_in(up, UART_MCR) & UART_MCR_LOOP) |
		  UART_MCR_DTR | UART_MCR_RTS | UART_MCR_OUT2;
	serial_out(up, UART_MCR, up->mcr);
	up->ier = UART_IER_RLSI | UART_IER_RDI;
	serial_out(up, UART_IER, up->ier);
	up->flags |= ASYNC_INITIALIZED;
	spin_unlock_irqrestore(&up->lock, flags);
	return 0;
}

static void serial8250_shutdown(struct uart_8250_port *up)
{
	unsigned long flags;
	unsigned char *page;

	spin_lock_irqsave(&up->lock, flags);
	if (!(up->flags & ASYNC_INITIALIZED)) {
		spin_unlock_irqrestore(&up->lock, flags);
		return;
	}
	up->flags &= ~ASYNC_INITIALIZED;
	up->ier = 0;
	serial_out(up, UART_IER, 0);
	up->mcr &= UART_MCR_LOOP;
	serial_out(up, UART_MCR, up->mcr);
	spin_unlock_irqrestore(&up->lock, flags);

	free_irq(up->irq, up);

	spin_lock_irqsave(&up->lock, flags);
	page = up->xmit_buf;
	up->xmit_buf = NULL;
	up->xmit_cnt = up->xmit_head = up->xmit_tail = 0;
	spin_unlock_irqrestore(&up->lock, flags);
	kfree(page);
}

static int serial8250_open(struct tty_struct *tty, void *filp)
{
	struct uart_8250_port *up;
	unsigned long flags;
	int retval;

	if (tty->index < 0 || tty->index >= UART_NR)
		return -ENODEV;
	up = &serial8250_ports[tty->index];

	spin_lock_irqsave(&up->lock, flags);
	if (up->tty) {
		spin_unlock_irqrestore(&up->lock, flags);
		return -EBUSY;
	}
	up->tty = tty;
	spin_unlock_irqrestore(&up->lock, flags);
	tty->driver_data = up;

	retval = serial8250_startup(up);
	if (retval) {
		spin_lock_irqsave(&up->lock, flags);
		up->tty = NULL;
		spin_unlock_irqrestore(&up->lock, flags);
		tty->driver_data = NULL;
	}
	return retval;
}

static void serial8250_close(struct tty_struct *tty, void *filp)
{
	struct uart_8250_port *up = tty->driver_data;
	unsigned long flags;

	if (!up)
		return;
	serial8250_shutdown(up);
	spin_lock_irqsave(&up->lock, flags);
	up->tty = NULL;
	up->event = 0;
	spin_unlock_irqrestore(&up->lock, flags);
	tty->driver_data = NULL;
}

static int serial8250_write(struct tty_struct *tty, int from_user,
			    const unsigned char *buf, int count)
{
	struct uart_8250_port *up = tty->driver_data;
	unsigned long flags;
	int c, ret = 0;

	if (!up)
		return -EIO;
	spin_lock_irqsave(&up->lock, flags);
	if (!up->xmit_buf) {
		spin_unlock_irqrestore(&up->lock, flags);
		return -EIO;
	}
	while (count > 0) {
		c = min_t(int, count, min_t(int,
			  SERIAL_XMIT_SIZE - up->xmit_cnt - 1,
			  SERIAL_XMIT_SIZE - up->xmit_head));
		if (c <= 0)
			break;
		memcpy(up->xmit_buf + up->xmit_head, buf, c);
		up->xmit_head = (up->xmit_head + c) & (SERIAL_XMIT_SIZE - 1);
		up->xmit_cnt += c;
		buf += c;
		count -= c;
		ret += c;
	}
	if (up->xmit_cnt && !tty->stopped && !(up->ier & UART_IER_THRI)) {
		up->ier |= UART_IER_THRI;
		serial_out(up, UART_IER, up->ier);
	}
	spin_unlock_irqrestore(&up->lock, flags);
	return ret;
}

static int serial8250_write_room(struct tty_struct *tty)
{
	struct uart_8250_port *up = tty->driver_data;
	unsigned long flags;
	int ret;

	if (!up)
		return 0;
	spin_lock_irqsave(&up->lock, flags);
	ret = up->xmit_buf ? SERIAL_XMIT_SIZE - up->xmit_cnt - 1 : 0;
	spin_unlock_irqrestore(&up->lock, flags);
	return ret < 0 ? 0 : ret;
}

static int serial8250_chars_in_buffer(struct tty_struct *tty)
{
	struct uart_8250_port *up = tty->driver_data;

	return up ? up->xmit_cnt : 0;
}

static void serial8250_flush_buffer(struct tty_struct *tty)
{
	struct uart_8250_port *up = tty->driver_data;
	unsigned long flags;

	if (!up)
		return;
	spin_lock_irqsave(&up->lock, flags);
	up->xmit_cnt = up->xmit_head = up->xmit_tail = 0;
	spin_unlock_irqrestore(&up->lock, flags);
	wake_up_interruptible(&tty->write_wait);
}

/* called from do_tty_hangup(), in process context */
static void serial8250_hangup(struct tty_struct *tty)
{
	struct uart_8250_port *up = tty->driver_data;

	if (!up)
		return;
	serial8250_flush_buffer(tty);
	serial8250_shutdown(up);
}

struct tty_driver serial8250_driver = {
	.magic		= TTY_DRIVER_MAGIC,
	.driver_name	= "serial",
	.name		= "ttyS",
	.major		= 4,
	.minor_start	= 64,
	.num		= UART_NR,
	.type		= TTY_DRIVER_TYPE_SERIAL,
	.subtype	= SERIAL_TYPE_NORMAL,
	.open		= serial8250_open,
	.close		= serial8250_close,
	.write		= serial8250_write,
	.write_room	= serial8250_write_room,
	.chars_in_buffer = serial8250_chars_in_buffer,
	.flush_buffer	= serial8250_flush_buffer,
	.hangup		= serial8250_hangup,
};

unsigned long serial8250_write_wakeups(int line)
{
	if (line < 0 || line >= UART_NR)
		return 0;
	return serial8250_ports[line].icount.write_wakeups;
}

int __init serial8250_init(void)
{
	int i;

	for (i = 0; i < UART_NR; i++) {
		struct uart_8250_port *up = &serial8250_ports[i];

		memset(up, 0, sizeof(*up));
		up->magic = SERIAL_MAGIC;
		up->line = i;
		spin_lock_init(&up->lock);
		INIT_WORK(&up->work, do_softint, up);
	}
	printk(KERN_INFO "Serial: 8250/16550 driver, %d ports\n", UART_NR);
	return 0;
}

void __exit serial8250_exit(void)
{
	int i;

	for (i = 0; i < UART_NR; i++) {
		struct uart_8250_port *up = &serial8250_ports[i];

		if (up->tty)
			printk(KERN_WARNING "ttyS%d still open at exit\n", i);
		if (up->work.pending)
			printk(KERN_WARNING "ttyS%d: write wakeup still queued\n", i);
	}
}

MODULE_LICENSE("GPL");
