/*
 * pci.c - 2.4's PCI API (shim/include-2.4/linux/pci.h) over the world's
 * bus: a driver of two ids probed for the function its search names,
 * with the BARs, line and config space the bus gives, removed at exit;
 * nothing probed when the bus is empty.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <world/pci.h>
#include "k24.h"
#include "suite.h"

TestSuite(pci24, .timeout = SUITE_TIMEOUT);

static void run(const char *line, struct k24_pci *out)
{
	char err[256] = "";

	cr_assert_eq(sim_pci_configure(line, err, sizeof(err)), 0, "%s", err);
	memset(out, 0, sizeof(*out));
	k24_pci_driver(out);
}

Test(pci24, an_empty_bus_probes_nothing_and_the_module_goes)
{
	struct k24_pci p;

	run("", &p);
	cr_assert_eq(p.init, -19, "-ENODEV");
	cr_assert_eq(p.probed, 0);
	cr_assert_eq(p.removed, 0);
}

Test(pci24, probes_the_function_of_the_second_id_then_removes_it)
{
	struct k24_pci p;

	run("pci=2", &p);
	cr_assert_eq(p.init, 0);
	cr_assert_eq(p.probed, 1);
	cr_assert_eq(p.removed, 1);
	cr_assert_eq(p.driver_data, 8, "the table's second entry");
	cr_assert_eq(p.vendor, 0x11cb);
	cr_assert_eq(p.device, 0x2000);
	cr_assert_eq(p.class, 0x078000);
	cr_assert_eq(p.irq, 11);
	cr_assert_eq(p.devfn, 1 << 3);
	cr_assert_eq(p.bar0, 0xe000);
	cr_assert_eq(p.bar0_len, 0x100);
	cr_assert_eq(p.bar0_flags, 0x100, "IORESOURCE_IO");
	cr_assert(p.found_again, "one pci_dev per function");
	cr_assert_eq(p.command, 0x5, "I/O decoding and bus master");
	cr_assert_eq(p.bios[0], 0, "PCIBIOS_SUCCESSFUL");
	cr_assert_eq(p.bios_bus, 0);
	cr_assert_eq(p.bios_devfn, 1 << 3);
	cr_assert_eq(p.bios[1], 0x86, "PCIBIOS_DEVICE_NOT_FOUND");
	cr_assert_eq(p.misaligned, 0x87, "PCIBIOS_BAD_REGISTER_NUMBER");
	cr_assert_eq(p.absent, 0x86);
}

Test(pci24, gives_a_memory_bar_where_the_line_says)
{
	struct k24_pci p;

	run("pci=1/070002@m", &p);
	cr_assert_eq(p.probed, 1);
	cr_assert_eq(p.driver_data, 7);
	cr_assert_eq(p.class, 0x070002);
	cr_assert_eq(p.bar0, 0xe0000000);
	cr_assert_eq(p.bar0_len, 0x400000);
	cr_assert_eq(p.bar0_flags, 0x200, "IORESOURCE_MEM");
	cr_assert_eq(p.command, 0x6, "memory decoding and bus master");
}
