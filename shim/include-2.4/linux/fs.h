/*
 * linux/fs.h - what a 2.4 character driver sees of the VFS: the file and
 * inode of an open device, file operations, async notification, the
 * character device table.  Only the fields tty drivers and the tty layer
 * read are kept, with 2.4's names and types.
 */
#ifndef _LINUX24_FS_H
#define _LINUX24_FS_H

#include <linux/config.h>
#include <linux/types.h>
#include <linux/list.h>
#include <linux/wait.h>
#include <linux/kdev_t.h>
#include <linux/ioctl.h>
#include <linux/stat.h>
#include <linux/fcntl.h>
#include <linux/string.h>
#include <asm/atomic.h>
#include <asm/byteorder.h> /* 2.4's fs.h brought it to every driver */
#include <asm/semaphore.h>
/*
 * 2.4's fs.h included linux/net.h, and with it linux/socket.h: every
 * driver saw sa_family_t and struct sockaddr, which linux/in.h takes for
 * granted.  The tree's socket.h, where there is a tree.
 */
#if __has_include(<linux/sockios.h>) && __has_include(<linux/net.h>)
#include <linux/socket.h>
#endif

struct module;
struct poll_table_struct;
struct vm_area_struct;
struct file_lock;
struct iovec;
struct page;

#define READ 0
#define WRITE 1
#define FMODE_READ 1
#define FMODE_WRITE 2

#define NR_FILE 8192
#define BLOCK_SIZE 1024

typedef int (*filldir_t)(void *, const char *, int, off_t, ino_t);

struct inode {
	struct list_head i_list;
	unsigned long i_ino;
	atomic_t i_count;
	kdev_t i_dev;
	umode_t i_mode;
	nlink_t i_nlink;
	uid_t i_uid;
	gid_t i_gid;
	kdev_t i_rdev;
	loff_t i_size;
	struct semaphore i_sem;
	wait_queue_head_t i_wait;
	void *generic_ip;
};

struct dentry {
	atomic_t d_count;
	struct inode *d_inode;
	struct dentry *d_parent;
};

struct fown_struct {
	int pid;
	uid_t uid, euid;
	int signum;
};

struct file {
	struct list_head f_list;
	struct dentry *f_dentry;
	struct vfsmount *f_vfsmnt;
	struct file_operations *f_op;
	atomic_t f_count;
	unsigned int f_flags;
	mode_t f_mode;
	loff_t f_pos;
	struct fown_struct f_owner;
	unsigned int f_uid, f_gid;
	int f_error;
	unsigned long f_version;
	void *private_data; /* the tty, for a tty */
};

struct file_operations {
	struct module *owner;
	loff_t (*llseek)(struct file *, loff_t, int);
	ssize_t (*read)(struct file *, char *, size_t, loff_t *);
	ssize_t (*write)(struct file *, const char *, size_t, loff_t *);
	int (*readdir)(struct file *, void *, filldir_t);
	unsigned int (*poll)(struct file *, struct poll_table_struct *);
	int (*ioctl)(struct inode *, struct file *, unsigned int,
		     unsigned long);
	int (*mmap)(struct file *, struct vm_area_struct *);
	int (*open)(struct inode *, struct file *);
	int (*flush)(struct file *);
	int (*release)(struct inode *, struct file *);
	int (*fsync)(struct file *, struct dentry *, int datasync);
	int (*fasync)(int, struct file *, int);
	int (*lock)(struct file *, int, struct file_lock *);
	ssize_t (*readv)(struct file *, const struct iovec *, unsigned long,
			 loff_t *);
	ssize_t (*writev)(struct file *, const struct iovec *, unsigned long,
			  loff_t *);
};

/* SIGIO to the owners of an open file: kept on a list of these */
struct fasync_struct {
	int magic;
	int fa_fd;
	struct fasync_struct *fa_next;
	struct file *fa_file;
};
#define FASYNC_MAGIC 0x4601

/* POSIX.1g's SIGIO bands */
#define POLL_IN 1
#define POLL_OUT 2
#define POLL_MSG 3
#define POLL_ERR 4
#define POLL_PRI 5
#define POLL_HUP 6

extern int fasync_helper(int fd, struct file *filp, int on,
			 struct fasync_struct **fapp);
extern void kill_fasync(struct fasync_struct **fp, int sig, int band);

/* the character device table (fs/devices.c): 0 or a major, or -EBUSY */
#define MAX_CHRDEV 255
extern int register_chrdev(unsigned int major, const char *name,
			   struct file_operations *fops);
extern int unregister_chrdev(unsigned int major, const char *name);

extern loff_t no_llseek(struct file *file, loff_t offset, int origin);

#endif /* _LINUX24_FS_H */
