/*
 * pci.c - the simulated PCI bus (world/pci.h): empty by default, a
 * function for the N-th search a driver makes or for the ids the line
 * names, where its BARs and line are, its configuration space, and what
 * the report says of the searches.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <world/device.h>
#include <world/pci.h>
#include "suite.h"
#include "world.h"

#define ANY SIM_PCI_ANY

TestSuite(pci, .timeout = SUITE_TIMEOUT);

static int find(unsigned int vendor, unsigned int device, int from)
{
	return sim_pci_find(vendor, device, ANY, ANY, 0, 0, from);
}

static unsigned int config(int fn, int where, int size)
{
	unsigned int v = 0xdeadbeef;

	cr_assert_eq(sim_pci_config(fn, 0, where, size, &v), 0);
	return v;
}

static void set(int fn, int where, int size, unsigned int v)
{
	cr_assert_eq(sim_pci_config(fn, 1, where, size, &v), 0);
}

Test(pci, is_empty_by_default)
{
	configure("seed=3 0x300=0x42");
	cr_assert_eq(find(0x1393, 0x1680, -1), -1);
	cr_assert_eq(sim_pci_slot(0, 1 << 3), -1);
	cr_assert_eq(sim_pci_describe(0, NULL, NULL), -1);
	cr_assert_eq(sim_pci_view(0, 16, NULL), NULL);
}

Test(pci, answers_the_nth_search_with_what_it_asks)
{
	unsigned int ids[SIM_PCI_NIDS];

	configure("pci=2");
	cr_assert_eq(find(0x1393, 0x1680, -1), -1, "the first search: none");
	cr_assert_eq(find(0x1393, 0x1680, -1), -1, "the same search again");
	cr_assert_eq(find(0x11cb, 0x2000, -1), 0, "the second: there");
	cr_assert_eq(find(0x11cb, 0x2000, 0), -1, "one of it");
	cr_assert_eq(find(0x1393, 0x1680, -1), -1);
	cr_assert_eq(sim_pci_describe(0, ids, NULL), 0);
	cr_assert_eq(ids[SIM_PCI_VENDOR], 0x11cb);
	cr_assert_eq(ids[SIM_PCI_DEVICE], 0x2000);
	cr_assert_eq(ids[SIM_PCI_SUBVENDOR], 0x11cb);
	cr_assert_eq(ids[SIM_PCI_SUBDEVICE], 0x2000);
	cr_assert_eq(ids[SIM_PCI_CLASS], 0x078000);
	cr_assert_eq(ids[SIM_PCI_DEVFN], 1 << 3, "slot 1, function 0");
	cr_assert_eq(ids[SIM_PCI_IRQ], 11);
	cr_assert_eq(sim_pci_slot(0, 1 << 3), 0);
	cr_assert_eq(sim_pci_slot(1, 1 << 3), -1, "bus 0 only");
}

Test(pci, a_walk_over_anything_is_no_search)
{
	configure("pci=1");
	cr_assert_eq(find(ANY, ANY, -1), -1);
	cr_assert_eq(find(0x5a5a, ANY, -1), 0, "a vendor's: the first search");
	cr_assert_eq(find(ANY, ANY, -1), 0, "now the walk finds it");
}

Test(pci, answers_a_search_by_class)
{
	unsigned int ids[SIM_PCI_NIDS];

	configure("pci=1");
	cr_assert_eq(sim_pci_find(ANY, ANY, ANY, ANY, 0x070002, 0xffffff, -1),
		     0);
	cr_assert_eq(sim_pci_describe(0, ids, NULL), 0);
	cr_assert_eq(ids[SIM_PCI_CLASS], 0x070002);
	cr_assert_neq(ids[SIM_PCI_VENDOR], ANY & 0xffff, "a vendor, made up");
	cr_assert_eq(sim_pci_find(ANY, ANY, ANY, ANY, 0x070000, 0xffff00, -1),
		     0, "the masked class matches too");
}

Test(pci, places_bars_where_no_isa_probe_looks)
{
	unsigned long bars[SIM_PCI_BARS][3];
	int b;

	configure("pci=5a5a:0404/070002@mi-i,2@iiiiii,3@iiiiii");
	cr_assert_eq(find(0x5a5a, 0x0404, -1), 0, "named ids: there at once");
	cr_assert_eq(sim_pci_describe(0, NULL, &bars[0][0]), 0);
	cr_assert_eq(bars[0][0], 0xe0000000);
	cr_assert_eq(bars[0][1], 0x400000);
	cr_assert_eq(bars[0][2], SIM_PCI_BAR_MEM);
	cr_assert_eq(bars[1][0], 0xe000);
	cr_assert_eq(bars[1][1], 0x100);
	cr_assert_eq(bars[1][2], SIM_PCI_BAR_IO);
	cr_assert_eq(bars[2][1], 0, "- is none");
	cr_assert_eq(bars[3][0], 0xe100);
	cr_assert_eq(bars[4][1], 0, "a BAR not named is none");
	cr_assert_eq(find(1, 1, -1), 1);
	cr_assert_eq(find(2, 2, -1), 2);
	/* twelve I/O blocks: 0xe200 to 0xee00, never 0xec00 (EISA ids) */
	for (b = 0; b < 2 * SIM_PCI_BARS; b++) {
		sim_pci_describe(1 + b / SIM_PCI_BARS, NULL, &bars[0][0]);
		cr_assert_neq(bars[b % SIM_PCI_BARS][0] & 0xf00, 0xc00);
		cr_assert_lt(bars[b % SIM_PCI_BARS][0], 0x10000);
	}
	sim_pci_describe(2, NULL, &bars[0][0]);
	cr_assert_eq(bars[5][0], 0xee00);
}

