/*
 * unwind.c - a 2.4 module's init that takes one resource of each kind
 * the sandbox can refuse (shim/fault.c), in a known order, and gives back
 * what it took when one is refused; for unwind.c beside k24.h.
 */
#include <linux/config.h>
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/ioport.h>
#include <linux/interrupt.h>
#include <linux/miscdevice.h>
#include <linux/tty.h>
#include <linux/tty_driver.h>
#include <linux/pci.h>
#include <linux/completion.h>
#include <asm/dma.h>
#include <tty-core/record.h>

#include "k24.h"

#define U_IO 0x2e8
#define U_MEM 0xd8000
#define U_IRQ 9
#define U_DMA 3

static void *u_buf;
static unsigned long u_page;
static int u_major;
static struct file_operations u_fops;
static struct miscdevice u_misc = { MISC_DYNAMIC_MINOR, "k24unwind", &u_fops };
static struct tty_driver u_tty;
static int u_refcount;
static struct tty_struct *u_table[1];
static struct termios *u_termios[1], *u_termios_locked[1];
static DECLARE_COMPLETION(u_thread_done);

static void u_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
}

static int u_thread(void *unused)
{
	complete_and_exit(&u_thread_done, 0);
}

int k24_unwind_init(void)
{
	struct pci_dev *pdev;
	int err;

	if (check_region(U_IO, 8))
		return -EBUSY;
	err = -EBUSY;
	if (!request_region(U_IO, 8, "k24unwind"))
		goto out;
	if (!request_mem_region(U_MEM, 0x1000, "k24unwind"))
		goto out_io;
	err = -ENOMEM;
	u_buf = kmalloc(64, GFP_KERNEL);
	if (!u_buf)
		goto out_mem;
	u_page = get_free_page(GFP_KERNEL);
	if (!u_page)
		goto out_buf;
	err = request_irq(U_IRQ, u_interrupt, 0, "k24unwind", &u_buf);
	if (err)
		goto out_page;
	err = request_dma(U_DMA, "k24unwind");
	if (err)
		goto out_irq;
	u_major = register_chrdev(0, "k24unwind", &u_fops);
	if (u_major < 0) {
		err = u_major;
		goto out_dma;
	}
	err = misc_register(&u_misc);
	if (err)
		goto out_chrdev;
	memset(&u_tty, 0, sizeof(u_tty));
	u_tty.magic = TTY_DRIVER_MAGIC;
	u_tty.name = "ttyU";
	u_tty.major = 0;
	u_tty.num = 1;
	u_tty.type = TTY_DRIVER_TYPE_SERIAL;
	u_tty.init_termios = tty_std_termios;
	u_tty.refcount = &u_refcount;
	u_tty.table = u_table;
	u_tty.termios = u_termios;
	u_tty.termios_locked = u_termios_locked;
	/* 2.4.0's gives the major it found for major 0 */
	err = tty_register_driver(&u_tty);
	if (err < 0)
		goto out_misc;
	err = -ENODEV;
	pdev = pci_find_device(0x1393, 0x1680, NULL);
	if (!pdev)
		goto out_tty;
	err = pci_enable_device(pdev);
	if (err)
		goto out_tty;
	init_completion(&u_thread_done);
	err = kernel_thread(u_thread, NULL, 0);
	if (err < 0)
		goto out_tty;
	wait_for_completion(&u_thread_done);
	return 0;

out_tty:
	tty_unregister_driver(&u_tty);
out_misc:
	misc_deregister(&u_misc);
out_chrdev:
	unregister_chrdev(u_major, "k24unwind");
out_dma:
	free_dma(U_DMA);
out_irq:
	free_irq(U_IRQ, &u_buf);
out_page:
	free_page(u_page);
out_buf:
	kfree(u_buf);
out_mem:
	release_mem_region(U_MEM, 0x1000);
out_io:
	release_region(U_IO, 8);
out:
	return err;
}

void k24_unwind_exit(void)
{
	tty_unregister_driver(&u_tty);
	misc_deregister(&u_misc);
	unregister_chrdev(u_major, "k24unwind");
	free_dma(U_DMA);
	free_irq(U_IRQ, &u_buf);
	free_page(u_page);
	kfree(u_buf);
	release_mem_region(U_MEM, 0x1000);
	release_region(U_IO, 8);
}

/* anything of a module still held: tty drivers, then what shim/test.h says */
int k24_tty_drivers(void)
{
	struct tty_driver *d;
	int n = 0;

	for (d = tty_drivers; d; d = d->next)
		n++;
	return n;
}
