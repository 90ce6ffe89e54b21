/*
 *  leaky.c  -- a 2.4-style tty driver whose init leaks on one error path.
 *
 *  For the tests of the exerciser's init_unwind (tests/tty24/run,
 *  tests/src/run): its init takes a region, a page, its major (through
 *  tty_register_driver()) and its line, and gives each back when a later
 *  one is refused, but for one: refused the major, it frees the page and
 *  forgets the region, as 2.4 drivers now and then did.  init_unwind must
 *  name that try (the fourth request: a check, the region, the page, the
 *  major) and the region it left.  No board: nothing is read from its
 *  ports, a write is "sent" at once, and no work is deferred: what is
 *  tested is the init, and that an open runs under the big kernel lock,
 *  as 2.4's chrdev_open() called it.
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/errno.h>
#include <linux/tty.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/init.h>
#include <linux/smp_lock.h>

#define LEAKY_MAJOR 241 /* local use (devices.txt) */
#define LEAKY_NPORT 2
#define LEAKY_IO_RANGE 8

static int io = 0x300;
static int irq = 7;

MODULE_PARM(io, "i");
MODULE_PARM(irq, "i");

static struct tty_driver leaky_driver;
static int leaky_refcount;
static struct tty_struct *leaky_table[LEAKY_NPORT];
static struct termios *leaky_termios[LEAKY_NPORT];
static struct termios *leaky_termios_locked[LEAKY_NPORT];
static unsigned long leaky_page;
static void leaky_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
}

/* 2.4's chrdev_open() called an open under the big kernel lock */
static int leaky_open(struct tty_struct *tty, struct file *filp)
{
	if (!kernel_locked())
		printk(KERN_ERR "leaky: open without the big kernel lock\n");
	MOD_INC_USE_COUNT;
	return 0;
}

static void leaky_close(struct tty_struct *tty, struct file *filp)
{
	MOD_DEC_USE_COUNT;
}

static int leaky_write(struct tty_struct *tty, int from_user,
		       const unsigned char *buf, int count)
{
	return count;
}

static int leaky_write_room(struct tty_struct *tty)
{
	return PAGE_SIZE;
}

static int leaky_chars_in_buffer(struct tty_struct *tty)
{
	return 0;
}

static int __init leaky_init(void)
{
	int error;

	if (check_region(io, LEAKY_IO_RANGE))
		return -EBUSY;
	if (!request_region(io, LEAKY_IO_RANGE, "leaky"))
		return -EBUSY;
	leaky_page = get_free_page(GFP_KERNEL);
	if (!leaky_page) {
		release_region(io, LEAKY_IO_RANGE);
		return -ENOMEM;
	}
	memset(&leaky_driver, 0, sizeof(leaky_driver));
	leaky_driver.magic = TTY_DRIVER_MAGIC;
	leaky_driver.name = "ttyK";
	leaky_driver.major = LEAKY_MAJOR;
	leaky_driver.num = LEAKY_NPORT;
	leaky_driver.type = TTY_DRIVER_TYPE_SERIAL;
	leaky_driver.subtype = SERIAL_TYPE_NORMAL;
	leaky_driver.init_termios = tty_std_termios;
	leaky_driver.flags = TTY_DRIVER_REAL_RAW;
	leaky_driver.refcount = &leaky_refcount;
	leaky_driver.table = leaky_table;
	leaky_driver.termios = leaky_termios;
	leaky_driver.termios_locked = leaky_termios_locked;
	leaky_driver.open = leaky_open;
	leaky_driver.close = leaky_close;
	leaky_driver.write = leaky_write;
	leaky_driver.write_room = leaky_write_room;
	leaky_driver.chars_in_buffer = leaky_chars_in_buffer;
	error = tty_register_driver(&leaky_driver);
	if (error) {
		/* the bug: the region stays claimed */
		free_page(leaky_page);
		return error;
	}
	error = request_irq(irq, leaky_interrupt, 0, "leaky", &leaky_driver);
	if (error) {
		tty_unregister_driver(&leaky_driver);
		free_page(leaky_page);
		release_region(io, LEAKY_IO_RANGE);
		return error;
	}
	return 0;
}

static void __exit leaky_exit(void)
{
	free_irq(irq, &leaky_driver);
	tty_unregister_driver(&leaky_driver);
	free_page(leaky_page);
	release_region(io, LEAKY_IO_RANGE);
}

module_init(leaky_init);
module_exit(leaky_exit);