Test(pci, lays_out_config_space_as_2_4_read_it)
{
	configure("pci=1@mi");
	cr_assert_eq(find(0x1393, 0x1040, -1), 0);
	cr_assert_eq(config(0, 0x00, 2), 0x1393);
	cr_assert_eq(config(0, 0x02, 2), 0x1040);
	cr_assert_eq(config(0, 0x00, 4), 0x10401393);
	cr_assert_eq(config(0, 0x08, 4), 0x07800000, "class, revision 0");
	cr_assert_eq(config(0, 0x0b, 1), 0x07);
	cr_assert_eq(config(0, 0x10, 4), 0xe0000000, "BAR 0: memory");
	cr_assert_eq(config(0, 0x14, 4), 0xe001, "BAR 1: I/O");
	cr_assert_eq(config(0, 0x18, 4), 0, "BAR 2: none");
	cr_assert_eq(config(0, 0x2c, 2), 0x1393);
	cr_assert_eq(config(0, 0x2e, 2), 0x1040);
	cr_assert_eq(config(0, 0x3c, 1), 11);
	cr_assert_eq(config(0, 0x3d, 1), 1, "INTA#");
	cr_assert_eq(config(0, 0x04, 2), 0, "decoders off until enabled");

	/* ids, class and pin are read-only; the rest reads back */
	set(0, 0x00, 4, 0);
	set(0, 0x08, 4, 0);
	set(0, 0x3d, 1, 4);
	cr_assert_eq(config(0, 0x00, 4), 0x10401393);
	cr_assert_eq(config(0, 0x08, 4), 0x07800000);
	cr_assert_eq(config(0, 0x3d, 1), 1);
	set(0, 0x04, 2, 0x7);
	set(0, 0x40, 1, 0x5a);
	set(0, 0x3c, 1, 5);
	cr_assert_eq(config(0, 0x04, 2), 0x7);
	cr_assert_eq(config(0, 0x40, 1), 0x5a);
	cr_assert_eq(config(0, 0x41, 1), 0, "never written: 0");
	cr_assert_eq(config(0, 0x3c, 1), 5);

	/* a BAR is sized as the PCI core sized it, then put back */
	set(0, 0x10, 4, 0xffffffff);
	cr_assert_eq(config(0, 0x10, 4), 0xffc00000, "4 MB of memory");
	set(0, 0x14, 4, 0xffffffff);
	cr_assert_eq(config(0, 0x14, 4), 0xffffff01, "256 ports");
	set(0, 0x18, 4, 0xffffffff);
	cr_assert_eq(config(0, 0x18, 4), 0, "no BAR: nothing to size");
	set(0, 0x14, 4, 0xe001);
	cr_assert_eq(config(0, 0x14, 4), 0xe001);

	{
		unsigned int v;

		cr_assert_eq(sim_pci_config(0, 0, 0x03, 2, &v), -1,
			     "misaligned");
		cr_assert_eq(sim_pci_config(0, 0, 0x02, 4, &v), -1);
		cr_assert_eq(sim_pci_config(1, 0, 0x00, 4, &v), -1,
			     "no such function");
	}
}

static void fill(void *view, int fn)
{
	*(int *) view = 100 + fn;
}

Test(pci, gives_one_view_of_a_function_filled_once)
{
	int *a, *b;

	configure("pci=1");
	cr_assert_eq(find(0x1393, 0x1680, -1), 0);
	a = sim_pci_view(0, sizeof(int) * 4, fill);
	b = sim_pci_view(0, sizeof(int) * 4, NULL);
	cr_assert_not_null(a);
	cr_assert_eq(a, b);
	cr_assert_eq(*a, 100);
	cr_assert_eq(a[1], 0, "zeroed before");
}

Test(pci, refuses_a_malformed_word)
{
	static const char *const bad[] = {
		"pci=",
		"pci=0",
		"pci=x",
		"pci=1@q",
		"pci=1@iiiiiii",
		"pci=1393:",
		"pci=1393:16800",
		"pci=1/1000000",
		"pci=1,",
		"pci=1 pci=2 pci=3 pci=4 pci=5 pci=6 pci=7 pci=8 pci=9",
	};
	char err[256];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		cr_assert_eq(sim_device_configure(bad[i], err, sizeof(err)),
			     -EINVAL, "%s", bad[i]);
		cr_assert(strstr(err, "pci="), "%s: %s", bad[i], err);
	}
	configure("");
}

Test(pci, reports_the_searches_in_the_order_made)
{
	static char buf[65536];

	configure("pci=2@m");
	find(0x1393, 0x1680, -1);
	find(0x1393, 0x1680, -1);
	find(ANY, ANY, -1);
	find(0x1393, 0x1040, -1);
	sim_pci_bar_used(0, 0);
	report(buf, sizeof(buf));
	cr_assert(strstr(buf, "\"pci\":{\"searches\":[[5011,5760,4294967295,"
			      "4294967295,0,0],[5011,4160,4294967295,"
			      "4294967295,0,0]],\"walks\":1,"
			      "\"functions\":[[5011,4160,491520,\"m-----\","
			      "1,0]]},"),
		  "%s", buf);
}
