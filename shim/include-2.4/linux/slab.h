/* linux/slab.h - the shim's allocator, with 2.4's SLAB_ names for GFP flags */
#ifndef _LINUX24_SLAB_H
#define _LINUX24_SLAB_H

#include_next <linux/slab.h>

#define SLAB_BUFFER GFP_NOIO
#define SLAB_ATOMIC GFP_ATOMIC
#define SLAB_USER GFP_USER
#define SLAB_KERNEL GFP_KERNEL
#define SLAB_NFS GFP_NOFS
#define SLAB_DMA 0x08u

#define SLAB_POISON 0x00000800UL
#define SLAB_NO_REAP 0x00001000UL
#define SLAB_CACHE_DMA 0x00004000UL

/* as 2.4's slab.h: code that includes it alone has jiffies, HZ and current */
#include <linux/mm.h>

#endif /* _LINUX24_SLAB_H */
