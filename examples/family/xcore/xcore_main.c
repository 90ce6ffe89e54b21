/*
 *  xcore_main.c  -- the core of the xcore tty family.
 *
 *  A made-up subsystem written as 2.4's isdn4linux core was: the core
 *  owns a tty driver (ttyX, a line per card) and exports a registration
 *  API; card drivers, modules of their own, register with it and move
 *  the bytes.  What a card says it received goes to the line's flip
 *  buffer and to the line discipline at the next tick (tq_timer); when a
 *  card says its transmitter has room, writers are woken from the
 *  immediate bottom half (tq_immediate, mark_bh()).  A card goes away
 *  only with its lines closed: rmmod takes the card before the core, and
 *  neither while a line is open.
 *  With CONFIG_XCORE_STATS, xcore_stats.c counts what went through.
 *
 *  Written for the sandbox's tests; no kernel had it.
 */

#include <linux/config.h>
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
#include <linux/fcntl.h>
#include <linux/init.h>

#include <asm/system.h>
#include <asm/uaccess.h>

#include "xcard.h"
#include "xcore.h"

#define XCORE_MAJOR 243 /* local use (devices.txt) */
#define XCORE_MAGIC 0x5843
#define XCORE_EVENT_WAKEUP 0

MODULE_AUTHOR("the workqueue sandbox");
MODULE_DESCRIPTION("xcore tty family core (made up)");

struct xcore_line {
	int magic;
	struct xcard *card;
	struct tty_struct *tty;
	int count;
	unsigned long event;
	struct tq_struct tqueue; /* writers woken: tq_immediate */
};

static struct xcore_line xcore_line[XCORE_MAX_CARDS];
static spinlock_t xcore_lock = SPIN_LOCK_UNLOCKED;

static struct tty_driver xcore_driver;
static int xcore_refcount;
static struct tty_struct *xcore_table[XCORE_MAX_CARDS];
static struct termios *xcore_termios[XCORE_MAX_CARDS];
static struct termios *xcore_termios_locked[XCORE_MAX_CARDS];

static void xcore_softint(void *private_)
{
	struct xcore_line *xl = (struct xcore_line *) private_;
	struct tty_struct *tty = xl->tty;

	if (!tty)
		return;
	if (test_and_clear_bit(XCORE_EVENT_WAKEUP, &xl->event)) {
		if ((tty->flags & (1 << TTY_DO_WRITE_WAKEUP)) &&
		    tty->ldisc.write_wakeup)
			(tty->ldisc.write_wakeup)(tty);
		wake_up_interruptible(&tty->write_wait);
	}
}

int register_xcard(struct xcard *card)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&xcore_lock, flags);
	for (i = 0; i < XCORE_MAX_CARDS; i++)
		if (!xcore_line[i].card)
			break;
	if (i == XCORE_MAX_CARDS) {
		spin_unlock_irqrestore(&xcore_lock, flags);
		printk(KERN_WARNING "xcore: no line left for %s\n", card->name);
		return -EBUSY;
	}
	xcore_line[i].card = card;
	card->line = i;
	spin_unlock_irqrestore(&xcore_lock, flags);
	printk(KERN_INFO "xcore: %s on ttyX%d\n", card->name, i);
	return 0;
}

void unregister_xcard(struct xcard *card)
{
	struct xcore_line *xl = &xcore_line[card->line];
	unsigned long flags;

	spin_lock_irqsave(&xcore_lock, flags);
	xl->card = 0;
	spin_unlock_irqrestore(&xcore_lock, flags);
}

/* from the card: what it received, to the line's reader */
void xcore_receive(struct xcard *card, const unsigned char *buf, int count)
{
	struct xcore_line *xl = &xcore_line[card->line];
	struct tty_struct *tty = xl->tty;

	if (!tty)
		return;
	while (count-- > 0 && tty->flip.count < TTY_FLIPBUF_SIZE) {
		*tty->flip.char_buf_ptr++ = *buf++;
		*tty->flip.flag_buf_ptr++ = TTY_NORMAL;
		tty->flip.count++;
	}
	XCORE_COUNT(card->line, XCORE_RX);
	queue_task(&tty->flip.tqueue, &tq_timer);
}

