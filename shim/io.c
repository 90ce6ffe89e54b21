/*
 * io.c - port and memory I/O, routed to the registered device
 * (<shim/io.h>); with none, the bus floats: reads are all ones.
 *
 * ioremap()ed ranges are host memory the shim keeps, one block per call,
 * listed so that an address in one maps back to its physical address.
 */
#include "shim.h"
#include <asm/io.h>
#include <asm/page.h>
#include <shim/io.h>
#include <shim/point.h>

#define MAX_MAPS 64
#define ISA_HOLE 0x100000UL

static const struct shim_io_ops *io_ops;
static struct shim_mutex maps_lock = SHIM_MUTEX_INIT;
static struct {
	unsigned long phys, size;
	unsigned char *host;
} maps[MAX_MAPS];
/* bounds of every range ever ioremap()ed: a quick "none" for shim/mmio.c */
static unsigned long maps_lo, maps_hi;

void shim_io_register(const struct shim_io_ops *ops)
{
	__atomic_store_n(&io_ops, ops, __ATOMIC_RELEASE);
}

static const struct shim_io_ops *ops(void)
{
	return __atomic_load_n(&io_ops, __ATOMIC_ACQUIRE);
}

static unsigned int ones(int size)
{
	return size == 4 ? 0xffffffffu : (1u << (8 * size)) - 1;
}

unsigned int shim_io_in(unsigned long port, int size)
{
	const struct shim_io_ops *o = ops();

	shim_mmio_commit();
	shim_io_point();
	return o && o->in ? o->in(port, size) & ones(size) : ones(size);
}

void shim_io_out(unsigned long port, unsigned int val, int size)
{
	const struct shim_io_ops *o = ops();

	shim_mmio_commit();
	shim_io_point();
	if (o && o->out)
		o->out(port, val & ones(size), size);
}

#define STRING_IO(name, type, size)                                         \
	void ins##name(unsigned long port, void *addr, unsigned long count) \
	{                                                                   \
		type *p = addr;                                             \
		while (count--)                                             \
			*p++ = shim_io_in(port, size);                      \
	}                                                                   \
	void outs##name(unsigned long port, const void *addr,               \
			unsigned long count)                                \
	{                                                                   \
		const type *p = addr;                                       \
		while (count--)                                             \
			shim_io_out(port, *p++, size);                      \
	}
STRING_IO(b, u8, 1)
STRING_IO(w, u16, 2)
STRING_IO(l, u32, 4)

void *ioremap(unsigned long phys, unsigned long size)
{
	unsigned char *host;
	int i;

	if (!size)
		return NULL;
	host = shim_host_alloc(size, PAGE_SIZE);
	if (!host)
		return NULL;
	memset(host, 0xff, size);
	shim_mutex_lock(&maps_lock);
	for (i = 0; i < MAX_MAPS; i++) {
		if (!maps[i].host) {
			maps[i].phys = phys;
			maps[i].size = size;
			maps[i].host = host;
			if (!maps_hi || (unsigned long) host < maps_lo)
				__atomic_store_n(&maps_lo, (unsigned long) host,
						 __ATOMIC_RELAXED);
			if ((unsigned long) host + size > maps_hi)
				__atomic_store_n(&maps_hi,
						 (unsigned long) host + size,
						 __ATOMIC_RELAXED);
			break;
		}
	}
	shim_mutex_unlock(&maps_lock);
	if (i == MAX_MAPS) {
		shim_host_free(host);
		return NULL;
	}
	return host;
}

void iounmap(void *addr)
{
	int i;

	shim_mutex_lock(&maps_lock);
	for (i = 0; i < MAX_MAPS; i++) {
		if (maps[i].host == addr) {
			maps[i].host = NULL;
			break;
		}
	}
	shim_mutex_unlock(&maps_lock);
	if (i == MAX_MAPS) {
		printk(KERN_ERR "iounmap: bad address %p\n", addr);
		return;
	}
	shim_host_free(addr);
}

/*
 * The ISA hole, physical 0 to 1 MB, as host memory: 2.4 mapped it at
 * PAGE_OFFSET, and a driver reached a board's shared memory there by
 * pointer (phys_to_virt(0xd0000), bus_to_virt()).  Allocated at the
 * first such translation, all ones (a floating bus); an access to it by
 * pointer reaches the device through shim/mmio.c, as readb() does.
 */
static unsigned char *isa_hole;

