/*
 *  pbox.c  -- driver for the PBox/4 PCI four port serial board.
 *
 *  A made-up PCI board, and a driver written as 2.4.0's PCI multiport
 *  drivers were (mxser, isicom, moxa): the board found with
 *  pci_find_device(), its registers in an I/O BAR, its bridge's
 *  interrupt control in a memory BAR mapped with ioremap(), its line
 *  the one the BIOS gave it (pdev->irq), shared (SA_SHIRQ).  The
 *  deferred work is the ZBox's (zbox.c): a task queue of the driver's
 *  own run by a bottom half of its own, a tq_struct per port for the
 *  write wakeup, a hangup task for keventd.
 *
 *  The board: vendor 0x5a5a, device 0x0404
 *	BAR 0	memory, the bridge: INTCSR at 0x4c (bit 6: interrupts on,
 *		bit 2: this board interrupts), REV at 0x50 (0x42)
 *	BAR 2	I/O, eight ports: the ZBox's registers (zbox.c), its
 *		identity byte at +6 reading 0x3d
 *
 *  Written for the sandbox's tests; not a board anybody made.  The
 *  generic device plays one (drivers/include/world/device.h and
 *  world/pci.h): the bus answers the driver's search, BAR 0 a memory
 *  range; in the interrupt handler the bridge says the board interrupts
 *  and every channel has four bytes and room to send, then no more:
 *
 *  SHIM_DEVICE="seed=7 pci=1@mii 0xe106=0x3d mem:0xe0000050=0x42 mem:0xe000004c@irq=0x44 0xe102@irq=0xff,0x00* 0xe105@irq=0x04 0xe100@irq=seeded 0xe103@irq=0x03,0x83,0x03,0x82*"
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
#include <linux/pci.h>

#include <asm/io.h>
#include <asm/system.h>
#include <asm/uaccess.h>

#define PBOX_NORMAL_MAJOR 241 /* local use (devices.txt) */
#define PBOX_NPORT 4
#define PBOX_IO_RANGE 8
#define PBOX_ID 0x3d
#define PBOX_FIFO 8
#define PBOX_MAGIC 0x5a42
#define PBOX_BH 21 /* a bottom half no in-tree driver uses */
#define WAKEUP_CHARS 256

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

#define PB_DATA 0
#define PB_CHSEL 1
#define PB_ISR 2
#define PB_MSR 3
#define PB_MCR 3
#define PB_IER 4
#define PB_RXCNT 5
#define PB_ID 6
#define PB_SCR 7

#define PB_MSR_DCD 0x01
#define PB_MSR_CTS 0x02
#define PB_MSR_DSR 0x04
#define PB_MSR_RI 0x08
#define PB_MSR_DELTA 0x80
#define PB_MCR_DTR 0x01
#define PB_MCR_RTS 0x02
#define PB_IER_RX 0x01
#define PB_IER_TX 0x02
#define PB_IER_MODEM 0x04

#define PB_EVENT_WRITE_WAKEUP 0

#define PCI_VENDOR_ID_PBOX 0x5a5a
#define PCI_DEVICE_ID_PBOX4 0x0404
#define PBOX_BRIDGE_RANGE 0x80
#define PBOX_INTCSR 0x4c
#define PBOX_INTCSR_ENABLE 0x40
#define PBOX_INTCSR_ACTIVE 0x04
#define PBOX_REV 0x50
#define PBOX_REV_ID 0x42

static unsigned long io;     /* BAR 2 */
static unsigned long bridge; /* BAR 0, mapped */
static struct pci_dev *pbox_pdev;

static int pbox_debug; /* say what the bus gave */

MODULE_AUTHOR("the workqueue sandbox");
MODULE_DESCRIPTION("PBox/4 PCI serial board (made up)");
MODULE_PARM(pbox_debug, "i");
MODULE_PARM_DESC(pbox_debug, "1: print the board's BARs as found");