/* from the card: its transmitter has room */
void xcore_sent(struct xcard *card)
{
	struct xcore_line *xl = &xcore_line[card->line];

	if (!xl->tty)
		return;
	set_bit(XCORE_EVENT_WAKEUP, &xl->event);
	queue_task(&xl->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

EXPORT_SYMBOL(register_xcard);
EXPORT_SYMBOL(unregister_xcard);
EXPORT_SYMBOL(xcore_receive);
EXPORT_SYMBOL(xcore_sent);

static int xcore_open(struct tty_struct *tty, struct file *filp)
{
	int line = MINOR(tty->device) - tty->driver.minor_start;
	struct xcore_line *xl;

	if (line < 0 || line >= XCORE_MAX_CARDS)
		return -ENODEV;
	xl = &xcore_line[line];
	if (!xl->card)
		return -ENODEV;
	MOD_INC_USE_COUNT;
	xl->count++;
	tty->driver_data = xl;
	xl->tty = tty;
	return 0;
}

static void xcore_close(struct tty_struct *tty, struct file *filp)
{
	struct xcore_line *xl = (struct xcore_line *) tty->driver_data;

	if (!xl || xl->magic != XCORE_MAGIC)
		return;
	if (tty_hung_up_p(filp)) {
		MOD_DEC_USE_COUNT;
		return;
	}
	if (--xl->count <= 0) {
		xl->count = 0;
		tty->closing = 1;
		if (tty->ldisc.flush_buffer)
			tty->ldisc.flush_buffer(tty);
		tty->closing = 0;
		xl->event = 0;
		xl->tty = 0;
	}
	MOD_DEC_USE_COUNT;
}

static int xcore_write(struct tty_struct *tty, int from_user,
		       const unsigned char *buf, int count)
{
	struct xcore_line *xl = (struct xcore_line *) tty->driver_data;
	unsigned char tmp[64];
	int c, done, total = 0;

	if (!xl || !xl->card)
		return -ENODEV;
	while (count > 0) {
		c = count < (int) sizeof(tmp) ? count : (int) sizeof(tmp);
		if (from_user) {
			if (copy_from_user(tmp, buf, c))
				return total ? total : -EFAULT;
		} else {
			memcpy(tmp, buf, c);
		}
		done = xl->card->send(xl->card, tmp, c);
		if (done <= 0)
			break;
		XCORE_COUNT(xl->card->line, XCORE_TX);
		buf += done;
		count -= done;
		total += done;
	}
	if (total)
		xl->card->kick(xl->card);
	return total;
}

static int xcore_write_room(struct tty_struct *tty)
{
	struct xcore_line *xl = (struct xcore_line *) tty->driver_data;

	if (!xl || !xl->card)
		return 0;
	return xl->card->room(xl->card);
}

static int xcore_chars_in_buffer(struct tty_struct *tty)
{
	return 0;
}

static void xcore_hangup(struct tty_struct *tty)
{
	struct xcore_line *xl = (struct xcore_line *) tty->driver_data;

	if (!xl)
		return;
	xl->count = 0;
	xl->event = 0;
	xl->tty = 0;
}

static int __init xcore_init(void)
{
	int i;

	printk(KERN_INFO "xcore: the xcore tty family core\n");
	memset(&xcore_driver, 0, sizeof(xcore_driver));
	xcore_driver.magic = TTY_DRIVER_MAGIC;
	xcore_driver.driver_name = "xcore";
	xcore_driver.name = "ttyX";
	xcore_driver.major = XCORE_MAJOR;
	xcore_driver.num = XCORE_MAX_CARDS;
	xcore_driver.type = TTY_DRIVER_TYPE_SERIAL;
	xcore_driver.subtype = SERIAL_TYPE_NORMAL;
	xcore_driver.init_termios = tty_std_termios;
	xcore_driver.init_termios.c_cflag = B9600 | CS8 | CREAD | CLOCAL;
	/*
	 * a card may give back what it is sent: an echo would feed itself;
	 * and a write is handed to the card whole, not a character at a time
	 */
	xcore_driver.init_termios.c_lflag &=
		~(ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE);
	xcore_driver.init_termios.c_oflag &= ~OPOST;
	xcore_driver.flags = TTY_DRIVER_REAL_RAW;
	xcore_driver.refcount = &xcore_refcount;
	xcore_driver.table = xcore_table;
	xcore_driver.termios = xcore_termios;
	xcore_driver.termios_locked = xcore_termios_locked;
	xcore_driver.open = xcore_open;
	xcore_driver.close = xcore_close;
	xcore_driver.write = xcore_write;
	xcore_driver.write_room = xcore_write_room;
	xcore_driver.chars_in_buffer = xcore_chars_in_buffer;
	xcore_driver.hangup = xcore_hangup;

	for (i = 0; i < XCORE_MAX_CARDS; i++) {
		struct xcore_line *xl = &xcore_line[i];

		memset(xl, 0, sizeof(*xl));
		xl->magic = XCORE_MAGIC;
		xl->tqueue.routine = xcore_softint;
		xl->tqueue.data = xl;
	}
	if (tty_register_driver(&xcore_driver)) {
		printk(KERN_ERR "xcore: couldn't register the tty driver\n");
		return -EIO;
	}
	return 0;
}

static void __exit xcore_exit(void)
{
	if (tty_unregister_driver(&xcore_driver))
		printk(KERN_ERR "xcore: couldn't unregister the tty driver\n");
}

module_init(xcore_init);
module_exit(xcore_exit);
