#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H

/*
 * glibc never includes <linux/types.h> from the headers the shim uses, but
 * the kernel's uapi headers do; chain to the system's so both can coexist.
 */
#include_next <linux/types.h>
#include <stddef.h>

/* As 2.5 had them on 64-bit machines: u64 is a long, as uint64_t is here. */
typedef signed char s8;
typedef unsigned char u8;
typedef signed short s16;
typedef unsigned short u16;
typedef signed int s32;
typedef unsigned int u32;
typedef signed long s64;
typedef unsigned long u64;

/* The POSIX types the kernel defines for itself, as the host has them. */
typedef int pid_t;
typedef long ssize_t;
typedef long off_t;
typedef long loff_t;
typedef unsigned int mode_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;

#endif /* _SHIM_LINUX_TYPES_H */
