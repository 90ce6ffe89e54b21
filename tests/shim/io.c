/*
 * io.c - port and memory I/O reach the registered device; without one the
 * bus floats.
 */
#include <criterion/criterion.h>

#include <asm/io.h>
#include <shim/io.h>
#include <shim/test.h>
#include "helpers.h"

static unsigned long last_port, last_phys;
static unsigned int last_val, last_size;

static unsigned int echo_in(unsigned long port, int size)
{
	return port == last_port ? last_val : 0x1234abcd;
}

static void echo_out(unsigned long port, unsigned int val, int size)
{
	last_port = port;
	last_val = val;
	last_size = size;
}

static unsigned int mem_read(unsigned long phys, int size)
{
	return phys == last_phys ? 0x5a : 0;
}

static void mem_write(unsigned long phys, unsigned int val, int size)
{
	last_phys = phys;
	last_val = val;
}

static const struct shim_io_ops echo = {
	.in = echo_in,
	.out = echo_out,
	.read = mem_read,
	.write = mem_write,
};

static void unregister(void)
{
	shim_io_register(NULL);
}

TestSuite(io, .timeout = SUITE_TIMEOUT, .fini = unregister);

Test(io, the_bus_floats_without_a_device)
{
	outb(0x12, 0x3f8);
	cr_assert_eq(inb(0x3f8), 0xff);
	cr_assert_eq(inw(0x3f8), 0xffff);
	cr_assert_eq(inl(0x3f8), 0xffffffffu);
}

Test(io, accesses_reach_the_device_with_their_width)
{
	shim_io_register(&echo);
	outb_p(0x1ff, 0x2f8);
	cr_assert_eq(last_port, 0x2f8);
	cr_assert_eq(last_val, 0xff, "outb writes a byte");
	cr_assert_eq(last_size, 1);
	cr_assert_eq(inb(0x2f8), 0xff);
	cr_assert_eq(inb(0x2f9), 0xcd, "a byte read keeps the low byte");
	outw(0xbeef, 0x100);
	cr_assert_eq(last_size, 2);
	cr_assert_eq(inw(0x100), 0xbeef);
}

Test(io, string_io_is_one_access_per_item)
{
	unsigned short buf[3] = { 1, 2, 3 };

	shim_io_register(&echo);
	outsw(0x300, buf, 3);
	cr_assert_eq(last_val, 3);
	insw(0x300, buf, 3);
	cr_assert(buf[0] == 3 && buf[1] == 3 && buf[2] == 3);
}

Test(io, ioremap_maps_back_to_the_physical_address)
{
	unsigned char *mem;

	shim_io_register(&echo);
	mem = ioremap(0xd0000, 0x1000);
	cr_assert_not_null(mem);
	writeb(0x77, mem + 0x10);
	cr_assert_eq(last_phys, 0xd0010);
	cr_assert_eq(mem[0x10], 0x77, "a write stays in the mapping");
	cr_assert_eq(readb(mem + 0x10), 0x5a, "reads come from the device");
	cr_assert_eq(shim_io_phys(mem + 0xfff), 0xd0fff);
	cr_assert_eq(shim_io_phys(mem + 0x1000), 0);
	iounmap(mem);
	cr_assert_eq(shim_io_phys(mem), 0);
}

Test(io, memcpy_io_goes_byte_by_byte)
{
	unsigned char *mem, buf[4] = { 9, 8, 7, 6 };

	mem = ioremap(0xe0000, 16);
	memcpy_toio(mem, buf, 4);
	memset(buf, 0, 4);
	memcpy_fromio(buf, mem, 4);
	cr_assert(buf[0] == 9 && buf[3] == 6,
		  "no device: the mapping keeps them");
	memset_io(mem, 0x33, 16);
	cr_assert_eq(readl(mem + 12), 0x33333333u);
	iounmap(mem);
}
