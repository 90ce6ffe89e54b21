/*
 * mmio.c - board memory reached by pointer (shim/mmio.c): a load of the
 * ISA hole or of an ioremap()ed range is the device's answer, a store is
 * seen by the device (at the next access), the address translations
 * round-trip, and memory that is no device's never reaches it.
 */
#include <criterion/criterion.h>

#include <shim/io.h>
#include "k24.h"
#include "suite.h"

#define MAX_SEEN 64

static struct {
	unsigned long phys;
	unsigned int val;
	int size, write;
} seen[MAX_SEEN];
static int nseen;

static unsigned int dev_read(unsigned long phys, int size)
{
	if (nseen < MAX_SEEN)
		seen[nseen++] = (typeof(seen[0])){ phys, 0, size, 0 };
	return phys == 0xd0010 ? 0x5a : (phys & 0xffff) + size;
}

static void dev_write(unsigned long phys, unsigned int val, int size)
{
	if (nseen < MAX_SEEN)
		seen[nseen++] = (typeof(seen[0])){ phys, val, size, 1 };
}

static const struct shim_io_ops dev_ops = { .read = dev_read,
					    .write = dev_write };

static void setup(void)
{
	nseen = 0;
	shim_io_register(&dev_ops);
}

static void teardown(void)
{
	shim_io_register(NULL);
}

TestSuite(mmio24, .init = setup, .fini = teardown, .timeout = SUITE_TIMEOUT);

/*
 * The loads and stores by pointer are seen through kernel-address
 * instrumentation, which a sanitizer's build leaves out (Makefile,
 * mmio_flags): there the hole is plain memory ASan knows nothing of.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define needs_mmio() \
	cr_skip_test("no kernel-address instrumentation under a sanitizer")
#else
#define needs_mmio() \
	do {         \
	} while (0)
#endif

Test(mmio24, a_load_from_the_isa_hole_is_the_devices_answer)
{
	needs_mmio();
	cr_assert_eq(k24_mmio_peek(0xd0010), 0x5a);
	cr_assert_eq(nseen, 1);
	cr_assert_eq(seen[0].phys, 0xd0010, "the physical address: %#lx",
		     seen[0].phys);
	cr_assert(!seen[0].write && seen[0].size == 1);
}

Test(mmio24, a_store_to_the_isa_hole_reaches_the_device)
{
	needs_mmio();
	k24_mmio_poke(0xd0020, 0x3c);
	/* made after its call: the device sees it at the next access */
	cr_assert_eq(k24_mmio_peek(0xd0021), 0x21 + 1);
	cr_assert_eq(nseen, 2);
	cr_assert(seen[0].write && seen[0].phys == 0xd0020 &&
			  seen[0].val == 0x3c,
		  "the store first: %d %#lx %#x", seen[0].write, seen[0].phys,
		  seen[0].val);
	cr_assert(!seen[1].write && seen[1].phys == 0xd0021);
}

Test(mmio24, the_translations_round_trip)
{
	cr_assert_eq(k24_mmio_round_trip(0xd8000), 0xd8000);
	cr_assert_eq(k24_mmio_round_trip(0xa0000), 0xa0000);
}

Test(mmio24, an_ioremapped_range_by_pointer_and_by_readw)
{
	unsigned int copied = 0, v;

	needs_mmio();
	v = k24_mmio_remapped(0xe0000, &copied);

	cr_assert_eq(v & 0xffff, 0x0002 + 2, "p[1]: the word at 0xe0002");
	cr_assert_eq(v >> 16, 0x0006 + 2, "readw(p + 3)");
	cr_assert_eq(copied, 0x0014 + 4,
		     "a struct copied out: its fifo word at 0xe0014");
	int i, wrote = 0;

	for (i = 0; i < nseen; i++)
		if (seen[i].write && seen[i].phys == 0xe0004 &&
		    seen[i].val == 0x55aa)
			wrote = 1;
	cr_assert(wrote,
		  "the word stored through the pointer reached the device");
}

Test(mmio24, memory_no_device_has_is_left_alone)
{
	cr_assert_eq(k24_mmio_plain(), 7);
	cr_assert_eq(nseen, 0);
}
