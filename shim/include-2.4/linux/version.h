/* linux/version.h - the kernel 2.4 code is written for: 2.4.0 */
#ifndef _LINUX_VERSION_H
#define _LINUX_VERSION_H

#define UTS_RELEASE "2.4.0"
#define LINUX_VERSION_CODE 132096 /* 0x020400 */
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))

#endif /* _LINUX_VERSION_H */