struct pbox_port {
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

static struct pbox_port pbox_port[PBOX_NPORT];
static int pbox_irq;
static int pbox_ier;

static DECLARE_TASK_QUEUE(tq_pbox);

static struct tty_driver pbox_driver;
static int pbox_refcount;
static struct tty_struct *pbox_table[PBOX_NPORT];
static struct termios *pbox_termios[PBOX_NPORT];
static struct termios *pbox_termios_locked[PBOX_NPORT];
static unsigned char *tmp_buf;
static DECLARE_MUTEX(tmp_buf_sem);

static inline int pbox_paranoia_check(struct pbox_port *port, kdev_t device,
				      const char *routine)
{
	if (!port) {
		printk(KERN_WARNING "pbox: null port for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	if (port->magic != PBOX_MAGIC) {
		printk(KERN_WARNING "pbox: bad magic for (%s) in %s\n",
		       kdevname(device), routine);
		return 1;
	}
	return 0;
}

static inline void pbox_select(struct pbox_port *port)
{
	outb(port->line, io + PB_CHSEL);
}

/*
 * The bottom half: run what the interrupt handler queued.
 */
static void do_pbox_bh(void)
{
	run_task_queue(&tq_pbox);
}

static inline void pbox_sched_event(struct pbox_port *port, int event)
{
	set_bit(event, &port->event);
	queue_task(&port->tqueue, &tq_pbox);
	mark_bh(PBOX_BH);
}

/* from the bottom half: writers may go on */
static void do_softint(void *private_)
{
	struct pbox_port *port = (struct pbox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (!tty)
		return;
	if (test_and_clear_bit(PB_EVENT_WRITE_WAKEUP, &port->event)) {
		if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
		    tty->ldisc.write_wakeup)
			(tty->ldisc.write_wakeup)(tty);
		wake_up_interruptible(&tty->write_wait);
	}
}

/* from keventd: the carrier went away */
static void do_pbox_hangup(void *private_)
{
	struct pbox_port *port = (struct pbox_port *) private_;
	struct tty_struct *tty = port->tty;

	if (tty)
		tty_hangup(tty);
}

static void pbox_receive(struct pbox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count;

	pbox_select(port);
	count = inb(io + PB_RXCNT) & 0x1f;
	if (count > 16)
		count = 16;
	if (!tty) {
		while (count--)
			inb(io + PB_DATA);
		return;
	}
	port->icount.rx += count;
	while (count--) {
		if (tty->flip.count >= TTY_FLIPBUF_SIZE) {
			printk(KERN_WARNING "pbox%d: flip buffer overflow\n",
			       port->line);
			inb(io + PB_DATA);
			continue;
		}
		*tty->flip.char_buf_ptr++ = inb(io + PB_DATA);
		*tty->flip.flag_buf_ptr++ = TTY_NORMAL;
		tty->flip.count++;
	}
	tty_flip_buffer_push(tty);
}

static void pbox_transmit(struct pbox_port *port)
{
	struct tty_struct *tty = port->tty;
	int count = PBOX_FIFO;

	if (!tty || !port->xmit_buf)
		return;
	pbox_select(port);
	while (port->xmit_cnt > 0 && count-- > 0 && !tty->stopped &&
	       !tty->hw_stopped) {
		outb(port->xmit_buf[port->xmit_tail++], io + PB_DATA);
		port->xmit_tail &= SERIAL_XMIT_SIZE - 1;
		port->xmit_cnt--;
		port->icount.tx++;
	}
	if (port->xmit_cnt < WAKEUP_CHARS)
		pbox_sched_event(port, PB_EVENT_WRITE_WAKEUP);
}

static void pbox_modem(struct pbox_port *port)
{
	unsigned char msr;

	pbox_select(port);
	msr = inb(io + PB_MSR);
	if (!(msr & PB_MSR_DELTA))
		return;
	if ((msr ^ port->msr) & PB_MSR_DCD) {
		port->icount.dcd++;
		if (msr & PB_MSR_DCD)
			wake_up_interruptible(&port->open_wait);
		else if (port->tty && !C_CLOCAL(port->tty))
			schedule_task(&port->tqueue_hangup);
	}
	if ((msr ^ port->msr) & PB_MSR_CTS)
		port->icount.cts++;
	port->msr = msr & ~PB_MSR_DELTA;
}

static void pbox_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	unsigned char isr;
	int loops = 0, i;

	/* a shared line: is it this board? */
	if (!(readl(bridge + PBOX_INTCSR) & PBOX_INTCSR_ACTIVE))
		return;
	while ((isr = inb(io + PB_ISR)) && loops++ < 8) {
		for (i = 0; i < PBOX_NPORT; i++) {
			struct pbox_port *port = &pbox_port[i];

			if (!(port->flags & ASYNC_INITIALIZED))
				continue;
			if (isr & (1 << i))
				pbox_receive(port);
			if (isr & (0x10 << i))
				pbox_transmit(port);
			pbox_modem(port);
		}
	}
}

/* --- the board ----------------------------------------------------------- */

/* the board on the bus, its bridge ours, its identity byte too */
static int __init pbox_probe(void)
{
	struct pci_dev *pdev;

	if (!pci_present())
		return -ENODEV;
	pdev = pci_find_device(PCI_VENDOR_ID_PBOX, PCI_DEVICE_ID_PBOX4, NULL);
	if (!pdev) {
		printk(KERN_INFO "pbox: no PBox/4 on the PCI bus\n");
		return -ENODEV;
	}
	if (pci_enable_device(pdev))
		return -EIO;
	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_MEM) ||
	    !(pci_resource_flags(pdev, 2) & IORESOURCE_IO) ||
	    pci_resource_len(pdev, 2) < PBOX_IO_RANGE) {
		printk(KERN_INFO "pbox: PBox/4 at %s: not its BARs\n",
		       pdev->slot_name);
		return -ENODEV;
	}
	io = pci_resource_start(pdev, 2);
	if (pbox_debug)
		printk(KERN_DEBUG "pbox: BAR 0 0x%lx, BAR 2 0x%lx, IRQ %d\n",
		       pci_resource_start(pdev, 0), io, pdev->irq);
	if (check_region(io, PBOX_IO_RANGE))
		return -EBUSY;
	bridge = (unsigned long) ioremap(pci_resource_start(pdev, 0),
					 PBOX_BRIDGE_RANGE);
	if (!bridge)
		return -ENOMEM;
	if (readb(bridge + PBOX_REV) != PBOX_REV_ID ||
	    inb(io + PB_ID) != PBOX_ID) {
		printk(KERN_INFO "pbox: PBox/4 at %s does not answer\n",
		       pdev->slot_name);
		iounmap((void *) bridge);
		return -ENODEV;
	}
	pbox_irq = pdev->irq;
	pbox_pdev = pdev;
	pci_set_master(pdev);
	request_region(io, PBOX_IO_RANGE, "pbox");
	printk(KERN_INFO "pbox: PBox/4 at %s, ports 0x%lx, IRQ %d\n",
	       pdev->slot_name, io, pbox_irq);
	return 0;
}

