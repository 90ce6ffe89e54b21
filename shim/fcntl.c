/*
 * fcntl.c - asynchronous notification of an open file's owners (SIGIO),
 * as 2.4's fs/fcntl.c kept it: a list of fasync_struct per device.  A
 * signal sent here is counted (signal.c), never delivered.
 */
#include "shim.h"
#include <linux/slab.h>

#define FASYNC_MAGIC 0x4601
#define SIGIO 29

struct file;
struct fasync_struct {
	int magic;
	int fa_fd;
	struct fasync_struct *fa_next;
	struct file *fa_file;
};

extern int kill_proc(int pid, int sig, int priv);

static DEFINE_SPINLOCK(fasync_lock);

/* Add (@on) or remove @filp on @fapp's list: 1 if it changed, or -ENOMEM. */
int fasync_helper(int fd, struct file *filp, int on,
		  struct fasync_struct **fapp)
{
	struct fasync_struct *fa, **fp, *new = NULL;
	int result = 0;

	if (on) {
		new = kmalloc(sizeof(*new), GFP_KERNEL);
		if (!new)
			return -ENOMEM;
	}
	spin_lock_irq(&fasync_lock);
	for (fp = fapp; (fa = *fp) != NULL; fp = &fa->fa_next) {
		if (fa->fa_file == filp) {
			if (on) {
				fa->fa_fd = fd;
				kfree(new);
			} else {
				*fp = fa->fa_next;
				kfree(fa);
				result = 1;
			}
			goto out;
		}
	}
	if (on) {
		new->magic = FASYNC_MAGIC;
		new->fa_file = filp;
		new->fa_fd = fd;
		new->fa_next = *fapp;
		*fapp = new;
		result = 1;
	}
out:
	spin_unlock_irq(&fasync_lock);
	return result;
}

/* SIGIO to every owner on the list: one signal each, counted */
void kill_fasync(struct fasync_struct **fp, int sig, int band)
{
	struct fasync_struct *fa;

	(void) band;
	spin_lock(&fasync_lock);
	for (fa = *fp; fa; fa = fa->fa_next)
		kill_proc(0, sig ? sig : SIGIO, 1);
	spin_unlock(&fasync_lock);
}
