/*
 * input.c - the device answering from an input (SHIM_DEVICE's input=,
 * world/device.h): reads answered in order from the input's bytes, then
 * by the default; an address's answers per reader reported, and a line
 * of rules made of them ("@process", "@kernel", a list ending in
 * "default") answering as the input did.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <asm/io.h>
#include <linux/completion.h>
#include <linux/sched.h>
#include <world/device.h>
#include <world/irq.h>
#include "suite.h"
#include "world.h"

TestSuite(input, .timeout = SUITE_TIMEOUT);

static char path[] = "/tmp/device-input.XXXXXX";

static void input_gone(void)
{
	if (strcmp(path + strlen(path) - 6, "XXXXXX"))
		unlink(path);
	strcpy(path, "/tmp/device-input.XXXXXX");
}

/* an input of @len bytes, and a line reading it after @words */
static const char *input_line(const unsigned char *bytes, size_t len,
			      const char *words)
{
	static char line[256];
	int fd;

	input_gone(); /* the last one's, if any */
	fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, bytes, len), (ssize_t) len);
	close(fd);
	snprintf(line, sizeof(line), "input=%s %s", path, words);
	return line;
}

static unsigned int irq_val;

static void read_in_irq(void *arg)
{
	irq_val = inb((unsigned long) arg);
}

static unsigned int in_irq_ctx(unsigned long port)
{
	sim_call_in_irq(read_in_irq, (void *) port);
	return irq_val;
}

struct kreads {
	unsigned long port;
	unsigned int got[2];
	struct completion done;
};

static int kernel_reads(void *arg)
{
	struct kreads *k = arg;

	k->got[0] = inb(k->port);
	k->got[1] = inb(k->port);
	complete_and_exit(&k->done, 0);
	return 0;
}

Test(input, answers_reads_in_order_then_the_default)
{
	static const unsigned char in[] = { 0x11, 0x22, 0x33, 0x44, 0x55 };
	char rep[8192];

	configure(input_line(in, sizeof(in), "default=zero 0x300=0x44"));
	cr_assert_eq(inb(0x301), 0x11, "the first byte");
	cr_assert_eq(inb(0x300), 0x44, "a rule names it: no byte taken");
	cr_assert_eq(inw(0x302), 0x3322, "a word: two bytes, the first low");
	cr_assert_eq(inb(0x301), 0x44, "the next byte, whatever the address");
	cr_assert_eq(inw(0x304), 0, "one byte left for two: the default");
	cr_assert_eq(inb(0x305), 0, "and the default from then on");
	report(rep, sizeof(rep));
	cr_assert(strstr(rep, "\"input\":{\"bytes\":5,\"used\":4,\"ended\":1"),
		  "%s", rep);
	cr_assert(strstr(rep, "[\"io\",769,\"process\",[17,68]]"), "%s", rep);
	cr_assert(strstr(rep, "[\"io\",770,\"process\",[13090]]"), "%s", rep);
	cr_assert(strstr(rep, "\"stream\":\"11223344000000\""),
		  "every read that could take a byte, as answered: %s", rep);
	input_gone();
}

Test(input, gives_an_address_at_most_32_answers)
{
	unsigned char in[64];
	unsigned int i;

	for (i = 0; i < sizeof(in); i++)
		in[i] = i;
	configure(input_line(in, sizeof(in), ""));
	for (i = 0; i < 40; i++)
		cr_assert_eq(inb(0x310), i < 32 ? i : 0xff,
			     "read %u: a busy wait takes 32 bytes at most", i);
	cr_assert_eq(inb(0x311), 32, "another address: the next byte");
	input_gone();
}

