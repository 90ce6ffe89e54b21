/*
 *  flipper.c  -- driver for the Flipper/2 dual serial board.
 *
 *  A made-up ISA board, and a driver written as 2.4.0's drivers that
 *  push their own flip buffers were (riscom8, isicom): the interrupt
 *  handler fills tty->flip and queues the tty layer's flush_to_ldisc on
 *  tq_timer itself, the write wakeup goes through tq_immediate and the
 *  immediate bottom half, a lost carrier hangs up from keventd
 *  (schedule_task), a break is timed with schedule_timeout(), a close
 *  polls the transmitter until it is empty (as serial.c's
 *  rs_wait_until_sent()), and a timer runs the interrupt routine now and
 *  then while a port is open, for the interrupts a board loses (as
 *  serial.c's rs_timer()).  Up to two
 *  boards, at the ports and on the lines the module parameters say
 *  (io=, irq=, as "1-2i" arrays); a board is there when its identity
 *  register says so and its scratch register reads back.
 *
 *  A board: two channels of four ports each, channel n at io + 4n
 *	+0	DATA	received byte (read), byte to send (write)
 *	+1	STAT	RXRDY 1, TXEMPTY 2, DCD 4, DCD changed 8 (read)
 *		CTRL	RX interrupt 1, TX interrupt 2, DTR 4, RTS 8,
 *			BREAK 0x10 (write)
 *	+2	ID	0xf1 on channel 0 (read)
 *	+3	SCR	scratch (reads back)
 *
 *  Written for the sandbox's tests; not a board anybody made.  The
 *  generic device (drivers/include/world/device.h) plays one board at
 *  the default place: its identity byte, each channel's status with
 *  bytes to receive, room to send and now and then a carrier change:
 *
 *  SHIM_DEVICE="seed=3 0x1a2=0xf1 0x1a1@task=seeded 0x1a5@task=seeded 0x1a1@irq=0x07,0x07,0x07,0x06,0x0e,0x06* 0x1a5@irq=0x07,0x07,0x06,0x0a,0x02* 0x1a0@irq=seeded 0x1a4@irq=seeded"
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
#include <linux/init.h>

#include <asm/io.h>
#include <asm/irq.h>
#include <asm/system.h>
#include <asm/uaccess.h>

#define FLIP_NORMAL_MAJOR 241 /* local use (devices.txt) */
#define FLIP_MAX_BOARDS 2
#define FLIP_CHANNELS 2
#define FLIP_NPORT (FLIP_MAX_BOARDS * FLIP_CHANNELS)
#define FLIP_IO_RANGE (4 * FLIP_CHANNELS)
#define FLIP_ID 0xf1
#define FLIP_TX_FIFO 16
#define FLIP_RX_LOOPS 64 /* bytes taken in one interrupt */
#define FLIP_MAGIC 0x4631
#define WAKEUP_CHARS 256
#define FLIP_POLL (HZ / 50) /* the timer that finds lost interrupts */
#define FLIP_PASSES 8	    /* rounds of the channels in one interrupt */

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

#define FL_DATA 0
#define FL_STAT 1
#define FL_CTRL 1
#define FL_ID 2
#define FL_SCR 3

#define FL_STAT_RXRDY 0x01
#define FL_STAT_TXEMPTY 0x02
#define FL_STAT_DCD 0x04
#define FL_STAT_DDCD 0x08
#define FL_CTRL_RXI 0x01
#define FL_CTRL_TXI 0x02
#define FL_CTRL_DTR 0x04
#define FL_CTRL_RTS 0x08
#define FL_CTRL_BREAK 0x10

#define FL_EVENT_WRITE_WAKEUP 0

static int io[FLIP_MAX_BOARDS] = { 0x1a0, 0 };
static int irq[FLIP_MAX_BOARDS] = { 5, 0 };

MODULE_AUTHOR("the workqueue sandbox");
MODULE_DESCRIPTION("Flipper/2 dual serial board (made up)");
MODULE_PARM(io, "1-" __MODULE_STRING(FLIP_MAX_BOARDS) "i");
MODULE_PARM_DESC(io, "the boards' base ports");
MODULE_PARM(irq, "1-" __MODULE_STRING(FLIP_MAX_BOARDS) "i");
MODULE_PARM_DESC(irq, "the boards' interrupt lines");