/* --- ports --------------------------------------------------------------- */

static void pbox_set_mcr(struct pbox_port *port)
{
	pbox_select(port);
	outb(port->mcr, io + PB_MCR);
}

static int pbox_startup(struct pbox_port *port)
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
	port->mcr = PB_MCR_DTR | PB_MCR_RTS;
	pbox_set_mcr(port);
	pbox_select(port);
	port->msr = inb(io + PB_MSR) & ~PB_MSR_DELTA;
	port->flags |= ASYNC_INITIALIZED;
	restore_flags(flags);
	return 0;
}

static void pbox_shutdown(struct pbox_port *port)
{
	unsigned long flags;

	if (!(port->flags & ASYNC_INITIALIZED))
		return;
	save_flags(flags);
	cli();
	if (!port->tty || (port->tty->termios->c_cflag & HUPCL)) {
		port->mcr &= ~(PB_MCR_DTR | PB_MCR_RTS);
		pbox_set_mcr(port);
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
			   struct pbox_port *port)
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
		    (C_CLOCAL(tty) || (port->msr & PB_MSR_DCD)))
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

static int pbox_open(struct tty_struct *tty, struct file *filp)
{
	int line = MINOR(tty->device) - tty->driver.minor_start;
	struct pbox_port *port;
	unsigned long page;
	int error;

	if (line < 0 || line >= PBOX_NPORT)
		return -ENODEV;
	port = &pbox_port[line];
	if (pbox_paranoia_check(port, tty->device, "pbox_open"))
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
	error = pbox_startup(port);
	if (error)
		return error;
	error = block_til_ready(tty, filp, port);
	if (error)
		return error;
	return 0;
}

