/*
 * mmio.c - a 2.4 driver's board memory reached by pointer, as pcxx.c and
 * epca.c reach theirs: phys_to_virt() of the board's base, an ioremap()ed
 * range dereferenced (compiled with the kernel-address instrumentation
 * make src-binary gives a 2.4 driver: shim/mmio.c).
 */
#include <linux/config.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/io.h>

#include "k24.h"

struct k24_board_mem {
	unsigned short cmd, status;
	unsigned int fifo;
};

unsigned int k24_mmio_peek(unsigned long phys)
{
	volatile unsigned char *p = phys_to_virt(phys);

	return *p;
}

void k24_mmio_poke(unsigned long phys, unsigned char val)
{
	volatile unsigned char *p = phys_to_virt(phys);

	*p = val;
}

unsigned long k24_mmio_round_trip(unsigned long phys)
{
	return virt_to_phys(bus_to_virt(phys));
}

unsigned int k24_mmio_remapped(unsigned long phys, unsigned int *copied)
{
	volatile unsigned short *p = ioremap(phys, 0x100);
	struct k24_board_mem copy;
	unsigned int v;

	v = p[1];
	p[2] = 0x55aa;
	v |= (unsigned int) readw(p + 3) << 16;
	copy = *(struct k24_board_mem *) (p + 8);
	*copied = copy.fifo;
	iounmap((void *) p);
	return v;
}

static unsigned char k24_plain[16] = { 7 };

unsigned int k24_mmio_plain(void)
{
	return ((volatile unsigned char *) k24_plain)[0];
}
