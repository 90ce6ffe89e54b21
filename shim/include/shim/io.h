/*
 * shim/io.h - the device side of port and memory I/O (host API).
 *
 * Kernel code reaches hardware through <asm/io.h> (inb, outb, readb,
 * ioremap, ...).  The shim has no hardware: each access goes to the device
 * a host program registered here, which answers reads and sees writes.
 * With none registered the bus floats, as an empty ISA slot does: reads
 * give all ones, writes go nowhere.
 *
 * Memory I/O: ioremap(phys, size) returns host memory standing for the
 * range; readb()/writeb() on it reach the device's read/write with the
 * physical address, and what a write stored stays in that memory too, so
 * that code reading it back through a plain pointer sees it.
 */
#ifndef _SHIM_IO_H
#define _SHIM_IO_H

struct shim_io_ops {
	/* port space: @size is 1, 2 or 4 bytes */
	unsigned int (*in)(unsigned long port, int size);
	void (*out)(unsigned long port, unsigned int val, int size);
	/* memory space, by physical address */
	unsigned int (*read)(unsigned long phys, int size);
	void (*write)(unsigned long phys, unsigned int val, int size);
};

/* Route every access to @ops from now on (NULL: the bus floats again). */
extern void shim_io_register(const struct shim_io_ops *ops);

/*
 * The physical address of @addr in an ioremap()ed range or in the ISA
 * hole, or 0 if none.
 */
extern unsigned long shim_io_phys(const volatile void *addr);

/* The ISA hole (physical 0 to 1 MB) as host memory: @phys's place in it. */
extern void *shim_isa_virt(unsigned long phys);
/* @addr's physical address in the ISA hole, or ~0UL if it is not there. */
extern unsigned long shim_isa_phys(const volatile void *addr);
/* Bounds of the host memory standing for device memory (hole, ioremaps). */
extern void shim_io_bounds(unsigned long *lo, unsigned long *hi);

/*
 * Device memory reached by pointer (shim/mmio.c): a store made through a
 * pointer reaches the device at the next access to it; now, by this.
 */
extern void shim_mmio_commit(void);

#endif /* _SHIM_IO_H */
