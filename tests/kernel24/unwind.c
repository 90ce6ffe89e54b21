/*
 * unwind.c - each resource a 2.4 module takes can be refused, in one
 * count (shim_fail_resource_nth()), as 2.4 refused it: the n-th request of
 * kernel/unwind.c's init fails with the error 2.4 gave, is named, and
 * the init's unwinding leaves nothing held.  tty_register_driver() fails
 * as 2.4.0's did, by its register_chrdev().
 */
#include <criterion/criterion.h>
#include <string.h>

#include <shim/test.h>
#include <world/irq.h>
#include <world/pci.h>
#include "k24.h"
#include "suite.h"

static void no_faults(void)
{
	shim_fail_resource_nth(0);
}

TestSuite(unwind24, .timeout = SUITE_TIMEOUT, .fini = no_faults);

/* the requests of k24_unwind_init(), in order, and what each refusal gives */
static const struct {
	const char *what;
	int err;
} requests[] = {
	{ "check_region(0x2e8, 8)", -16 },
	{ "request_region(0x2e8, 8, \"k24unwind\")", -16 },
	{ "request_mem_region(0xd8000, 4096, \"k24unwind\")", -16 },
	{ "kmalloc(64) from k24_unwind_init()", -12 },
	{ "kmalloc(4096) from k24_unwind_init()", -12 }, /* get_free_page() */
	{ "request_irq(9, \"k24unwind\")", -16 },
	{ "request_dma(3, \"k24unwind\")", -16 },
	{ "register_chrdev(0, \"k24unwind\")", -16 },
	{ "misc_register(255, \"k24unwind\")", -16 },
	{ "register_chrdev(0, \"ttyU\") from tty_register_driver()", -16 },
	{ "pci_enable_device(00:", -22 },
	{ "kernel_thread(u_thread)", -11 },
};
#define NREQ (sizeof(requests) / sizeof(requests[0]))

/* what a module can leave held, as one string */
static void held(char *buf, size_t len)
{
	char part[256];
	unsigned int lines[8];
	int n;

	snprintf(buf, len, "tty drivers %d, kmalloc %ld", k24_tty_drivers(),
		 shim_kmalloc_outstanding());
	shim_regions_held(0, part, sizeof(part));
	snprintf(buf + strlen(buf), len - strlen(buf), "; %s", part);
	shim_regions_held(1, part, sizeof(part));
	snprintf(buf + strlen(buf), len - strlen(buf), "; %s", part);
	shim_chrdevs_held(part, sizeof(part));
	snprintf(buf + strlen(buf), len - strlen(buf), "; %s", part);
	shim_dma_held(part, sizeof(part));
	snprintf(buf + strlen(buf), len - strlen(buf), "; %s", part);
	n = sim_irq_lines(lines, 8);
	snprintf(buf + strlen(buf), len - strlen(buf), "; %d lines", n);
}

static void bus_with_the_function(void)
{
	char err[128] = "";

	cr_assert_eq(sim_pci_configure("pci=1393:1680/070002@i", err,
				       sizeof(err)),
		     0, "%s", err);
}

Test(unwind24, an_init_that_is_refused_nothing_counts_each_request)
{
	char before[1024], after[1024];
	unsigned long first;
	int ret;

	bus_with_the_function();
	held(before, sizeof(before));
	first = shim_resource_requests();
	ret = k24_unwind_init();
	cr_assert_eq(ret, 0, "init returned %d", ret);
	cr_assert_eq(shim_resource_requests() - first, NREQ,
		     "one request of each kind, and tty_register_driver()'s "
		     "register_chrdev()");
	k24_unwind_exit();
	held(after, sizeof(after));
	cr_assert_str_eq(after, before);
}

Test(unwind24, each_request_refused_in_turn_fails_as_2_4_and_leaves_nothing)
{
	char before[1024], after[1024], failed[160];
	unsigned int n;

	bus_with_the_function();
	held(before, sizeof(before));
	for (n = 1; n <= NREQ; n++) {
		int ret;

		shim_fail_resource_nth(n);
		ret = k24_unwind_init();
		shim_resource_failed(failed, sizeof(failed));
		shim_fail_resource_nth(0);
		cr_expect_eq(ret, requests[n - 1].err,
			     "request %u (%s): init returned %d, not %d", n,
			     requests[n - 1].what, ret, requests[n - 1].err);
		cr_expect(strstr(failed, requests[n - 1].what),
			  "request %u refused: \"%s\", not %s", n, failed,
			  requests[n - 1].what);
		held(after, sizeof(after));
		cr_expect_str_eq(after, before, "request %u (%s) refused", n,
				 requests[n - 1].what);
	}
}

Test(unwind24, zero_refuses_nothing_and_the_count_goes_on)
{
	unsigned long first;

	bus_with_the_function();
	shim_fail_resource_nth(3);
	shim_fail_resource_nth(0);
	first = shim_resource_requests();
	cr_assert_eq(k24_unwind_init(), 0);
	cr_assert_eq(shim_resource_requests() - first, NREQ);
	k24_unwind_exit();
}
