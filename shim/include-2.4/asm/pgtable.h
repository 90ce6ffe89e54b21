/* asm/pgtable.h - page tables: none here; what drivers name of them */
#ifndef _ASM24_PGTABLE_H
#define _ASM24_PGTABLE_H

#include <asm/page.h>

#define flush_cache_all() \
	do {              \
	} while (0)
#define flush_tlb_all() \
	do {            \
	} while (0)

#endif /* _ASM24_PGTABLE_H */