struct flip_board {
	int base;
	int irq;
	int present;
};

struct flip_port {
	int magic;
	int line;
	int base;
	struct flip_board *board;
	int flags;
	int count;
	int close_delay;
	unsigned short closing_wait;
	unsigned char ctrl;
	unsigned char stat;
	unsigned long event;
	struct tty_struct *tty;
	unsigned char *xmit_buf;
	int xmit_head;
	int xmit_tail;
	int xmit_cnt;
	struct async_icount icount;
	struct tq_struct tqueue;
	struct tq_struct tqueue_hangup;
	wait_queue_head_t close_wait;
};

static struct flip_board flip_board[FLIP_MAX_BOARDS];
static struct flip_port flip_port[FLIP_NPORT];
static struct timer_list flip_timer;

static struct tty_driver flip_driver;
static int flip_refcount;
static struct tty_struct *flip_table[FLIP_NPORT];
static struct termios *flip_termios[FLIP_NPORT];
static struct termios *flip_termios_locked[FLIP_NPORT];

static inline int flip_paranoia_check(struct flip_port *port, kdev_t device,
				      const char *routine)
{
	if (!port || port->magic != FLIP_MAGIC) {
		printk(KERN_WARNING "flipper: bad port for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	return 0;
}

static inline void flip_out_ctrl(struct flip_port *port)
{
	outb(port->ctrl, port->base + FL_CTRL);
}

/* from the immediate bottom half: writers may go on */
static void do_flip_softint(void *private_)
{
	struct flip_port *port = (struct flip_port *) private_;
	struct tty_struct *tty = port->tty;

	if (!tty)
		return;
	if (test_and_clear_bit(FL_EVENT_WRITE_WAKEUP, &port->event)) {
		if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
		    tty->ldisc.write_wakeup)
			(tty->ldisc.write_wakeup)(tty);
		wake_up_interruptible(&tty->write_wait);
	}
}

/* from keventd: the carrier went away */
static void do_flip_hangup(void *private_)
{
	struct flip_port *port = (struct flip_port *) private_;
	struct tty_struct *tty = port->tty;

	if (tty)
		tty_hangup(tty);
}

/*
 * Take what the channel has into the flip buffer, and have the tty layer
 * deliver it at the next tick (tq_timer), as riscom8 does.
 */
static void flip_receive(struct flip_port *port)
{
	struct tty_struct *tty = port->tty;
	int loops = FLIP_RX_LOOPS;

	while ((inb(port->base + FL_STAT) & FL_STAT_RXRDY) && loops--) {
		unsigned char ch = inb(port->base + FL_DATA);

		port->icount.rx++;
		if (!tty || tty->flip.count >= TTY_FLIPBUF_SIZE)
			continue;
		*tty->flip.char_buf_ptr++ = ch;
		*tty->flip.flag_buf_ptr++ = TTY_NORMAL;
		tty->flip.count++;
	}
	if (tty)
		queue_task(&tty->flip.tqueue, &tq_timer);
}

static void flip_transmit(struct flip_port *port)
{
	struct tty_struct *tty = port->tty;
	int count = FLIP_TX_FIFO;

	if (!tty || !port->xmit_buf || port->xmit_cnt <= 0 || tty->stopped ||
	    tty->hw_stopped) {
		port->ctrl &= ~FL_CTRL_TXI;
		flip_out_ctrl(port);
		return;
	}
	while (port->xmit_cnt > 0 && count--) {
		outb(port->xmit_buf[port->xmit_tail++], port->base + FL_DATA);
		port->xmit_tail &= SERIAL_XMIT_SIZE - 1;
		port->xmit_cnt--;
		port->icount.tx++;
	}
	if (port->xmit_cnt < WAKEUP_CHARS) {
		set_bit(FL_EVENT_WRITE_WAKEUP, &port->event);
		queue_task(&port->tqueue, &tq_immediate);
		mark_bh(IMMEDIATE_BH);
	}
}

static void flip_check_modem(struct flip_port *port, unsigned char stat)
{
	if (!(stat & FL_STAT_DDCD))
		return;
	port->icount.dcd++;
	if (!(stat & FL_STAT_DCD) && port->tty && !C_CLOCAL(port->tty))
		schedule_task(&port->tqueue_hangup);
	port->stat = stat & ~FL_STAT_DDCD;
}

/* the board's channels, again while one had work, at most FLIP_PASSES times */
static void flip_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct flip_board *board = (struct flip_board *) dev_id;
	int i, pass, busy = 1;

	for (pass = 0; busy && pass < FLIP_PASSES; pass++) {
		busy = 0;
		for (i = 0; i < FLIP_NPORT; i++) {
			struct flip_port *port = &flip_port[i];
			unsigned char stat;

			if (port->board != board ||
			    !(port->flags & ASYNC_INITIALIZED))
				continue;
			stat = inb(port->base + FL_STAT);
			if (stat & FL_STAT_RXRDY) {
				flip_receive(port);
				busy = 1;
			}
			if ((stat & FL_STAT_TXEMPTY) &&
			    (port->ctrl & FL_CTRL_TXI)) {
				flip_transmit(port);
				busy = 1;
			}
			flip_check_modem(port, stat);
		}
	}
}

