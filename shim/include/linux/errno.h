#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H

/* <errno.h> itself includes <linux/errno.h>: chain to the system's. */
#include_next <linux/errno.h>

/* Kernel-internal codes, never seen by user space. */
#ifndef ERESTARTSYS
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ENOIOCTLCMD 515
#endif

#endif /* _SHIM_LINUX_ERRNO_H */