static void pbox_close(struct tty_struct *tty, struct file *filp)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;
	unsigned long flags;

	if (!port || pbox_paranoia_check(port, tty->device, "pbox_close"))
		return;
	save_flags(flags);
	cli();
	if (tty_hung_up_p(filp)) {
		MOD_DEC_USE_COUNT;
		restore_flags(flags);
		return;
	}
	if ((tty->count == 1) && (port->count != 1)) {
		printk(KERN_WARNING "pbox%d: bad port count %d\n", port->line,
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
	pbox_shutdown(port);
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

static int pbox_write(struct tty_struct *tty, int from_user,
		      const unsigned char *buf, int count)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;
	unsigned long flags;
	int c, total = 0;

	if (pbox_paranoia_check(port, tty->device, "pbox_write"))
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
		outb(pbox_ier | PB_IER_TX, io + PB_IER);
	restore_flags(flags);
	return total;
}

static void pbox_put_char(struct tty_struct *tty, unsigned char ch)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;
	unsigned long flags;

	if (pbox_paranoia_check(port, tty->device, "pbox_put_char"))
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

static void pbox_flush_chars(struct tty_struct *tty)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;

	if (pbox_paranoia_check(port, tty->device, "pbox_flush_chars"))
		return;
	if (port->xmit_cnt <= 0 || tty->stopped || tty->hw_stopped ||
	    !port->xmit_buf)
		return;
	outb(pbox_ier | PB_IER_TX, io + PB_IER);
}

static int pbox_write_room(struct tty_struct *tty)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;
	int ret;

	if (pbox_paranoia_check(port, tty->device, "pbox_write_room"))
		return 0;
	ret = SERIAL_XMIT_SIZE - port->xmit_cnt - 1;
	return ret < 0 ? 0 : ret;
}

static int pbox_chars_in_buffer(struct tty_struct *tty)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;

	if (pbox_paranoia_check(port, tty->device, "pbox_chars_in_buffer"))
		return 0;
	return port->xmit_cnt;
}

static void pbox_flush_buffer(struct tty_struct *tty)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;
	unsigned long flags;

	if (pbox_paranoia_check(port, tty->device, "pbox_flush_buffer"))
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

static int pbox_get_modem_info(struct pbox_port *port, unsigned int *value)
{
	unsigned char msr;
	unsigned int result;
	unsigned long flags;

	save_flags(flags);
	cli();
	pbox_select(port);
	msr = inb(io + PB_MSR);
	restore_flags(flags);
	result = ((port->mcr & PB_MCR_DTR) ? TIOCM_DTR : 0) |
		 ((port->mcr & PB_MCR_RTS) ? TIOCM_RTS : 0) |
		 ((msr & PB_MSR_DCD) ? TIOCM_CAR : 0) |
		 ((msr & PB_MSR_CTS) ? TIOCM_CTS : 0) |
		 ((msr & PB_MSR_DSR) ? TIOCM_DSR : 0) |
		 ((msr & PB_MSR_RI) ? TIOCM_RNG : 0);
	return put_user(result, value);
}

static int pbox_set_modem_info(struct pbox_port *port, unsigned int cmd,
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
			port->mcr |= PB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr |= PB_MCR_DTR;
		break;
	case TIOCMBIC:
		if (arg & TIOCM_RTS)
			port->mcr &= ~PB_MCR_RTS;
		if (arg & TIOCM_DTR)
			port->mcr &= ~PB_MCR_DTR;
		break;
	case TIOCMSET:
		port->mcr = ((arg & TIOCM_RTS) ? PB_MCR_RTS : 0) |
			    ((arg & TIOCM_DTR) ? PB_MCR_DTR : 0);
		break;
	default:
		restore_flags(flags);
		return -EINVAL;
	}
	pbox_set_mcr(port);
	restore_flags(flags);
	return 0;
}