Test(input, the_same_input_the_same_answers)
{
	static const unsigned char in[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	unsigned int a[12], b[12], c[12], i;

	configure(input_line(in, sizeof(in), "seed=3 default=seeded"));
	for (i = 0; i < 12; i++)
		a[i] = inb(0x320 + i % 3);
	configure(input_line(in, sizeof(in), "seed=3 default=seeded"));
	for (i = 0; i < 12; i++)
		b[i] = inb(0x320 + i % 3);
	cr_assert_arr_eq(a, b, sizeof(a));
	cr_assert(a[0] == 1 && a[7] == 8, "the bytes first");
	configure("seed=3 default=seeded");
	for (i = 0; i < 12; i++)
		c[i] = inb(0x320 + i % 3);
	cr_assert_arr_eq(&a[8], &c[8], 4 * sizeof(a[0]),
			 "past the input, what the default gives those reads");
	input_gone();
}

/*
 * A process, the kernel's own work and a handler each take their own
 * answers of an address; the report lists them per reader, and a line
 * of rules made of them (@process, @kernel, @irq, each list ending in
 * "default") gives each reader the same, whatever order they read in.
 */
Test(input, a_line_of_rules_answers_each_reader_as_the_input_did)
{
	static const unsigned char in[] = { 0xa1, 0xa2, 0xb1, 0xb2, 0xc1 };
	static struct kreads k = { .port = 0x330 };
	unsigned int p[3], q[3], irq[2];
	char rep[8192];

	configure(input_line(in, sizeof(in), "default=zero"));
	init_completion(&k.done);
	cr_assert_gt(kernel_thread(kernel_reads, &k, 0), 0);
	wait_for_completion(&k.done);
	p[0] = inb(0x330);
	p[1] = inb(0x330);
	irq[0] = in_irq_ctx(0x330);
	p[2] = inb(0x330);
	irq[1] = in_irq_ctx(0x330);
	cr_assert(k.got[0] == 0xa1 && k.got[1] == 0xa2);
	cr_assert(p[0] == 0xb1 && p[1] == 0xb2 && irq[0] == 0xc1);
	cr_assert(p[2] == 0 && irq[1] == 0, "then the default");
	report(rep, sizeof(rep));
	cr_assert(strstr(rep, "[\"io\",816,\"kernel\",[161,162]]"), "%s", rep);
	cr_assert(strstr(rep, "[\"io\",816,\"process\",[177,178]]"), "%s", rep);
	cr_assert(strstr(rep, "[\"io\",816,\"irq\",[193]]"), "%s", rep);
	input_gone();

	/* the same answers from the rules, the process first this time */
	configure("default=zero 0x330@kernel=0xa1,0xa2,default "
		  "0x330@process=0xb1,0xb2,default 0x330@irq=0xc1,default");
	q[0] = inb(0x330);
	q[1] = in_irq_ctx(0x330);
	q[2] = inb(0x330);
	cr_assert(q[0] == 0xb1 && q[1] == 0xc1 && q[2] == 0xb2);
	cr_assert_eq(inb(0x330), 0, "past the values, the default");
	init_completion(&k.done);
	cr_assert_gt(kernel_thread(kernel_reads, &k, 0), 0);
	wait_for_completion(&k.done);
	cr_assert(k.got[0] == 0xa1 && k.got[1] == 0xa2);
}

/* "default" in a list: the default's answer to that read, its n's */
Test(input, a_list_ending_in_default_stands_for_the_default)
{
	unsigned int alone[4], listed[4], i;

	configure("seed=9 default@irq=seeded,ones*");
	for (i = 0; i < 4; i++)
		alone[i] = in_irq_ctx(0x2e1);
	configure("seed=9 default@irq=seeded,ones* 0x2e1@irq=0x12,default");
	for (i = 0; i < 4; i++)
		listed[i] = in_irq_ctx(0x2e1);
	cr_assert_eq(listed[0], 0x12);
	cr_assert_arr_eq(&alone[1], &listed[1], 3 * sizeof(alone[0]),
			 "then the default's answer to the same read");

	/*
	 * As steady as the default: an input's answers, made rules,
	 * interrupt as often as the input did (the default "ones" has
	 * nothing more to say, whatever value stood in for it)
	 */
	configure("default@irq=ones 0x2a0@irq=0x05,default");
	sim_device_news();
	in_irq_ctx(0x2a0);
	cr_assert_not(sim_device_news());
}

Test(input, refuses_an_input_it_cannot_read)
{
	static const char *bad[] = {
		"input=",
		"input=/nonexistent/device-input",
		"default=0x1,default",
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[256] = "";

		cr_assert_eq(sim_device_configure(bad[i], err, sizeof(err)),
			     -EINVAL, "%s was taken", bad[i]);
		cr_assert(strstr(err, bad[i]), "%s: said \"%s\"", bad[i], err);
	}
	configure("input=- 0x300@process=1,default 0x301@kernel=zero");
}
