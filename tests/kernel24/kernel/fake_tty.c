/*
 * fake_tty.c - a tty driver in 2.4's manner over no hardware, for testing
 * the tty layer (drivers/tty-core/legacy): four ports whose "interrupts"
 * the tests raise (fk_rx(), fk_tx()), a transmit buffer per port, a
 * bottom half for write wakeups (tq_immediate), and what the layer asked
 * of it counted.  And the VFS side: files opened through the character
 * device table, as the sandbox's scenarios open them.
 */
#include <linux/config.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/tty.h>
#include <linux/tty_flip.h>
#include <linux/fcntl.h>
#include <linux/string.h>
#include <asm/uaccess.h>

#include <tty-core/record.h>
#include <shim/test.h>

#include "k24.h"

#define FK_PORTS 4
#define FK_XMIT 64

struct fake_port {
	int count;
	struct tty_struct *tty;
	struct tq_struct tqueue; /* the bottom half: write wakeup */
	unsigned char xmit[FK_XMIT];
	int xmit_cnt;
	struct fk_stats st;
};

static struct fake_port ports[FK_PORTS];
static struct tty_driver fake_driver;
static int fake_refcount;
static struct tty_struct *fake_table[FK_PORTS];
static struct termios *fake_termios[FK_PORTS];
static struct termios *fake_termios_locked[FK_PORTS];

static void fk_softint(void *private_)
{
	struct fake_port *port = private_;
	struct tty_struct *tty = port->tty;

	if (!tty)
		return;
	if (test_bit(TTY_DO_WRITE_WAKEUP, &tty->flags) &&
	    tty->ldisc.write_wakeup)
		(tty->ldisc.write_wakeup)(tty);
	wake_up_interruptible(&tty->write_wait);
}

static int fk_open_tty(struct tty_struct *tty, struct file *filp)
{
	int line = MINOR(tty->device) - tty->driver.minor_start;
	struct fake_port *port = &ports[line];

	port->count++;
	port->tty = tty;
	tty->driver_data = port;
	port->st.opens++;
	return 0;
}

static void fk_close_tty(struct tty_struct *tty, struct file *filp)
{
	struct fake_port *port = tty->driver_data;

	if (tty_hung_up_p(filp))
		return;
	port->st.closes++;
	if (--port->count == 0)
		port->tty = NULL;
}

static int fk_write_tty(struct tty_struct *tty, int from_user,
			const unsigned char *buf, int count)
{
	struct fake_port *port = tty->driver_data;
	int n = FK_XMIT - port->xmit_cnt;

	if (n > count)
		n = count;
	if (n <= 0)
		return 0;
	if (from_user) {
		if (copy_from_user(port->xmit + port->xmit_cnt, buf, n))
			return -EFAULT;
	} else {
		memcpy(port->xmit + port->xmit_cnt, buf, n);
	}
	port->xmit_cnt += n;
	return n;
}

static int fk_write_room(struct tty_struct *tty)
{
	return FK_XMIT - ((struct fake_port *) tty->driver_data)->xmit_cnt;
}

static int fk_chars_in_buffer(struct tty_struct *tty)
{
	return ((struct fake_port *) tty->driver_data)->xmit_cnt;
}

static void fk_set_termios(struct tty_struct *tty, struct termios *old)
{
	struct fake_port *port = tty->driver_data;

	port->st.set_termios++;
	port->st.old_cflag = old->c_cflag;
	port->st.baud = tty_get_baud_rate(tty);
}

static void fk_throttle(struct tty_struct *tty)
{
	((struct fake_port *) tty->driver_data)->st.throttles++;
}

static void fk_unthrottle(struct tty_struct *tty)
{
	((struct fake_port *) tty->driver_data)->st.unthrottles++;
}

static void fk_stop(struct tty_struct *tty)
{
	((struct fake_port *) tty->driver_data)->st.stops++;
}

