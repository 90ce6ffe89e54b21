/*
 * asm/io.h - port and memory I/O as 2.4 i386 code has it: the shim's
 * (inb, outb, ioremap ...), and 2.4's names besides.  2.4's readb() and
 * friends take any address, an ioremap()ed one or a physical one in the
 * ISA hole (isa_readb() and the like add nothing to it: the hole was
 * mapped at PAGE_OFFSET, 0 here): both reach the device (shim/io.c).
 */
#ifndef _ASM24_IO_H
#define _ASM24_IO_H

#include_next <asm/io.h>
#include <asm/page.h>

#define IO_SPACE_LIMIT 0xffff

extern unsigned int shim_io_read_any(unsigned long addr, int size);
extern void shim_io_write_any(unsigned long addr, unsigned int val, int size);

#undef readb
#undef readw
#undef readl
#undef writeb
#undef writew
#undef writel
#undef memcpy_fromio
#undef memcpy_toio
#undef memset_io
#define readb(addr) \
	((unsigned char) shim_io_read_any((unsigned long) (addr), 1))
#define readw(addr) \
	((unsigned short) shim_io_read_any((unsigned long) (addr), 2))
#define readl(addr) ((unsigned int) shim_io_read_any((unsigned long) (addr), 4))
#define writeb(val, addr) \
	shim_io_write_any((unsigned long) (addr), (unsigned char) (val), 1)
#define writew(val, addr) \
	shim_io_write_any((unsigned long) (addr), (unsigned short) (val), 2)
#define writel(val, addr) \
	shim_io_write_any((unsigned long) (addr), (unsigned int) (val), 4)

static inline void __shim_memcpy_fromio(void *to, unsigned long from,
					unsigned long n)
{
	unsigned char *t = to;

	while (n--)
		*t++ = shim_io_read_any(from++, 1);
}

static inline void __shim_memcpy_toio(unsigned long to, const void *from,
				      unsigned long n)
{
	const unsigned char *f = from;

	while (n--)
		shim_io_write_any(to++, *f++, 1);
}

static inline void __shim_memset_io(unsigned long to, int c, unsigned long n)
{
	while (n--)
		shim_io_write_any(to++, (unsigned char) c, 1);
}

#define memcpy_fromio(a, b, c) \
	__shim_memcpy_fromio((a), (unsigned long) (b), (c))
#define memcpy_toio(a, b, c) __shim_memcpy_toio((unsigned long) (a), (b), (c))
#define memset_io(a, b, c) __shim_memset_io((unsigned long) (a), (b), (c))

#define __ISA_IO_base ((char *) (PAGE_OFFSET))
#define isa_readb(a) readb(__ISA_IO_base + (a))
#define isa_readw(a) readw(__ISA_IO_base + (a))
#define isa_readl(a) readl(__ISA_IO_base + (a))
#define isa_writeb(b, a) writeb(b, __ISA_IO_base + (a))
#define isa_writew(w, a) writew(w, __ISA_IO_base + (a))
#define isa_writel(l, a) writel(l, __ISA_IO_base + (a))
#define isa_memset_io(a, b, c) memset_io(__ISA_IO_base + (a), (b), (c))
#define isa_memcpy_fromio(a, b, c) memcpy_fromio((a), __ISA_IO_base + (b), (c))
#define isa_memcpy_toio(a, b, c) memcpy_toio(__ISA_IO_base + (a), (b), (c))

static inline unsigned long virt_to_phys(volatile void *address)
{
	return __pa(address);
}

static inline void *phys_to_virt(unsigned long address)
{
	return __va(address);
}

#define virt_to_bus virt_to_phys
#define bus_to_virt phys_to_virt
#define __ioremap(offset, size, flags) ioremap((offset), (size))
#define page_to_phys(page) 0UL

/* 1 if the bytes at @io_addr are @signature's @length */
static inline int check_signature(unsigned long io_addr,
				  const unsigned char *signature, int length)
{
	do {
		if (readb(io_addr) != *signature)
			return 0;
		io_addr++;
		signature++;
	} while (--length);
	return 1;
}

static inline int isa_check_signature(unsigned long io_addr,
				      const unsigned char *signature,
				      int length)
{
	return check_signature(io_addr, signature, length);
}

#define __SLOW_DOWN_IO \
	do {           \
	} while (0)
#define SLOW_DOWN_IO __SLOW_DOWN_IO

#endif /* _ASM24_IO_H */
