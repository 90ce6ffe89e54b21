/*
 * linux/fs.h - files and super blocks, as much as the ported paths use.
 * The files themselves are simulated (world/file.c, world/super.c).
 */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H

#include <linux/types.h>
#include <linux/list.h>
#include <asm/atomic.h>

struct file;
struct kiocb;

struct file_operations {
	int (*release)(struct file *);
	ssize_t (*aio_read)(struct kiocb *, char *, size_t, loff_t);
	ssize_t (*aio_write)(struct kiocb *, const char *, size_t, loff_t);
};

struct file {
	atomic_t f_count;
	struct file_operations *f_op;
	void *private_data;
	char f_name[32];
};

#define get_file(x) atomic_inc(&(x)->f_count)
#define file_count(x) atomic_read(&(x)->f_count)

/* the file behind descriptor @fd, with a reference; NULL if none */
extern struct file *fget(unsigned int fd);
/* drop a reference; the last one releases the file (and may sleep) */
extern void fput(struct file *);
extern void __fput(struct file *);

struct block_device;

struct super_block {
	struct list_head s_list;
	char s_id[32];
	unsigned long s_flags;
	struct block_device *s_bdev;
	void *s_fs_info;
};

#endif /* _LINUX_FS_H */
