/*
 * gizmo.c - a 2.4 driver of the test's own, in the C gcc 2.95 took:
 * __FUNCTION__ pasted to strings, a cast assigned to, a string over a
 * line's end, a label at the end of a block.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/malloc.h>
#include <linux/gizmo_clock.h>

#include "gizmo.h"

static char *gizmo_banner = "gizmo: a board
of our own";

static void gizmo_skip(int n)
{
	if (n < 0)
		goto out;
	gizmo_count = n;
out:
}

int init_module(void)
{
	char *base = kmalloc(16, GFP_KERNEL);
	void *cursor = base;

	if (!base)
		return -ENOMEM;
	printk(KERN_ERR __FUNCTION__ ": failed\n");
	printk(KERN_INFO "%s" __FUNCTION__ "\n", "in ");
	gz_dbg(__FUNCTION__);
	GZ_TRACE("twice %d", gizmo_twice(2));
	(char *) cursor += 3;
	printk(KERN_INFO "gizmo: cursor %d at line %d\n", (int) ((char *) cursor - base), __LINE__);
	printk(KERN_INFO "%s\n", gizmo_banner);
	printk(KERN_INFO "gizmo: 2 seconds are %lu ms\n", gizmo_ticks_to_ms(2 * HZ));
	gizmo_skip(5);
	gizmo_io_start();
	kfree(base);
	return -ENODEV;
}

void cleanup_module(void)
{
}