/*
 * Interrupts get lost: while a port is open, the timer runs the
 * interrupt routine of each board, the global interrupt lock held as
 * the routine expects.
 */
static void flip_poll(unsigned long unused)
{
	unsigned long flags;
	int i, open = 0;

	for (i = 0; i < FLIP_NPORT; i++)
		open |= flip_port[i].flags & ASYNC_INITIALIZED;
	if (!open)
		return;
	for (i = 0; i < FLIP_MAX_BOARDS; i++) {
		if (!flip_board[i].present)
			continue;
		save_flags(flags);
		cli();
		flip_interrupt(flip_board[i].irq, &flip_board[i], NULL);
		restore_flags(flags);
	}
	mod_timer(&flip_timer, jiffies + FLIP_POLL);
}

/* --- the boards ---------------------------------------------------------- */

static int __init flip_probe(struct flip_board *board)
{
	unsigned char a, b;

	if (check_region(board->base, FLIP_IO_RANGE))
		return -EBUSY;
	if (inb(board->base + FL_ID) != FLIP_ID)
		return -ENODEV;
	outb(0x55, board->base + FL_SCR);
	a = inb(board->base + FL_SCR);
	outb(0xaa, board->base + FL_SCR);
	b = inb(board->base + FL_SCR);
	if (a != 0x55 || b != 0xaa)
		return -ENODEV;
	request_region(board->base, FLIP_IO_RANGE, "flipper");
	board->present = 1;
	printk(KERN_INFO "flipper: Flipper/2 at 0x%03x, IRQ %d\n", board->base,
	       board->irq);
	return 0;
}

static void flip_release_boards(void)
{
	int i;

	for (i = 0; i < FLIP_MAX_BOARDS; i++) {
		struct flip_board *board = &flip_board[i];

		if (!board->present)
			continue;
		outb(0, board->base + FL_CTRL);
		outb(0, board->base + 4 + FL_CTRL);
		free_irq(board->irq, board);
		release_region(board->base, FLIP_IO_RANGE);
		board->present = 0;
	}
}

/* --- ports --------------------------------------------------------------- */

static int flip_startup(struct flip_port *port)
{
	unsigned long flags;
	unsigned long page;

	if (port->flags & ASYNC_INITIALIZED)
		return 0;
	page = get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	save_flags(flags);
	cli();
	if (port->xmit_buf)
		free_page(page);
	else
		port->xmit_buf = (unsigned char *) page;
	if (port->tty)
		clear_bit(TTY_IO_ERROR, &port->tty->flags);
	port->xmit_cnt = port->xmit_head = port->xmit_tail = 0;
	port->ctrl = FL_CTRL_RXI | FL_CTRL_DTR | FL_CTRL_RTS;
	flip_out_ctrl(port);
	port->stat = inb(port->base + FL_STAT) & ~FL_STAT_DDCD;
	port->flags |= ASYNC_INITIALIZED;
	if (!timer_pending(&flip_timer))
		mod_timer(&flip_timer, jiffies + FLIP_POLL);
	restore_flags(flags);
	return 0;
}

