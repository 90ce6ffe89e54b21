/*
 * devices.c - the character device table, as 2.4's fs/devices.c kept it,
 * and the misc minors (drivers/char/misc.c).
 *
 * A driver registers the file operations of its major; the VFS, here a
 * scenario (shim_chrdev_fops()), opens a device through them.  Major 0
 * asks for a free one, given from the top down as 2.4 did.  A major or a
 * minor can be made to be taken already (shim/fault.c): -EBUSY.
 */
#include "shim.h"

#define MAX_CHRDEV 255
#define MAX_MISC 64

struct file_operations;

static struct {
	const char *name;
	struct file_operations *fops;
} chrdevs[MAX_CHRDEV];

static struct {
	int minor;
	const char *name;
	struct file_operations *fops;
	void *misc;
} miscs[MAX_MISC];

static DEFINE_SPINLOCK(chrdevs_lock);

int register_chrdev(unsigned int major, const char *name,
		    struct file_operations *fops)
{
	int ret = -EBUSY;

	if (shim_fault_resource(__builtin_return_address(0),
				"register_chrdev(%u, \"%s\")", major,
				name ?: "?"))
		return -EBUSY;
	spin_lock(&chrdevs_lock);
	if (major == 0) {
		for (major = MAX_CHRDEV - 1; major > 0; major--)
			if (!chrdevs[major].fops)
				break;
		if (major > 0) {
			chrdevs[major].name = name;
			chrdevs[major].fops = fops;
			ret = major;
		}
	} else if (major < MAX_CHRDEV) {
		/* the owner may register again, with new operations */
		if (!chrdevs[major].fops || chrdevs[major].fops == fops) {
			chrdevs[major].name = name;
			chrdevs[major].fops = fops;
			ret = 0;
		}
	} else {
		ret = -EINVAL;
	}
	spin_unlock(&chrdevs_lock);
	return ret;
}

int unregister_chrdev(unsigned int major, const char *name)
{
	int ret = -EINVAL;

	spin_lock(&chrdevs_lock);
	if (major < MAX_CHRDEV && chrdevs[major].fops &&
	    !strcmp(chrdevs[major].name, name)) {
		chrdevs[major].name = NULL;
		chrdevs[major].fops = NULL;
		ret = 0;
	}
	spin_unlock(&chrdevs_lock);
	return ret;
}

/* Majors registered and misc minors, named into @buf. */
int shim_chrdevs_held(char *buf, size_t len)
{
	size_t off = 0;
	int i, n = 0;

	if (len)
		buf[0] = 0;
	spin_lock(&chrdevs_lock);
	for (i = 0; i < MAX_CHRDEV; i++) {
		if (!chrdevs[i].fops)
			continue;
		if (off < len)
			off += snprintf(buf + off, len - off, "%smajor %d %s",
					n ? ", " : "", i,
					chrdevs[i].name ?: "?");
		n++;
	}
	for (i = 0; i < MAX_MISC; i++) {
		if (!miscs[i].misc)
			continue;
		if (off < len)
			off += snprintf(buf + off, len - off, "%smisc %d %s",
					n ? ", " : "", miscs[i].minor,
					miscs[i].name ?: "?");
		n++;
	}
	spin_unlock(&chrdevs_lock);
	return n;
}

/* For the VFS of the sandbox: the operations of @major, or NULL. */
struct file_operations *shim_chrdev_fops(unsigned int major)
{
	struct file_operations *fops = NULL;

	spin_lock(&chrdevs_lock);
	if (major < MAX_CHRDEV)
		fops = chrdevs[major].fops;
	spin_unlock(&chrdevs_lock);
	return fops;
}

/*
 * The majors registered, in order, into @majors (at most @max): what a
 * user of the module can open, for the exerciser to drive what the
 * module registered besides its tty drivers.
 */
int shim_chrdev_majors(unsigned int *majors, int max)
{
	int i, n = 0;

	spin_lock(&chrdevs_lock);
	for (i = 0; i < MAX_CHRDEV && n < max; i++)
		if (chrdevs[i].fops)
			majors[n++] = i;
	spin_unlock(&chrdevs_lock);
	return n;
}

/* The misc minors registered, by minor, into @minors (at most @max). */
int shim_misc_minors(int *minors, int max)
{
	int all[MAX_MISC], i, j, n = 0;

	spin_lock(&chrdevs_lock);
	for (i = 0; i < MAX_MISC; i++) {
		if (!miscs[i].misc)
			continue;
		/* as /dev lists them: a slot's order is the table's */
		for (j = n++; j > 0 && all[j - 1] > miscs[i].minor; j--)
			all[j] = all[j - 1];
		all[j] = miscs[i].minor;
	}
	spin_unlock(&chrdevs_lock);
	for (i = 0; i < n && i < max; i++)
		minors[i] = all[i];
	return i;
}

/*
 * The operations of misc minor @minor, or NULL: what 2.4's misc_open()
 * put in the file it opened on the misc major.
 */
struct file_operations *shim_misc_fops(int minor)
{
	struct file_operations *fops = NULL;
	int i;

	spin_lock(&chrdevs_lock);
	for (i = 0; i < MAX_MISC; i++)
		if (miscs[i].misc && miscs[i].minor == minor)
			fops = miscs[i].fops;
	spin_unlock(&chrdevs_lock);
	return fops;
}

/* the shape of 2.4's struct miscdevice (linux/miscdevice.h) */
struct miscdevice {
	int minor;
	const char *name;
	struct file_operations *fops;
	struct miscdevice *next, *prev;
	void *devfs_handle;
};

#define MISC_DYNAMIC_MINOR 255

int misc_register(struct miscdevice *misc)
{
	int i, free = -1, ret = 0, minor = misc->minor;

	if (shim_fault_resource(__builtin_return_address(0),
				"misc_register(%d, \"%s\")", minor,
				misc->name ?: "?"))
		return -EBUSY;
	spin_lock(&chrdevs_lock);
	for (i = 0; i < MAX_MISC; i++) {
		if (!miscs[i].misc) {
			if (free < 0)
				free = i;
		} else if (minor != MISC_DYNAMIC_MINOR &&
			   miscs[i].minor == minor) {
			ret = -EBUSY;
		}
	}
	if (!ret && free < 0)
		ret = -EBUSY;
	if (!ret) {
		/* dynamic minors from 63 down, as 2.4's misc_register() */
		if (minor == MISC_DYNAMIC_MINOR)
			misc->minor = minor = 63 - free;
		miscs[free].minor = minor;
		miscs[free].name = misc->name;
		miscs[free].fops = misc->fops;
		miscs[free].misc = misc;
	}
	spin_unlock(&chrdevs_lock);
	return ret;
}

int misc_deregister(struct miscdevice *misc)
{
	int i, ret = -EINVAL;

	spin_lock(&chrdevs_lock);
	for (i = 0; i < MAX_MISC; i++) {
		if (miscs[i].misc == misc) {
			miscs[i].misc = NULL;
			ret = 0;
		}
	}
	spin_unlock(&chrdevs_lock);
	return ret;
}
