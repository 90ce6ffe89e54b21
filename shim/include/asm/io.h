#ifndef _ASM_IO_H
#define _ASM_IO_H

#include <linux/types.h>
#include <linux/string.h>

/*
 * Port and memory I/O, with i386's names and argument order (the value
 * first: outb(value, port)).  Every access goes to the registered device
 * (<shim/io.h>, io.c); the _p ("pause") forms are the same accesses.
 */
extern unsigned int shim_io_in(unsigned long port, int size);
extern void shim_io_out(unsigned long port, unsigned int val, int size);
extern unsigned int shim_io_read(const volatile void *addr, int size);
extern void shim_io_write(const volatile void *addr, unsigned int val,
			  int size);

#define inb(port) ((unsigned char) shim_io_in((port), 1))
#define inw(port) ((unsigned short) shim_io_in((port), 2))
#define inl(port) ((unsigned int) shim_io_in((port), 4))
#define outb(val, port) shim_io_out((port), (unsigned char) (val), 1)
#define outw(val, port) shim_io_out((port), (unsigned short) (val), 2)
#define outl(val, port) shim_io_out((port), (unsigned int) (val), 4)
#define inb_p(port) inb(port)
#define inw_p(port) inw(port)
#define inl_p(port) inl(port)
#define outb_p(val, port) outb((val), (port))
#define outw_p(val, port) outw((val), (port))
#define outl_p(val, port) outl((val), (port))

extern void insb(unsigned long port, void *addr, unsigned long count);
extern void insw(unsigned long port, void *addr, unsigned long count);
extern void insl(unsigned long port, void *addr, unsigned long count);
extern void outsb(unsigned long port, const void *addr, unsigned long count);
extern void outsw(unsigned long port, const void *addr, unsigned long count);
extern void outsl(unsigned long port, const void *addr, unsigned long count);

/* memory-mapped I/O: host memory standing for [phys, phys + size) */
extern void *ioremap(unsigned long phys, unsigned long size);
extern void iounmap(void *addr);
#define ioremap_nocache(phys, size) ioremap((phys), (size))

#define readb(addr) ((unsigned char) shim_io_read((addr), 1))
#define readw(addr) ((unsigned short) shim_io_read((addr), 2))
#define readl(addr) ((unsigned int) shim_io_read((addr), 4))
#define writeb(val, addr) shim_io_write((addr), (unsigned char) (val), 1)
#define writew(val, addr) shim_io_write((addr), (unsigned short) (val), 2)
#define writel(val, addr) shim_io_write((addr), (unsigned int) (val), 4)
#define __raw_readb readb
#define __raw_readw readw
#define __raw_readl readl
#define __raw_writeb writeb
#define __raw_writew writew
#define __raw_writel writel

extern void memcpy_fromio(void *to, const volatile void *from, unsigned long n);
extern void memcpy_toio(volatile void *to, const void *from, unsigned long n);
extern void memset_io(volatile void *addr, int c, unsigned long n);

#endif /* _ASM_IO_H */