static void flip_shutdown(struct flip_port *port)
{
	unsigned long flags;

	if (!(port->flags & ASYNC_INITIALIZED))
		return;
	save_flags(flags);
	cli();
	port->ctrl &= ~(FL_CTRL_RXI | FL_CTRL_TXI | FL_CTRL_BREAK);
	if (!port->tty || (port->tty->termios->c_cflag & HUPCL))
		port->ctrl &= ~(FL_CTRL_DTR | FL_CTRL_RTS);
	flip_out_ctrl(port);
	if (port->xmit_buf) {
		free_page((unsigned long) port->xmit_buf);
		port->xmit_buf = 0;
	}
	if (port->tty)
		set_bit(TTY_IO_ERROR, &port->tty->flags);
	port->flags &= ~ASYNC_INITIALIZED;
	restore_flags(flags);
}

/*
 * Until the transmitter is empty (its FIFO, after the buffer): polled,
 * a tick between polls, at most @timeout ticks (0: no limit).
 */
static void flip_wait_until_sent(struct tty_struct *tty, int timeout)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long orig_jiffies = jiffies;

	if (flip_paranoia_check(port, tty->device, "flip_wait_until_sent"))
		return;
	while (!(inb(port->base + FL_STAT) & FL_STAT_TXEMPTY)) {
		current->state = TASK_INTERRUPTIBLE;
		schedule_timeout(1);
		if (signal_pending(current))
			break;
		if (timeout && time_after(jiffies, orig_jiffies + timeout))
			break;
	}
	current->state = TASK_RUNNING;
}

/* no carrier wait: the board's ports are local lines unless told */
static int flip_open(struct tty_struct *tty, struct file *filp)
{
	int line = MINOR(tty->device) - tty->driver.minor_start;
	struct flip_port *port;
	int error;

	if (line < 0 || line >= FLIP_NPORT)
		return -ENODEV;
	port = &flip_port[line];
	if (flip_paranoia_check(port, tty->device, "flip_open"))
		return -ENODEV;
	if (!port->board || !port->board->present)
		return -ENODEV;
	MOD_INC_USE_COUNT;
	port->count++;
	tty->driver_data = port;
	port->tty = tty;
	error = flip_startup(port);
	if (error)
		return error;
	port->flags |= ASYNC_NORMAL_ACTIVE;
	return 0;
}

static void flip_close(struct tty_struct *tty, struct file *filp)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long flags;

	if (!port || flip_paranoia_check(port, tty->device, "flip_close"))
		return;
	save_flags(flags);
	cli();
	if (tty_hung_up_p(filp))
		goto out;
	if (--port->count < 0)
		port->count = 0;
	if (port->count)
		goto out;
	port->flags |= ASYNC_CLOSING;
	tty->closing = 1;
	if (port->closing_wait != ASYNC_CLOSING_WAIT_NONE)
		tty_wait_until_sent(tty, port->closing_wait);
	if (port->flags & ASYNC_INITIALIZED)
		flip_wait_until_sent(tty, HZ / 10);
	flip_shutdown(port);
	if (tty->driver.flush_buffer)
		tty->driver.flush_buffer(tty);
	if (tty->ldisc.flush_buffer)
		tty->ldisc.flush_buffer(tty);
	tty->closing = 0;
	port->event = 0;
	port->tty = 0;
	if (port->close_delay) {
		current->state = TASK_INTERRUPTIBLE;
		schedule_timeout(port->close_delay);
	}
	port->flags &= ~(ASYNC_NORMAL_ACTIVE | ASYNC_CLOSING);
	wake_up_interruptible(&port->close_wait);
out:
	MOD_DEC_USE_COUNT;
	restore_flags(flags);
}

static int flip_write(struct tty_struct *tty, int from_user,
		      const unsigned char *buf, int count)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long flags;
	int c, total = 0;

	if (flip_paranoia_check(port, tty->device, "flip_write"))
		return 0;
	if (!port->xmit_buf)
		return 0;
	while (count > 0) {
		save_flags(flags);
		cli();
		c = MIN(count, MIN(SERIAL_XMIT_SIZE - port->xmit_cnt - 1,
				   SERIAL_XMIT_SIZE - port->xmit_head));
		restore_flags(flags);
		if (c <= 0)
			break;
		/* the buffer is ours alone while the write lock is held */
		if (from_user) {
			if (copy_from_user(port->xmit_buf + port->xmit_head,
					   buf, c)) {
				if (!total)
					total = -EFAULT;
				break;
			}
		} else {
			memcpy(port->xmit_buf + port->xmit_head, buf, c);
		}
		save_flags(flags);
		cli();
		port->xmit_head = (port->xmit_head + c) &
				  (SERIAL_XMIT_SIZE - 1);
		port->xmit_cnt += c;
		restore_flags(flags);
		buf += c;
		count -= c;
		total += c;
	}
	save_flags(flags);
	cli();
	if (port->xmit_cnt && !tty->stopped && !tty->hw_stopped &&
	    !(port->ctrl & FL_CTRL_TXI)) {
		port->ctrl |= FL_CTRL_TXI;
		flip_out_ctrl(port);
	}
	restore_flags(flags);
	return total;
}

