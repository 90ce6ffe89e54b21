/*
 * asm/page.h - pages, and the kernel's view of physical memory, as 2.4
 * i386 had them.  The sandbox has one address space: a kernel virtual
 * address is the host's, and "physical" is the same number.
 */
#ifndef _ASM24_PAGE_H
#define _ASM24_PAGE_H

#include_next <asm/page.h>

#define PAGE_OFFSET 0UL

/*
 * The ISA hole (below 1 MB) is host memory of the shim's, so that a
 * board's shared memory reached by pointer reaches the device (shim/io.c,
 * shim/mmio.c); any other address is the host's own.
 */
extern void *shim_isa_virt(unsigned long phys);
extern unsigned long shim_isa_phys(const volatile void *addr);

static inline void *__shim_va(unsigned long x)
{
	return x < 0x100000UL ? shim_isa_virt(x) : (void *) x;
}

static inline unsigned long __shim_pa(const volatile void *p)
{
	unsigned long phys = shim_isa_phys(p);

	return phys != ~0UL ? phys : (unsigned long) p;
}

#define __pa(x) __shim_pa((const volatile void *) (x))
#define __va(x) __shim_va((unsigned long) (x))
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