static int pbox_get_serial_info(struct pbox_port *port,
				struct serial_struct *retinfo)
{
	struct serial_struct tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = PORT_16550A;
	tmp.line = port->line;
	tmp.port = io;
	tmp.irq = pbox_irq;
	tmp.flags = port->flags;
	tmp.baud_base = 115200;
	tmp.close_delay = port->close_delay * HZ / 100;
	tmp.closing_wait = port->closing_wait * HZ / 100;
	tmp.xmit_fifo_size = PBOX_FIFO;
	if (copy_to_user(retinfo, &tmp, sizeof(*retinfo)))
		return -EFAULT;
	return 0;
}

static int pbox_set_serial_info(struct pbox_port *port,
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

static int pbox_ioctl(struct tty_struct *tty, struct file *filp,
		      unsigned int cmd, unsigned long arg)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;
	struct serial_icounter_struct icount;

	if (pbox_paranoia_check(port, tty->device, "pbox_ioctl"))
		return -ENODEV;
	switch (cmd) {
	case TIOCMGET:
		return pbox_get_modem_info(port, (unsigned int *) arg);
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		return pbox_set_modem_info(port, cmd, (unsigned int *) arg);
	case TIOCGSERIAL:
		return pbox_get_serial_info(port, (struct serial_struct *) arg);
	case TIOCSSERIAL:
		return pbox_set_serial_info(port, (struct serial_struct *) arg);
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

static void pbox_throttle(struct tty_struct *tty)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;
	unsigned long flags;

	if (pbox_paranoia_check(port, tty->device, "pbox_throttle"))
		return;
	save_flags(flags);
	cli();
	port->mcr &= ~PB_MCR_RTS;
	pbox_set_mcr(port);
	restore_flags(flags);
}

static void pbox_unthrottle(struct tty_struct *tty)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;
	unsigned long flags;

	if (pbox_paranoia_check(port, tty->device, "pbox_unthrottle"))
		return;
	save_flags(flags);
	cli();
	port->mcr |= PB_MCR_RTS;
	pbox_set_mcr(port);
	restore_flags(flags);
}

static void pbox_stop(struct tty_struct *tty)
{
	outb(pbox_ier & ~PB_IER_TX, io + PB_IER);
}

static void pbox_start(struct tty_struct *tty)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;

	if (port->xmit_cnt && port->xmit_buf)
		outb(pbox_ier | PB_IER_TX, io + PB_IER);
}

static void pbox_hangup(struct tty_struct *tty)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;

	if (pbox_paranoia_check(port, tty->device, "pbox_hangup"))
		return;
	pbox_shutdown(port);
	port->event = 0;
	port->count = 0;
	port->flags &= ~ASYNC_NORMAL_ACTIVE;
	port->tty = 0;
	wake_up_interruptible(&port->open_wait);
}

static void pbox_set_termios(struct tty_struct *tty, struct termios *old)
{
	struct pbox_port *port = (struct pbox_port *) tty->driver_data;
	unsigned long flags;

	if (tty->termios->c_cflag == old->c_cflag)
		return;
	save_flags(flags);
	cli();
	if (tty_get_baud_rate(tty))
		port->mcr |= PB_MCR_DTR;
	else
		port->mcr &= ~PB_MCR_DTR;
	pbox_set_mcr(port);
	restore_flags(flags);
	if ((old->c_cflag & CRTSCTS) && !(tty->termios->c_cflag & CRTSCTS)) {
		tty->hw_stopped = 0;
		pbox_start(tty);
	}
}

/* --- the module ---------------------------------------------------------- */

