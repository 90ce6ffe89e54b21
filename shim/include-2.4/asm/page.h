/*
 * asm/page.h - pages, and the kernel's view of physical memory, as 2.4
 * i386 had them.  The sandbox has one address space: a kernel virtual
 * address is the host's, and "physical" is the same number.
 */
#ifndef _ASM24_PAGE_H
#define _ASM24_PAGE_H

#include_next <asm/page.h>

#define PAGE_OFFSET 0UL
#define __pa(x) ((unsigned long) (x))
#define __va(x) ((void *) ((unsigned long) (x)))
#define PAGE_ALIGN(addr) (((addr) + PAGE_SIZE - 1) & PAGE_MASK)

/* the order of the smallest power-of-two number of pages holding @size */
static inline int get_order(unsigned long size)
{
	int order = 0;

	size = (size - 1) >> (PAGE_SHIFT - 1);
	do {
		size >>= 1;
		order++;
	} while (size);
	return order - 1;
}

#endif /* _ASM24_PAGE_H */