static void fk_start(struct tty_struct *tty)
{
	((struct fake_port *) tty->driver_data)->st.starts++;
}

static void fk_hangup(struct tty_struct *tty)
{
	struct fake_port *port = tty->driver_data;

	port->st.hangups++;
	port->count = 0;
	port->tty = NULL;
}

static void fk_flush_buffer(struct tty_struct *tty)
{
	((struct fake_port *) tty->driver_data)->xmit_cnt = 0;
}

int fk_init(void)
{
	int i;

	memset(ports, 0, sizeof(ports));
	for (i = 0; i < FK_PORTS; i++) {
		ports[i].tqueue.routine = fk_softint;
		ports[i].tqueue.data = &ports[i];
	}
	memset(&fake_driver, 0, sizeof(fake_driver));
	fake_driver.magic = TTY_DRIVER_MAGIC;
	fake_driver.driver_name = "fake";
	fake_driver.name = "ttyF";
	fake_driver.major = 0;
	fake_driver.num = FK_PORTS;
	fake_driver.type = TTY_DRIVER_TYPE_SERIAL;
	fake_driver.subtype = SERIAL_TYPE_NORMAL;
	fake_driver.init_termios = tty_std_termios;
	fake_driver.init_termios.c_cflag = B9600 | CS8 | CREAD | HUPCL | CLOCAL;
	fake_driver.flags = TTY_DRIVER_REAL_RAW;
	fake_driver.refcount = &fake_refcount;
	fake_driver.table = fake_table;
	fake_driver.termios = fake_termios;
	fake_driver.termios_locked = fake_termios_locked;
	fake_driver.open = fk_open_tty;
	fake_driver.close = fk_close_tty;
	fake_driver.write = fk_write_tty;
	fake_driver.write_room = fk_write_room;
	fake_driver.chars_in_buffer = fk_chars_in_buffer;
	fake_driver.set_termios = fk_set_termios;
	fake_driver.throttle = fk_throttle;
	fake_driver.unthrottle = fk_unthrottle;
	fake_driver.stop = fk_stop;
	fake_driver.start = fk_start;
	fake_driver.hangup = fk_hangup;
	fake_driver.flush_buffer = fk_flush_buffer;
	return tty_register_driver(&fake_driver);
}

int fk_exit(void)
{
	return tty_unregister_driver(&fake_driver);
}

int fk_major(void)
{
	return fake_driver.major;
}

void fk_port_stats(int minor, struct fk_stats *st)
{
	*st = ports[minor].st;
	st->xmit_cnt = ports[minor].xmit_cnt;
}

/* --- the device's side: interrupts ------------------------------------------ */

struct rx_arg {
	int minor;
	const char *buf;
	const char *flags; /* or all TTY_NORMAL */
	int n;
};

static void rx_in_irq(void *p)
{
	struct rx_arg *a = p;
	struct tty_struct *tty = ports[a->minor].tty;
	int i;

	if (!tty)
		return;
	for (i = 0; i < a->n; i++) {
		if (tty->flip.count >= TTY_FLIPBUF_SIZE)
			tty_flip_buffer_push(tty);
		tty_insert_flip_char(tty, a->buf[i],
				     a->flags ? a->flags[i] : TTY_NORMAL);
	}
	tty_flip_buffer_push(tty);
}

void fk_rx(int minor, const char *buf, int n)
{
	fk_rx_flags(minor, buf, NULL, n);
}

void fk_rx_flags(int minor, const char *buf, const char *flags, int n)
{
	struct rx_arg a = { minor, buf, flags, n };

	irq_enter();
	rx_in_irq(&a);
	irq_exit();
}