static int __init pbox_init_drivers(void)
{
	int i;

	memset(&pbox_driver, 0, sizeof(pbox_driver));
	pbox_driver.magic = TTY_DRIVER_MAGIC;
	pbox_driver.driver_name = "pbox";
	pbox_driver.name = "ttyB";
	pbox_driver.major = PBOX_NORMAL_MAJOR;
	pbox_driver.num = PBOX_NPORT;
	pbox_driver.type = TTY_DRIVER_TYPE_SERIAL;
	pbox_driver.subtype = SERIAL_TYPE_NORMAL;
	pbox_driver.init_termios = tty_std_termios;
	pbox_driver.init_termios.c_cflag = B9600 | CS8 | CREAD | HUPCL | CLOCAL;
	pbox_driver.flags = TTY_DRIVER_REAL_RAW;
	pbox_driver.refcount = &pbox_refcount;
	pbox_driver.table = pbox_table;
	pbox_driver.termios = pbox_termios;
	pbox_driver.termios_locked = pbox_termios_locked;

	pbox_driver.open = pbox_open;
	pbox_driver.close = pbox_close;
	pbox_driver.write = pbox_write;
	pbox_driver.put_char = pbox_put_char;
	pbox_driver.flush_chars = pbox_flush_chars;
	pbox_driver.write_room = pbox_write_room;
	pbox_driver.chars_in_buffer = pbox_chars_in_buffer;
	pbox_driver.flush_buffer = pbox_flush_buffer;
	pbox_driver.ioctl = pbox_ioctl;
	pbox_driver.throttle = pbox_throttle;
	pbox_driver.unthrottle = pbox_unthrottle;
	pbox_driver.set_termios = pbox_set_termios;
	pbox_driver.stop = pbox_stop;
	pbox_driver.start = pbox_start;
	pbox_driver.hangup = pbox_hangup;

	for (i = 0; i < PBOX_NPORT; i++) {
		struct pbox_port *port = &pbox_port[i];

		memset(port, 0, sizeof(*port));
		port->magic = PBOX_MAGIC;
		port->line = i;
		port->close_delay = 5 * HZ / 10;
		port->closing_wait = 30 * HZ;
		port->tqueue.routine = do_softint;
		port->tqueue.data = port;
		port->tqueue_hangup.routine = do_pbox_hangup;
		port->tqueue_hangup.data = port;
		init_waitqueue_head(&port->open_wait);
		init_waitqueue_head(&port->close_wait);
	}
	if (tty_register_driver(&pbox_driver)) {
		printk(KERN_ERR "pbox: couldn't register the tty driver\n");
		return -EIO;
	}
	return 0;
}

static int __init pbox_init(void)
{
	int error;

	printk(KERN_INFO "pbox: PBox/4 driver, the sandbox's own\n");
	error = pbox_probe();
	if (error)
		return error;
	init_bh(PBOX_BH, do_pbox_bh);
	error = pbox_init_drivers();
	if (error)
		goto out_bh;
	error = request_irq(pbox_irq, pbox_interrupt, SA_SHIRQ, "pbox",
			    pbox_port);
	if (error) {
		printk(KERN_ERR "pbox: IRQ %d busy\n", pbox_irq);
		tty_unregister_driver(&pbox_driver);
		goto out_bh;
	}
	pbox_ier = PB_IER_RX | PB_IER_MODEM;
	outb(pbox_ier, io + PB_IER);
	writel(PBOX_INTCSR_ENABLE, bridge + PBOX_INTCSR);
	return 0;

out_bh:
	remove_bh(PBOX_BH);
	release_region(io, PBOX_IO_RANGE);
	iounmap((void *) bridge);
	return error;
}

static void __exit pbox_exit(void)
{
	writel(0, bridge + PBOX_INTCSR);
	outb(0, io + PB_IER);
	free_irq(pbox_irq, pbox_port);
	if (tty_unregister_driver(&pbox_driver))
		printk(KERN_ERR "pbox: couldn't unregister the tty driver\n");
	remove_bh(PBOX_BH);
	if (tmp_buf) {
		free_page((unsigned long) tmp_buf);
		tmp_buf = 0;
	}
	release_region(io, PBOX_IO_RANGE);
	iounmap((void *) bridge);
}

module_init(pbox_init);
module_exit(pbox_exit);