static void flip_put_char(struct tty_struct *tty, unsigned char ch)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long flags;

	if (flip_paranoia_check(port, tty->device, "flip_put_char"))
		return;
	if (!port->xmit_buf)
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

static void flip_flush_chars(struct tty_struct *tty)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long flags;

	if (flip_paranoia_check(port, tty->device, "flip_flush_chars"))
		return;
	if (port->xmit_cnt <= 0 || tty->stopped || tty->hw_stopped ||
	    !port->xmit_buf)
		return;
	save_flags(flags);
	cli();
	port->ctrl |= FL_CTRL_TXI;
	flip_out_ctrl(port);
	restore_flags(flags);
}

static int flip_write_room(struct tty_struct *tty)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	int ret;

	if (flip_paranoia_check(port, tty->device, "flip_write_room"))
		return 0;
	ret = SERIAL_XMIT_SIZE - port->xmit_cnt - 1;
	return ret < 0 ? 0 : ret;
}

static int flip_chars_in_buffer(struct tty_struct *tty)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;

	if (flip_paranoia_check(port, tty->device, "flip_chars_in_buffer"))
		return 0;
	return port->xmit_cnt;
}

static void flip_flush_buffer(struct tty_struct *tty)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long flags;

	if (flip_paranoia_check(port, tty->device, "flip_flush_buffer"))
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

/* a break of @ticks: the line held low while this process sleeps */
static void flip_send_break(struct flip_port *port, unsigned long ticks)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	port->ctrl |= FL_CTRL_BREAK;
	flip_out_ctrl(port);
	restore_flags(flags);
	current->state = TASK_INTERRUPTIBLE;
	schedule_timeout(ticks);
	save_flags(flags);
	cli();
	port->ctrl &= ~FL_CTRL_BREAK;
	flip_out_ctrl(port);
	restore_flags(flags);
}

static int flip_get_modem_info(struct flip_port *port, unsigned int *value)
{
	unsigned char stat = inb(port->base + FL_STAT);
	unsigned int result;

	result = ((port->ctrl & FL_CTRL_DTR) ? TIOCM_DTR : 0) |
		 ((port->ctrl & FL_CTRL_RTS) ? TIOCM_RTS : 0) |
		 ((stat & FL_STAT_DCD) ? TIOCM_CAR : 0) | TIOCM_CTS | TIOCM_DSR;
	return put_user(result, value);
}

static int flip_set_modem_info(struct flip_port *port, unsigned int cmd,
			       unsigned int *value)
{
	unsigned int arg, bits = 0;
	unsigned long flags;

	if (get_user(arg, value))
		return -EFAULT;
	if (arg & TIOCM_RTS)
		bits |= FL_CTRL_RTS;
	if (arg & TIOCM_DTR)
		bits |= FL_CTRL_DTR;
	save_flags(flags);
	cli();
	switch (cmd) {
	case TIOCMBIS:
		port->ctrl |= bits;
		break;
	case TIOCMBIC:
		port->ctrl &= ~bits;
		break;
	case TIOCMSET:
		port->ctrl = (port->ctrl & ~(FL_CTRL_RTS | FL_CTRL_DTR)) | bits;
		break;
	default:
		restore_flags(flags);
		return -EINVAL;
	}
	flip_out_ctrl(port);
	restore_flags(flags);
	return 0;
}

