/*
 * linux/devfs_fs_kernel.h - devfs, which linux/config.h leaves out: a
 * registration gives no handle, and the char device calls are the
 * character device table's.
 */
#ifndef _LINUX24_DEVFS_FS_KERNEL_H
#define _LINUX24_DEVFS_FS_KERNEL_H

#include <linux/fs.h>

#define DEVFS_FL_NONE 0x000
#define DEVFS_FL_AUTO_OWNER 0x001
#define DEVFS_FL_SHOW_UNREG 0x002
#define DEVFS_FL_HIDE 0x004
#define DEVFS_FL_AUTO_DEVNUM 0x008
#define DEVFS_FL_AOPEN_NOTIFY 0x010
#define DEVFS_FL_REMOVABLE 0x020
#define DEVFS_FL_WAIT 0x040
#define DEVFS_FL_CURRENT_OWNER 0x080
#define DEVFS_FL_DEFAULT DEVFS_FL_NONE
#define DEVFS_SPECIAL_CHR 0
#define DEVFS_SPECIAL_BLK 1

typedef struct devfs_entry *devfs_handle_t;

static inline devfs_handle_t
devfs_register(devfs_handle_t dir, const char *name, unsigned int flags,
	       unsigned int major, unsigned int minor, umode_t mode, void *ops,
	       void *info)
{
	return NULL;
}

static inline void devfs_unregister(devfs_handle_t de)
{
}

static inline devfs_handle_t devfs_mk_dir(devfs_handle_t dir, const char *name,
					  void *info)
{
	return NULL;
}

static inline void devfs_register_series(devfs_handle_t dir, const char *format,
					 unsigned int num, unsigned int flags,
					 unsigned int major,
					 unsigned int minor_start, umode_t mode,
					 void *ops, void *info)
{
}

static inline devfs_handle_t
devfs_find_handle(devfs_handle_t dir, const char *name, unsigned int major,
		  unsigned int minor, char type, int traverse_symlinks)
{
	return NULL;
}

#define devfs_register_chrdev register_chrdev
#define devfs_unregister_chrdev unregister_chrdev

#endif /* _LINUX24_DEVFS_FS_KERNEL_H */
