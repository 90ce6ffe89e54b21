/*
 * linux/proc_fs.h - /proc entries a 2.4 driver makes.  The sandbox has no
 * /proc: creating an entry gives NULL, which 2.4 drivers took for "no
 * /proc", and removing one does nothing.
 */
#ifndef _LINUX24_PROC_FS_H
#define _LINUX24_PROC_FS_H

#include <linux/types.h>
#include <linux/fs.h>

typedef int(get_info_t)(char *buffer, char **start, off_t offset, int length);
typedef int(read_proc_t)(char *page, char **start, off_t off, int count,
			 int *eof, void *data);
typedef int(write_proc_t)(struct file *file, const char *buffer,
			  unsigned long count, void *data);

struct proc_dir_entry {
	unsigned short low_ino;
	unsigned short namelen;
	const char *name;
	mode_t mode;
	nlink_t nlink;
	uid_t uid;
	gid_t gid;
	unsigned long size;
	struct file_operations *proc_fops;
	struct proc_dir_entry *next, *parent, *subdir;
	void *data;
	read_proc_t *read_proc;
	write_proc_t *write_proc;
	atomic_t count;
	int deleted;
};

/*
 * The root, which drivers only name as a parent: one weak definition
 * here, merged across the files that include this.
 */
struct proc_dir_entry proc_root __attribute__((weak));

static inline struct proc_dir_entry *
create_proc_entry(const char *name, mode_t mode, struct proc_dir_entry *p)
{
	return NULL;
}

static inline void remove_proc_entry(const char *name,
				     struct proc_dir_entry *parent)
{
}

static inline struct proc_dir_entry *
create_proc_read_entry(const char *name, mode_t mode,
		       struct proc_dir_entry *base, read_proc_t *read_proc,
		       void *data)
{
	return NULL;
}

static inline struct proc_dir_entry *
create_proc_info_entry(const char *name, mode_t mode,
		       struct proc_dir_entry *base, get_info_t *get_info)
{
	return NULL;
}

static inline struct proc_dir_entry *proc_mkdir(const char *name,
						struct proc_dir_entry *p)
{
	return NULL;
}

struct tty_driver;
static inline void proc_tty_register_driver(struct tty_driver *driver)
{
}

static inline void proc_tty_unregister_driver(struct tty_driver *driver)
{
}

#endif /* _LINUX24_PROC_FS_H */
