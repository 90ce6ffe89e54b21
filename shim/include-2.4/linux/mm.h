/*
 * linux/mm.h - pages as a 2.4 driver allocates them.  A page here is
 * kmalloc() memory of that size: counted, leak-checked and failed on
 * request like any other allocation (shim/test.h); the address is the
 * host's, handed out as 2.4 did, an unsigned long.
 */
#ifndef _LINUX24_MM_H
#define _LINUX24_MM_H

#include <linux/config.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <asm/page.h>
#include <asm/atomic.h>

#ifndef __GFP_DMA
#define __GFP_DMA 0x08u
#endif
#define GFP_DMA __GFP_DMA
#define GFP_BUFFER GFP_NOIO
#define GFP_HIGHUSER GFP_USER
#define GFP_NFS GFP_NOFS

#define __get_free_pages(gfp_mask, order)                               \
	((unsigned long) shim_kmalloc(PAGE_SIZE << (order), (gfp_mask), \
				      __func__))
#define __get_free_page(gfp_mask) __get_free_pages((gfp_mask), 0)
#define __get_dma_pages(gfp_mask, order) \
	__get_free_pages((gfp_mask) | GFP_DMA, (order))
#define get_zeroed_page(gfp_mask) \
	((unsigned long) shim_kzalloc(PAGE_SIZE, (gfp_mask), __func__))
/* 2.4.0's get_free_page() handed out a zeroed page */
#define get_free_page(gfp_mask) get_zeroed_page(gfp_mask)

/* 0 is no page: 2.4 let it go by */
#define free_pages(addr, order)                                   \
	do {                                                      \
		unsigned long __fp_addr = (addr);                 \
		(void) (order);                                   \
		if (__fp_addr)                                    \
			shim_kfree((void *) __fp_addr, __func__); \
	} while (0)
#define free_page(addr) free_pages((addr), 0)

#define VERIFY_READ 0
#define VERIFY_WRITE 1

#endif /* _LINUX24_MM_H */