void *shim_isa_virt(unsigned long phys)
{
	unsigned char *hole = __atomic_load_n(&isa_hole, __ATOMIC_ACQUIRE);

	if (!hole) {
		unsigned char *none = NULL;

		hole = shim_host_alloc(ISA_HOLE, PAGE_SIZE);
		if (!hole)
			shim_host_bug("the ISA hole", ENOMEM);
		memset(hole, 0xff, ISA_HOLE);
		if (!__atomic_compare_exchange_n(&isa_hole, &none, hole, 0,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			shim_host_free(hole);
			hole = none;
		}
	}
	return hole + phys;
}

unsigned long shim_isa_phys(const volatile void *addr)
{
	const unsigned char *a = (const unsigned char *) addr;
	unsigned char *hole = __atomic_load_n(&isa_hole, __ATOMIC_ACQUIRE);

	return hole && a >= hole && a < hole + ISA_HOLE ? a - hole : ~0UL;
}

/*
 * Where a host address of device memory lies: [*@lo, *@hi) bounds the
 * ISA hole and every ioremap()ed range, for a quick "none" (shim/mmio.c
 * asks at every access by pointer).
 */
void shim_io_bounds(unsigned long *lo, unsigned long *hi)
{
	unsigned char *hole = __atomic_load_n(&isa_hole, __ATOMIC_ACQUIRE);

	*lo = __atomic_load_n(&maps_lo, __ATOMIC_RELAXED);
	*hi = __atomic_load_n(&maps_hi, __ATOMIC_RELAXED);
	if (hole && (!*hi || (unsigned long) hole < *lo))
		*lo = (unsigned long) hole;
	if (hole && (unsigned long) hole + ISA_HOLE > *hi)
		*hi = (unsigned long) hole + ISA_HOLE;
}

unsigned long shim_io_phys(const volatile void *addr)
{
	const unsigned char *a = (const unsigned char *) addr;
	unsigned long phys = shim_isa_phys(addr);
	int i;

	if (phys != ~0UL)
		return phys;
	phys = 0;
	shim_mutex_lock(&maps_lock);
	for (i = 0; i < MAX_MAPS; i++) {
		if (maps[i].host && a >= maps[i].host &&
		    a < maps[i].host + maps[i].size) {
			phys = maps[i].phys + (a - maps[i].host);
			break;
		}
	}
	shim_mutex_unlock(&maps_lock);
	return phys;
}

unsigned int shim_io_read(const volatile void *addr, int size)
{
	const struct shim_io_ops *o = ops();
	unsigned long phys = shim_io_phys(addr);
	unsigned int v = 0;

	shim_mmio_commit();
	if (phys && o && o->read) {
		shim_io_point();
		return o->read(phys, size) & ones(size);
	}
	memcpy(&v, (const void *) addr, size);
	return v;
}

void shim_io_write(const volatile void *addr, unsigned int val, int size)
{
	const struct shim_io_ops *o = ops();
	unsigned long phys = shim_io_phys(addr);

	shim_mmio_commit();
	memcpy((void *) addr, &val, size);
	if (phys && o && o->write) {
		shim_io_point();
		o->write(phys, val & ones(size), size);
	}
}

void memcpy_fromio(void *to, const volatile void *from, unsigned long n)
{
	unsigned char *t = to;
	const volatile unsigned char *f = from;

	while (n--)
		*t++ = shim_io_read(f++, 1);
}

void memcpy_toio(volatile void *to, const void *from, unsigned long n)
{
	volatile unsigned char *t = to;
	const unsigned char *f = from;

	while (n--)
		shim_io_write(t++, *f++, 1);
}

void memset_io(volatile void *addr, int c, unsigned long n)
{
	volatile unsigned char *t = addr;

	while (n--)
		shim_io_write(t++, (unsigned char) c, 1);
}

/*
 * 2.4's readb() and friends took any address, and 2.4 drivers gave them
 * physical ones of the ISA hole (isa_readb(), or a board's base from a
 * module parameter) as well as ioremap()ed ones.  Below 1 MB nothing of
 * the sandbox is mapped: such an address is the device's, physically.
 */
#define ISA_HOLE_END ISA_HOLE

unsigned int shim_io_read_any(unsigned long addr, int size)
{
	const struct shim_io_ops *o;

	if (addr >= ISA_HOLE_END)
		return shim_io_read((const volatile void *) addr, size);
	o = ops();
	shim_io_point();
	return o && o->read ? o->read(addr, size) & ones(size) : ones(size);
}

void shim_io_write_any(unsigned long addr, unsigned int val, int size)
{
	const struct shim_io_ops *o;

	if (addr >= ISA_HOLE_END) {
		shim_io_write((const volatile void *) addr, val, size);
		return;
	}
	o = ops();
	shim_io_point();
	if (o && o->write)
		o->write(addr, val & ones(size), size);
}
