/*
 * asm/types.h - i386's fixed-size types, for 2.4 code.  The system's
 * <linux/types.h> reaches this name too: chain to it first.
 */
#ifndef _ASM24_TYPES_H
#define _ASM24_TYPES_H

#include_next <asm/types.h>

#ifdef __KERNEL__
typedef unsigned long dma_addr_t;
typedef unsigned long long dma64_addr_t;
#endif

#endif /* _ASM24_TYPES_H */
