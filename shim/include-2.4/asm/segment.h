/* asm/segment.h - i386's segment selectors; what older drivers include */
#ifndef _ASM24_SEGMENT_H
#define _ASM24_SEGMENT_H

#define __KERNEL_CS 0x10
#define __KERNEL_DS 0x18
#define __USER_CS 0x23
#define __USER_DS 0x2B

#endif /* _ASM24_SEGMENT_H */