static int flip_get_serial_info(struct flip_port *port,
				struct serial_struct *retinfo)
{
	struct serial_struct tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = PORT_16450;
	tmp.line = port->line;
	tmp.port = port->base;
	tmp.irq = port->board->irq;
	tmp.flags = port->flags;
	tmp.baud_base = 57600;
	tmp.close_delay = port->close_delay * HZ / 100;
	tmp.closing_wait = port->closing_wait * HZ / 100;
	tmp.xmit_fifo_size = FLIP_TX_FIFO;
	if (copy_to_user(retinfo, &tmp, sizeof(*retinfo)))
		return -EFAULT;
	return 0;
}

static int flip_set_serial_info(struct flip_port *port,
				struct serial_struct *newinfo)
{
	struct serial_struct tmp;

	if (copy_from_user(&tmp, newinfo, sizeof(tmp)))
		return -EFAULT;
	if (!suser())
		return -EPERM;
	port->flags = (port->flags & ~ASYNC_USR_MASK) |
		      (tmp.flags & ASYNC_USR_MASK);
	port->close_delay = tmp.close_delay * HZ / 100;
	port->closing_wait = tmp.closing_wait * HZ / 100;
	return 0;
}

static int flip_ioctl(struct tty_struct *tty, struct file *filp,
		      unsigned int cmd, unsigned long arg)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	int retval;

	if (flip_paranoia_check(port, tty->device, "flip_ioctl"))
		return -ENODEV;
	switch (cmd) {
	case TCSBRK: /* SVID version: non-zero arg --> no break */
		retval = tty_check_change(tty);
		if (retval)
			return retval;
		tty_wait_until_sent(tty, 0);
		if (!arg)
			flip_send_break(port, HZ / 4);
		return 0;
	case TCSBRKP: /* support for POSIX tcsendbreak() */
		retval = tty_check_change(tty);
		if (retval)
			return retval;
		tty_wait_until_sent(tty, 0);
		flip_send_break(port, arg ? arg * (HZ / 10) : HZ / 4);
		return 0;
	case TIOCMGET:
		return flip_get_modem_info(port, (unsigned int *) arg);
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		return flip_set_modem_info(port, cmd, (unsigned int *) arg);
	case TIOCGSERIAL:
		return flip_get_serial_info(port, (struct serial_struct *) arg);
	case TIOCSSERIAL:
		return flip_set_serial_info(port, (struct serial_struct *) arg);
	default:
		return -ENOIOCTLCMD;
	}
}

static void flip_throttle(struct tty_struct *tty)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long flags;

	if (flip_paranoia_check(port, tty->device, "flip_throttle"))
		return;
	save_flags(flags);
	cli();
	port->ctrl &= ~FL_CTRL_RTS;
	flip_out_ctrl(port);
	restore_flags(flags);
}

static void flip_unthrottle(struct tty_struct *tty)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long flags;

	if (flip_paranoia_check(port, tty->device, "flip_unthrottle"))
		return;
	save_flags(flags);
	cli();
	port->ctrl |= FL_CTRL_RTS;
	flip_out_ctrl(port);
	restore_flags(flags);
}

static void flip_stop(struct tty_struct *tty)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long flags;

	if (flip_paranoia_check(port, tty->device, "flip_stop"))
		return;
	save_flags(flags);
	cli();
	port->ctrl &= ~FL_CTRL_TXI;
	flip_out_ctrl(port);
	restore_flags(flags);
}

static void flip_start(struct tty_struct *tty)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;
	unsigned long flags;

	if (flip_paranoia_check(port, tty->device, "flip_start"))
		return;
	save_flags(flags);
	cli();
	if (port->xmit_cnt && port->xmit_buf) {
		port->ctrl |= FL_CTRL_TXI;
		flip_out_ctrl(port);
	}
	restore_flags(flags);
}

static void flip_hangup(struct tty_struct *tty)
{
	struct flip_port *port = (struct flip_port *) tty->driver_data;

	if (flip_paranoia_check(port, tty->device, "flip_hangup"))
		return;
	flip_shutdown(port);
	port->event = 0;
	port->count = 0;
	port->flags &= ~ASYNC_NORMAL_ACTIVE;
	port->tty = 0;
}

static void flip_set_termios(struct tty_struct *tty, struct termios *old)
{
	if (tty->termios->c_cflag == old->c_cflag)
		return;
	if ((old->c_cflag & CRTSCTS) && !(tty->termios->c_cflag & CRTSCTS)) {
		tty->hw_stopped = 0;
		flip_start(tty);
	}
}

