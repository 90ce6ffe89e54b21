/*
 * mmio.c - device memory reached by plain pointers.
 *
 * 2.4 drivers of boards with shared memory (a Digi PC/Xe's, a Stallion
 * EasyConnection's) read and wrote it through pointers: phys_to_virt()
 * of the board's base, or an ioremap()ed range dereferenced, not readb().
 * A load from host memory never reaches the generic device.  So a 2.4
 * driver's own objects are compiled with gcc's -fsanitize=kernel-address
 * in its outline form (make src-binary; globals and stack left alone),
 * which calls __asan_load<N>_noabort(addr) before each load and
 * __asan_store<N>_noabort(addr) before each store of the driver's code;
 * here, an address that is device memory (the ISA hole, shim/io.c, or an
 * ioremap()ed range) is answered by the device before the load reads it,
 * and a store is handed to the device once it is made: at the next access
 * to device memory or to a port, whichever comes first (the call comes
 * before the store, so the value is read back from memory then).  Any
 * other address costs a comparison with the bounds of device memory.
 *
 * As readb() does, an answer is the registered device's (shim/io.h), the
 * same on both sides of a comparison.  One store in flight a thread.
 */
#include "shim.h"
#include <asm/io.h>
#include <shim/io.h>

struct mmio_store {
	unsigned long addr, size;
};

static __thread struct mmio_store pending;

static int is_device(unsigned long addr)
{
	unsigned long lo, hi;

	shim_io_bounds(&lo, &hi);
	return addr >= lo && addr < hi;
}

/* A store made since its call: now the device sees it, a word at a time. */
void shim_mmio_commit(void)
{
	struct mmio_store s = pending;

	pending.size = 0;
	while (s.size) {
		int n = s.size >= 4 && !(s.addr & 3) ? 4 :
			s.size >= 2 && !(s.addr & 1) ? 2 :
						       1;
		unsigned int val = 0;

		memcpy(&val, (const void *) s.addr, n);
		shim_io_write((volatile void *) s.addr, val, n);
		s.addr += n;
		s.size -= n;
	}
}

/* The device's answer at @addr, @size bytes, into memory before the load. */
static void load(unsigned long addr, unsigned long size)
{
	unsigned int v;

	shim_mmio_commit();
	while (size) {
		int n = size >= 4 && !(addr & 3) ? 4 :
			size >= 2 && !(addr & 1) ? 2 :
						   1;

		v = shim_io_read((const volatile void *) addr, n);
		memcpy((void *) addr, &v, n);
		addr += n;
		size -= n;
	}
}

static void store(unsigned long addr, unsigned long size)
{
	shim_mmio_commit();
	pending = (struct mmio_store){ .addr = addr, .size = size };
}

#define MMIO(n)                                             \
	void __asan_load##n##_noabort(unsigned long addr);  \
	void __asan_load##n##_noabort(unsigned long addr)   \
	{                                                   \
		if (unlikely(is_device(addr)))              \
			load(addr, n);                      \
	}                                                   \
	void __asan_store##n##_noabort(unsigned long addr); \
	void __asan_store##n##_noabort(unsigned long addr)  \
	{                                                   \
		if (unlikely(is_device(addr)))              \
			store(addr, n);                     \
	}
MMIO(1)
MMIO(2)
MMIO(4)
MMIO(8)
MMIO(16)

void __asan_loadN_noabort(unsigned long addr, unsigned long size);
void __asan_loadN_noabort(unsigned long addr, unsigned long size)
{
	if (unlikely(is_device(addr)))
		load(addr, size);
}

void __asan_storeN_noabort(unsigned long addr, unsigned long size);
void __asan_storeN_noabort(unsigned long addr, unsigned long size)
{
	if (unlikely(is_device(addr)))
		store(addr, size);
}

/* what the instrumentation may also call, here with nothing to do */
void __asan_handle_no_return(void);
void __asan_handle_no_return(void)
{
}
