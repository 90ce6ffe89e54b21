/* linux/vmalloc.h - virtually contiguous memory: plain kmalloc() here */
#ifndef _LINUX24_VMALLOC_H
#define _LINUX24_VMALLOC_H

#include <linux/slab.h>

#define vmalloc(size) shim_kmalloc((size), GFP_KERNEL, __func__)
#define vfree(addr) shim_kfree((addr), __func__)

#endif /* _LINUX24_VMALLOC_H */