/* --- the module ---------------------------------------------------------- */

static int __init flip_init_driver(void)
{
	int i;

	memset(&flip_driver, 0, sizeof(flip_driver));
	flip_driver.magic = TTY_DRIVER_MAGIC;
	flip_driver.driver_name = "flipper";
	flip_driver.name = "ttyF";
	flip_driver.major = FLIP_NORMAL_MAJOR;
	flip_driver.num = FLIP_NPORT;
	flip_driver.type = TTY_DRIVER_TYPE_SERIAL;
	flip_driver.subtype = SERIAL_TYPE_NORMAL;
	flip_driver.init_termios = tty_std_termios;
	flip_driver.init_termios.c_cflag = B9600 | CS8 | CREAD | HUPCL | CLOCAL;
	flip_driver.flags = TTY_DRIVER_REAL_RAW;
	flip_driver.refcount = &flip_refcount;
	flip_driver.table = flip_table;
	flip_driver.termios = flip_termios;
	flip_driver.termios_locked = flip_termios_locked;

	flip_driver.open = flip_open;
	flip_driver.close = flip_close;
	flip_driver.write = flip_write;
	flip_driver.put_char = flip_put_char;
	flip_driver.flush_chars = flip_flush_chars;
	flip_driver.write_room = flip_write_room;
	flip_driver.chars_in_buffer = flip_chars_in_buffer;
	flip_driver.flush_buffer = flip_flush_buffer;
	flip_driver.ioctl = flip_ioctl;
	flip_driver.throttle = flip_throttle;
	flip_driver.unthrottle = flip_unthrottle;
	flip_driver.set_termios = flip_set_termios;
	flip_driver.stop = flip_stop;
	flip_driver.start = flip_start;
	flip_driver.hangup = flip_hangup;
	flip_driver.wait_until_sent = flip_wait_until_sent;

	for (i = 0; i < FLIP_NPORT; i++) {
		struct flip_port *port = &flip_port[i];
		struct flip_board *board = &flip_board[i / FLIP_CHANNELS];

		memset(port, 0, sizeof(*port));
		port->magic = FLIP_MAGIC;
		port->line = i;
		port->board = board;
		port->base = board->base + 4 * (i % FLIP_CHANNELS);
		port->close_delay = HZ / 20;
		port->closing_wait = 3 * HZ;
		port->tqueue.routine = do_flip_softint;
		port->tqueue.data = port;
		port->tqueue_hangup.routine = do_flip_hangup;
		port->tqueue_hangup.data = port;
		init_waitqueue_head(&port->close_wait);
	}
	if (tty_register_driver(&flip_driver)) {
		printk(KERN_ERR "flipper: couldn't register the tty driver\n");
		return -EIO;
	}
	return 0;
}

static int __init flip_init(void)
{
	int i, found = 0;

	printk(KERN_INFO "flipper: Flipper/2 driver, the sandbox's own\n");
	init_timer(&flip_timer);
	flip_timer.function = flip_poll;
	for (i = 0; i < FLIP_MAX_BOARDS; i++) {
		struct flip_board *board = &flip_board[i];

		board->base = io[i];
		board->irq = irq[i];
		if (!board->base)
			continue;
		if (board->irq <= 0 || board->irq >= NR_IRQS) {
			printk(KERN_ERR "flipper: board %d: irq= needed\n", i);
			continue;
		}
		if (flip_probe(board))
			continue;
		if (request_irq(board->irq, flip_interrupt, SA_SHIRQ, "flipper",
				board)) {
			printk(KERN_ERR "flipper: IRQ %d busy\n", board->irq);
			release_region(board->base, FLIP_IO_RANGE);
			board->present = 0;
			continue;
		}
		found++;
	}
	if (!found) {
		printk(KERN_INFO "flipper: no boards found\n");
		return -ENODEV;
	}
	if (flip_init_driver()) {
		flip_release_boards();
		return -EIO;
	}
	return 0;
}

static void __exit flip_exit(void)
{
	del_timer_sync(&flip_timer);
	if (tty_unregister_driver(&flip_driver))
		printk(KERN_ERR "flipper: couldn't unregister the tty "
				"driver\n");
	flip_release_boards();
}

module_init(flip_init);
module_exit(flip_exit);