/* the transmitter empties: the bottom half wakes writers up */
void fk_tx(int minor)
{
	irq_enter();
	ports[minor].xmit_cnt = 0;
	queue_task(&ports[minor].tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	irq_exit();
}

/* --- the VFS's side: files ------------------------------------------------------ */

static struct {
	struct inode inode;
	struct dentry dentry;
	struct file file;
} files[FK_FILES];

int fk_open(int i, int minor)
{
	struct file_operations *fops = shim_chrdev_fops(fake_driver.major);

	memset(&files[i], 0, sizeof(files[i]));
	files[i].inode.i_rdev = MKDEV(fake_driver.major, minor);
	files[i].dentry.d_inode = &files[i].inode;
	files[i].file.f_dentry = &files[i].dentry;
	files[i].file.f_op = fops;
	files[i].file.f_flags = O_RDWR | O_NONBLOCK | O_NOCTTY;
	INIT_LIST_HEAD(&files[i].file.f_list);
	return fops->open(&files[i].inode, &files[i].file);
}

int fk_close(int i)
{
	return files[i].file.f_op->release(&files[i].inode, &files[i].file);
}

long fk_write(int i, const char *buf, unsigned long n)
{
	return files[i].file.f_op->write(&files[i].file, buf, n,
					 &files[i].file.f_pos);
}

long fk_read(int i, char *buf, unsigned long n)
{
	return files[i].file.f_op->read(&files[i].file, buf, n,
					&files[i].file.f_pos);
}

static unsigned int fk_cflag_code(int baud);

static long fk_ioctl(int i, unsigned int cmd, unsigned long arg)
{
	return files[i].file.f_op->ioctl(&files[i].inode, &files[i].file, cmd,
					 arg);
}

int fk_hung_up(int i)
{
	return tty_hung_up_p(&files[i].file);
}

void fk_hangup_file(int i, int now)
{
	struct tty_struct *tty = files[i].file.private_data;

	if (now)
		tty_vhangup(tty);
	else
		tty_hangup(tty);
}

void fk_tty_flag(int i, int bit, int on)
{
	struct tty_struct *tty = files[i].file.private_data;

	if (on)
		set_bit(bit, &tty->flags);
	else
		clear_bit(bit, &tty->flags);
}

void fk_low_latency(int i, int on)
{
	((struct tty_struct *) files[i].file.private_data)->low_latency = on;
}

int fk_tty_count(int minor)
{
	return fake_table[minor] ? fake_table[minor]->count : 0;
}

int fk_record(const char *name, struct tty_record *r)
{
	int i;

	for (i = 0; !tty_record_get(i, r); i++)
		if (!strcmp(r->name, name))
			return 0;
	return -ENOENT;
}

/* --- ioctls, their arguments in the kernel's types ------------------------------- */

/* the speed of file @i's tty, as stty sets it; what it is after, in @now */
long fk_set_speed(int i, int baud, int *now)
{
	struct termios t;
	long ret = fk_ioctl(i, TCGETS, (unsigned long) &t);

	if (ret)
		return ret;
	t.c_cflag = (t.c_cflag & ~CBAUD) | fk_cflag_code(baud);
	ret = fk_ioctl(i, TCSETS, (unsigned long) &t);
	fk_ioctl(i, TCGETS, (unsigned long) &t);
	*now = tty_termios_baud_rate(&t);
	return ret;
}

/* the speed may not change (TIOCSLCKTRMIOS on CBAUD) */
long fk_lock_speed(int i)
{
	struct termios locked;

	memset(&locked, 0, sizeof(locked));
	locked.c_cflag = CBAUD;
	return fk_ioctl(i, TIOCSLCKTRMIOS, (unsigned long) &locked);
}

long fk_tcxonc(int i, int action)
{
	return fk_ioctl(i, TCXONC, action);
}

long fk_setd(int i, int ldisc)
{
	return fk_ioctl(i, TIOCSETD, (unsigned long) &ldisc);
}

long fk_break(int i)
{
	return fk_ioctl(i, TCSBRK, 0);
}

static unsigned int fk_cflag_code(int baud)
{
	switch (baud) {
	case 9600:
		return B9600;
	case 38400:
		return B38400;
	case 115200:
		return B115200;
	default:
		return B0;
	}
}
