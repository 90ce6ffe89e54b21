/*
 * linux/miscdevice.h - a minor of the misc major (10) for a driver's
 * control device; registered in a table of the sandbox's (shim/devices.c).
 */
#ifndef _LINUX24_MISCDEVICE_H
#define _LINUX24_MISCDEVICE_H

#include <linux/fs.h>
#include <linux/major.h>

#define MISC_DYNAMIC_MINOR 255

struct miscdevice {
	int minor;
	const char *name;
	struct file_operations *fops;
	struct miscdevice *next, *prev;
	void *devfs_handle;
};

extern int misc_register(struct miscdevice *misc);
extern int misc_deregister(struct miscdevice *misc);

#endif /* _LINUX24_MISCDEVICE_H */
