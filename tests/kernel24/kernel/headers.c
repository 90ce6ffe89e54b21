/*
 * headers.c - 2.4 code on the 2.4 headers (shim/include-2.4), as a module
 * build compiles it: what each macro does, for tests.c to check.  No C
 * library header here: 2.4's types are the kernel's.
 */
#include <linux/config.h>
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/mm.h>
#include <linux/ioport.h>
#include <linux/kdev_t.h>
#include <linux/termios.h>
#include <linux/serial.h>
#include <linux/version.h>
#include <linux/init.h>
#include <linux/proc_fs.h>
#include <asm/uaccess.h>
#include <asm/system.h>

#include "k24.h"

/* --- a module: its parameter, init and exit, use count -------------------- */

static int param = 42;
MODULE_PARM(param, "i");
MODULE_PARM_DESC(param, "a number");
MODULE_AUTHOR("the sandbox");

static int inits, exits;

static int __init k24_init(void)
{
	inits++;
	MOD_INC_USE_COUNT;
	return param;
}

static void __exit k24_exit(void)
{
	exits++;
	MOD_DEC_USE_COUNT;
}

module_init(k24_init);
module_exit(k24_exit);

int k24_module(int *in_use_after_init, int *n_inits, int *n_exits)
{
	int ret = init_module();

	*in_use_after_init = MOD_IN_USE;
	cleanup_module();
	*n_inits = inits;
	*n_exits = exits;
	return ret;
}

/* --- the global interrupt lock's macros ------------------------------------- */

void k24_flags(unsigned long *before, unsigned long *inside,
	       unsigned long *restored)
{
	unsigned long flags;

	save_flags(flags);
	*before = flags;
	cli();
	save_flags(*inside);
	restore_flags(flags);
	save_flags(*restored);
}

/* --- user memory: the caller's, but the first page faults ------------------- */

/* get_user() of a const pointer, as isdn_tty.c reads what a user wrote */
int k24_get_const(const unsigned char *user_buf, int *c)
{
	return get_user(*c, user_buf + 1);
}

int k24_uaccess(char *user_buf, unsigned long *not_copied_null, int *get_null)
{
	int v = 0;

	*not_copied_null = copy_to_user((void *) 0, "abc", 3);
	*get_null = get_user(v, (int *) 16);
	(void) v;
	if (copy_to_user(user_buf, "2.4", 4))
		return -EFAULT;
	return verify_area(VERIFY_WRITE, user_buf, 4);
}

/*
 * A copy from past the user half, as from past 2.4's user segment: what
 * was not copied, zeroed, and the size of it; a get_user() from there.
 */
int k24_uaccess_high(unsigned long *not_copied, int *zeroed, int *get)
{
	unsigned char buf[8];
	int v = 1, i;

	memset(buf, 0xaa, sizeof(buf));
	*not_copied =
		copy_from_user(buf, (void *) 0x9e3779b97f4a7c15UL, sizeof(buf));
	for (*zeroed = 1, i = 0; i < (int) sizeof(buf); i++)
		*zeroed &= buf[i] == 0;
	*get = get_user(v, (int *) (1UL << 47));
	return v;
}

/* --- pages ------------------------------------------------------------------ */

int k24_pages(long *outstanding_with_page)
{
	extern long shim_kmalloc_outstanding(void);
	unsigned long page = get_free_page(GFP_KERNEL);
	unsigned long pages = __get_free_pages(GFP_KERNEL, 1);
	int zeroed = 1, i;

	for (i = 0; i < (int) PAGE_SIZE; i++)
		zeroed &= ((unsigned char *) page)[i] == 0;
	((unsigned char *) pages)[2 * PAGE_SIZE - 1] = 1; /* two pages */
	*outstanding_with_page = shim_kmalloc_outstanding();
	free_page(page);
	free_pages(pages, 1);
	free_page(0); /* nothing: 2.4 let it go by */
	return zeroed;
}

/* --- device numbers, regions, termios, the version --------------------------- */

const char *k24_kdevname(void)
{
	return kdevname(MKDEV(TTY_MAJOR, 64));
}

int k24_regions(void)
{
	int ret = 0;

	if (check_region(0x2f8, 8))
		ret |= 1;
	if (!request_region(0x2f8, 8, "k24"))
		ret |= 2;
	if (check_region(0x2fc, 2) != -EBUSY)
		ret |= 4;
	release_region(0x2f8, 8);
	if (check_region(0x2f8, 8))
		ret |= 8;
	return ret;
}

int k24_abi(void)
{
	/* i386's: struct termios is 36 bytes; the ioctls and speeds */
	return sizeof(struct termios) == 36 && TCGETS == 0x5401 &&
	       TIOCMGET == 0x5415 && TIOCGICOUNT == 0x545D && B38400 == 017 &&
	       B115200 == 010002 && CRTSCTS == 020000000000 &&
	       LINUX_VERSION_CODE == KERNEL_VERSION(2, 4, 0) &&
	       MAJOR(MKDEV(48, 3)) == 48 && MINOR(MKDEV(48, 3)) == 3;
}

/* --- jiffies, read in a loop, move --------------------------------------------- */

unsigned long k24_busy_wait_ticks(unsigned long ticks)
{
	unsigned long start = jiffies, until = start + ticks;

	while (time_before(jiffies, until))
		;
	return jiffies - start;
}

/* --- /proc: there is none; the root is a parent all the same ---------------- */

static int no_info(char *buffer, char **start, off_t offset, int length)
{
	return 0;
}

int k24_proc(void)
{
	struct proc_dir_entry *root = &proc_root;

	return !create_proc_info_entry("k24", 0, root, no_info) &&
	       !create_proc_entry("k24", 0, root) && root == &proc_root;
}
