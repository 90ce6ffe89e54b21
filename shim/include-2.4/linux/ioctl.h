/* linux/ioctl.h - ioctl command numbers (asm/ioctl.h) */
#ifndef _LINUX24_IOCTL_H
#define _LINUX24_IOCTL_H

#include <asm/ioctl.h>

#endif /* _LINUX24_IOCTL_H */
