/*
 * device.c - the generic device (world/device.h): each policy, the same
 * answers for the same configuration whatever the order of accesses,
 * SHIM_DEVICE read at start, what it learns from comparisons.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asm/io.h>
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/sched.h>
#include <shim/test.h>
#include <world/device.h>
#include <world/irq.h>
#include "child.h"
#include "suite.h"
#include "world.h"

void __sanitizer_cov_trace_const_cmp1(u8 a, u8 b);
void __sanitizer_cov_trace_cmp4(u32 a, u32 b);
void __sanitizer_cov_trace_switch(unsigned long val, void *table);

/* The n-th reads of @port, @count of them, into @out. */
static void reads(unsigned long port, unsigned int *out, int count)
{
	int i;

	for (i = 0; i < count; i++)
		out[i] = inb(port);
}

TestSuite(device, .timeout = SUITE_TIMEOUT);

Test(device, reads_back_what_was_written_by_default)
{
	configure(NULL);
	cr_assert_eq(inb(0x300), 0xff, "never written: a floating bus");
	outb(0x5a, 0x300);
	cr_assert_eq(inb(0x300), 0x5a);
	cr_assert_eq(inb(0x300), 0x5a, "and again");
	outw(0xbeef, 0x310);
	cr_assert_eq(inb(0x310), 0xef, "a word write stores its bytes");
	cr_assert_eq(inb(0x311), 0xbe);
	cr_assert_eq(inw(0x310), 0xbeef);
	cr_assert_eq(inl(0x310), 0xffffbeefu, "the rest never written");
}

Test(device, answers_ones_and_zero)
{
	configure("default=zero 0x2f8-0x2ff=ones");
	cr_assert_eq(inb(0x2f0), 0);
	cr_assert_eq(inb(0x2f8), 0xff);
	cr_assert_eq(inw(0x2ff), 0xffff);
	outb(0x12, 0x2fa);
	cr_assert_eq(inb(0x2fa), 0xff, "ones whatever was written");
	cr_assert_eq(inl(0x400), 0);
}

Test(device, gives_values_in_turn_then_the_last)
{
	unsigned int v[5];

	configure("0x223=0x5a,0xa5 0x224=1,2,3* 0x225=0x7f");
	reads(0x223, v, 4);
	cr_assert(v[0] == 0x5a && v[1] == 0xa5 && v[2] == 0xa5 && v[3] == 0xa5);
	reads(0x224, v, 5);
	cr_assert(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == 1 &&
		  v[4] == 2);
	cr_assert_eq(inb(0x225), 0x7f);
	outb(0, 0x225);
	cr_assert_eq(inb(0x225), 0x7f, "values whatever was written");
}

Test(device, mixes_values_and_policies_in_a_list)
{
	unsigned int v[6], w[6];

	configure("seed=4 0x2f0=seeded,ones* 0x2f1=0x12,readback,zero");
	reads(0x2f0, v, 6);
	cr_assert(v[1] == 0xff && v[3] == 0xff && v[5] == 0xff);
	cr_assert(v[0] != 0xff || v[2] != 0xff, "seeded between: %x %x", v[0],
		  v[2]);
	configure("seed=4 default=seeded");
	reads(0x2f0, w, 6);
	cr_assert(v[0] == w[0] && v[2] == w[2] && v[4] == w[4],
		  "the n-th read's seeded value, as seeded alone gives it");
	outb(0x77, 0x2f1);
	configure("0x2f1=0x12,readback,zero");
	outb(0x77, 0x2f1);
	reads(0x2f1, v, 4);
	cr_assert(v[0] == 0x12 && v[1] == 0x77 && v[2] == 0 && v[3] == 0);
}

Test(device, the_last_rule_naming_an_address_wins)
{
	configure("0x300-0x30f=zero 0x304=0x44 default=ones");
	cr_assert_eq(inb(0x303), 0);
	cr_assert_eq(inb(0x304), 0x44);
	cr_assert_eq(inb(0x310), 0xff);
	configure("0x304=0x44 0x300-0x30f=zero");
	cr_assert_eq(inb(0x304), 0);
}

Test(device, seeded_values_replay_and_depend_on_the_seed)
{
	unsigned int a[16], b[16], c[16];

	configure("seed=7 default=seeded");
	reads(0x330, a, 16);
	configure("seed=7 default=seeded");
	reads(0x330, b, 16);
	cr_assert_arr_eq(a, b, sizeof(a), "the same seed, the same values");
	configure("seed=8 default=seeded");
	reads(0x330, c, 16);
	cr_assert(memcmp(a, c, sizeof(a)), "another seed, other values");
	cr_assert(memcmp(a, a + 8, 8 * sizeof(a[0])),
		  "the n-th read is not the first again");
}

/* each address's answers are the same whatever else is read, and when */
Test(device, an_address_does_not_see_the_order_of_others)
{
	unsigned int alone[2][8], mixed[2][8];
	int i;

	configure("seed=3 default=seeded 0x301=5,6,7*");
	reads(0x300, alone[0], 8);
	reads(0x301, alone[1], 8);
	configure("seed=3 default=seeded 0x301=5,6,7*");
	for (i = 0; i < 8; i++) {
		mixed[1][i] = inb(0x301);
		(void) inb(0x3f8 + i);
		outb(i, 0x301);
		mixed[0][i] = inb(0x300);
	}
	cr_assert_arr_eq(alone[0], mixed[0], sizeof(alone[0]));
	cr_assert_arr_eq(alone[1], mixed[1], sizeof(alone[1]));
}

struct reader {
	unsigned long port;
	int arrived;
	unsigned int got[2000];
};

static int arrived;

static void read_many(void *arg)
{
	struct reader *r = arg;

	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < 2)
		;
	reads(r->port, r->got, 2000);
}

/* two threads reading at once: each address as if read alone */
Test(device, concurrent_readers_see_their_addresses_own_sequences)
{
	static struct reader r[2] = { { .port = 0x2e8 }, { .port = 0x2e9 } };
	static unsigned int alone[2][2000];
	struct shim_thread *t[2];
	int i;

	configure("seed=11 default=seeded");
	reads(0x2e8, alone[0], 2000);
	reads(0x2e9, alone[1], 2000);
	configure("seed=11 default=seeded");
	for (i = 0; i < 2; i++)
		t[i] = shim_thread_start("reader", read_many, &r[i]);
	for (i = 0; i < 2; i++)
		shim_thread_join(t[i]);
	cr_assert_arr_eq(alone[0], r[0].got, sizeof(alone[0]));
	cr_assert_arr_eq(alone[1], r[1].got, sizeof(alone[1]));
}

struct kreader {
	unsigned long port;
	unsigned int got[64];
	struct completion done;
};

static int kernel_reads(void *arg)
{
	struct kreader *k = arg;

	reads(k->port, k->got, 64);
	complete_and_exit(&k->done, 0);
	return 0;
}

/*
 * A process and the kernel's own work (a kernel thread such as a
 * worker, a timer) polling one status register at once, as a close
 * waiting for the transmitter beside the driver's poll timer: each sees
 * the register as if it read alone, whatever the interleaving.
 */
Test(device, a_process_and_the_kernel_read_apart)
{
	static struct kreader k = { .port = 0x3fd };
	static unsigned int alone[64], proc[64];

	configure("seed=5 0x3fd@task=seeded");
	reads(0x3fd, alone, 64);
	configure("seed=5 0x3fd@task=seeded");
	init_completion(&k.done);
	cr_assert_gt(kernel_thread(kernel_reads, &k, 0), 0);
	reads(0x3fd, proc, 64);
	wait_for_completion(&k.done);
	cr_assert_arr_eq(alone, proc, sizeof(alone), "the process's reads");
	cr_assert_arr_eq(alone, k.got, sizeof(alone), "the kernel's reads");
}

static unsigned int irq_read;

static void read_in_irq(void *arg)
{
	irq_read = inb((unsigned long) arg);
}

static unsigned int in_irq_ctx(unsigned long port)
{
	sim_call_in_irq(read_in_irq, (void *) port);
	return irq_read;
}

Test(device, answers_an_interrupt_handler_apart)
{
	configure("0x222@irq=0x04,0x01* 0x222@task=zero");
	cr_assert_eq(in_irq_ctx(0x222), 0x04);
	cr_assert_eq(inb(0x222), 0);
	cr_assert_eq(inb(0x222), 0);
	cr_assert_eq(in_irq_ctx(0x222), 0x01,
		     "the handler's n counts its own reads only");
	cr_assert_eq(in_irq_ctx(0x222), 0x04);
	configure("seed=2 default=seeded");
	cr_assert_neq(in_irq_ctx(0x222) << 8 | in_irq_ctx(0x222),
		      inb(0x222) << 8 | inb(0x222),
		      "seeded: another context, other values");
}

Test(device, defaults_apart_in_an_interrupt_handler)
{
	configure("default@irq=seeded,ones* default@task=zero 0x2e0=0x33");
	cr_assert_eq(inb(0x2e1), 0);
	cr_assert_neq(in_irq_ctx(0x2e1), 0xff, "seeded first (for this seed)");
	cr_assert_eq(in_irq_ctx(0x2e1), 0xff, "then nothing");
	cr_assert_eq(in_irq_ctx(0x2e0), 0x33, "a rule still wins");
	configure("default=ones default@irq=zero");
	cr_assert_eq(inb(0x2e1), 0xff);
	cr_assert_eq(in_irq_ctx(0x2e1), 0);
}

Test(device, memory_follows_the_same_rules)
{
	unsigned char *mem;

	configure("mem:0xd0000-0xd00ff=0x42 mem:0xd0100=seeded");
	mem = ioremap(0xd0000, 0x200);
	cr_assert_not_null(mem);
	cr_assert_eq(readb(mem + 0x10), 0x42);
	writeb(0x77, mem + 0x180);
	cr_assert_eq(readb(mem + 0x180), 0x77, "readback elsewhere");
	cr_assert_eq(readb(mem + 0x181), 0xff);
	cr_assert_eq(inb(0x10), 0xff, "ports are another space");
	iounmap(mem);
}

Test(device, refuses_a_malformed_line_saying_which_word)
{
	static const char *bad[] = {
		"bogus",	  "0x300",
		"0x300=",	  "0x300=maybe",
		"0x10000=zero",	  "0x30-0x20=zero",
		"probe=99",	  "probe=",
		"seed=x",	  "default=42x",
		"0x300@cpu=zero", "0x300=1,,2",
		"mem:=zero",	  "0x300=0x1ffffffff",
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[256] = "", word[64];

		cr_assert_eq(sim_device_configure(bad[i], err, sizeof(err)),
			     -EINVAL, "%s was taken", bad[i]);
		snprintf(word, sizeof(word), "SHIM_DEVICE: %s:", bad[i]);
		cr_assert(strstr(err, word), "%s: said \"%s\"", bad[i], err);
	}
	configure("  seed=0x10\tdefault=ones   0x80=0  ");
}

CHILD_SCENARIO(device_from_environment)
{
	child_check(inb(0x300) == 0x12);
	child_check(inb(0x301) == 0xff);
}

Test(device, is_configured_by_SHIM_DEVICE_at_start)
{
	struct child_result res;

	run_child("device_from_environment", "SHIM_DEVICE=0x300=0x12", &res);
	cr_assert(WIFEXITED(res.status) && !WEXITSTATUS(res.status), "%s",
		  res.out);
	run_child("device_from_environment", "SHIM_DEVICE=0x300=often", &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 2,
		  "a bad line is a usage error: %s", res.out);
	assert_child_said(&res, "SHIM_DEVICE: 0x300=often: expected");
}

Test(device, learns_what_a_read_was_compared_with)
{
	static char buf[65536];
	unsigned int id, st, zero;
	u64 cases[] = { 2, 8, 0x10, 0x20 };
	char want[128];

	configure("seed=5 default=seeded 0x229=zero");
	id = inb(0x226);
	__sanitizer_cov_trace_const_cmp1(0x4b, id);
	st = inb(0x227);
	(void) inb(0x228);
	__sanitizer_cov_trace_switch(st, cases);
	zero = inb(0x229);
	__sanitizer_cov_trace_const_cmp1(0x33, zero);
	__sanitizer_cov_trace_cmp4(0x12345678, 0x9abcdef0);
	report(buf, sizeof(buf));
	snprintf(want, sizeof(want), "[\"io\",550,\"task\",0,%u,75]", id);
	cr_assert(strstr(buf, want), "the identity byte: %s", buf);
	snprintf(want, sizeof(want), "[\"io\",551,\"task\",0,%u,16]", st);
	cr_assert(strstr(buf, want), "a switch's case: %s", buf);
	snprintf(want, sizeof(want), "[\"io\",551,\"task\",0,%u,32]", st);
	cr_assert(strstr(buf, want), "the other case: %s", buf);
	cr_assert_null(strstr(buf, "[\"io\",553,\"task\",0,"),
		       "a zero read proves nothing: %s", buf);
	cr_assert(strstr(buf, "\"consts\":[75,16,32,51]"), "%s", buf);
	cr_assert(strstr(buf, "[\"io\",550,\"task\",1]"), "reads: %s", buf);
}

Test(device, learns_from_a_field_of_a_read)
{
	static char buf[65536];
	unsigned int msr, gicr;
	char want[128];

	configure("seed=9 0x2fe=0x3c 0x3f1=0x5d");
	msr = inb(0x2fe);
	__sanitizer_cov_trace_const_cmp1(0x90, msr & 0xf0);
	gicr = inb(0x3f1);
	__sanitizer_cov_trace_const_cmp1(0x07, gicr >> 2);
	__sanitizer_cov_trace_const_cmp1(0x40, 0x22);
	report(buf, sizeof(buf));
	snprintf(want, sizeof(want), "[\"io\",766,\"task\",0,60,%u]", 0x90);
	cr_assert(strstr(buf, want), "some of its bits: %s", buf);
	snprintf(want, sizeof(want), "[\"io\",1009,\"task\",0,93,%u]",
		 0x07 << 2);
	cr_assert(strstr(buf, want), "its high bits: %s", buf);
	cr_assert(!strstr(buf, "93,64]") && !strstr(buf, "60,64]"),
		  "no read held 0x22: %s", buf);
}

CHILD_SCENARIO(device_report_at_exit)
{
	unsigned long mask;

	outb(1, 0x2f9);
	mask = probe_irq_on();
	outb(2, 0x2f9);
	child_check(probe_irq_off(mask) == 5);
	(void) inb(0x2f8);
	sim_call_in_irq(read_in_irq, (void *) 0x2f8UL);
}

Test(device, reports_what_it_saw_at_exit)
{
	char path[] = "/tmp/device-report.XXXXXX", env[128], buf[4096];
	struct child_result res;
	int fd = mkstemp(path);
	FILE *f;
	size_t n;

	cr_assert_geq(fd, 0);
	close(fd);
	snprintf(env, sizeof(env), "SHIM_DEVICE=probe=5 SHIM_DEVICE_REPORT=%s",
		 path);
	run_child("device_report_at_exit", env, &res);
	cr_assert(WIFEXITED(res.status) && !WEXITSTATUS(res.status), "%s",
		  res.out);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	unlink(path);
	cr_assert(strstr(buf, "[\"io\",760,\"task\",1]"), "%s", buf);
	cr_assert(strstr(buf, "[\"io\",760,\"irq\",1]"), "%s", buf);
	cr_assert(strstr(buf, "\"writes\":[[\"io\",761,2,1]]"), "%s", buf);
	cr_assert(strstr(buf, "\"probes\":[5]"), "%s", buf);
}

Test(device, raises_its_probe_lines_when_written_while_probed)
{
	unsigned long mask;

	configure("probe=5");
	mask = probe_irq_on();
	(void) inb(0x300);
	outb(0x01, 0x301);
	outb(0x02, 0x301);
	cr_assert_eq(probe_irq_off(mask), 5);
	mask = probe_irq_on();
	(void) inb(0x301);
	cr_assert_eq(probe_irq_off(mask), 0, "not asked to do anything");
	configure("probe=7,3");
	mask = probe_irq_on();
	outb(1, 0x300);
	cr_assert_eq(probe_irq_off(mask), -3, "two lines");
	configure(NULL);
	mask = probe_irq_on();
	outb(1, 0x300);
	cr_assert_eq(probe_irq_off(mask), 0, "none by default");
	outb(1, 0x300);
	cr_assert_eq(sim_irq_spurious(3) + sim_irq_spurious(5), 0,
		     "no raise outside a probe");
}

CHILD_SCENARIO(device_report_at_term)
{
	int i;

	for (i = 0; i < 1000; i++)
		(void) inb(0x2fd);
	raise(SIGTERM);
}

Test(device, reports_what_it_saw_when_told_to_end)
{
	char path[] = "/tmp/device-report.XXXXXX", env[128], buf[4096] = "";
	struct child_result res;
	int fd = mkstemp(path);
	FILE *f;

	cr_assert_geq(fd, 0);
	close(fd);
	snprintf(env, sizeof(env), "SHIM_DEVICE_REPORT=%s", path);
	run_child("device_report_at_term", env, &res);
	cr_assert(WIFSIGNALED(res.status) && WTERMSIG(res.status) == SIGTERM,
		  "it dies of the signal: %s", res.out);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_gt(fread(buf, 1, sizeof(buf) - 1, f), 0);
	fclose(f);
	unlink(path);
	cr_assert(strstr(buf, "[\"io\",765,\"task\",1000]"), "%s", buf);
}

static volatile int *volatile nowhere;

CHILD_SCENARIO(device_report_at_oops)
{
	int i;

	for (i = 0; i < 1000; i++)
		(void) inb(0x2fd);
	nowhere[12] = 1; /* an oops, as a driver's */
}

Test(device, reports_what_it_saw_when_the_driver_oopses)
{
	char path[] = "/tmp/device-report.XXXXXX", env[128], buf[4096] = "";
	struct child_result res;
	int fd;
	FILE *f;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	cr_skip_test("the sanitizer's own handler reports faults here");
#endif
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	snprintf(env, sizeof(env), "SHIM_DEVICE_REPORT=%s", path);
	run_child("device_report_at_oops", env, &res);
	cr_assert(WIFSIGNALED(res.status) && WTERMSIG(res.status) == SIGSEGV,
		  "it dies of the fault: %s", res.out);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_gt(fread(buf, 1, sizeof(buf) - 1, f), 0, "a last word");
	fclose(f);
	unlink(path);
	cr_assert(strstr(buf, "[\"io\",765,\"task\",1000]"), "%s", buf);
}

Test(device, a_register_file_behind_an_index_port)
{
	char want[64];
	static char buf[65536];

	configure("index=0x251:0x250 0x250#0x31=0x82 0x250#0x40-0x4f@irq=zero");
	outb(0x71, 0x251);
	outb(0x5a, 0x250);
	outb(0x72, 0x251);
	outb(0xa5, 0x250);
	outb(0x71, 0x251);
	cr_assert_eq(inb(0x250), 0x5a, "each register reads back its own");
	outb(0x72, 0x251);
	cr_assert_eq(inb(0x250), 0xa5);
	cr_assert_eq(inb(0x251), 0x72, "the index port reads back");
	outb(0x31, 0x251);
	cr_assert_eq(inb(0x250), 0x82, "a rule names a register");
	outb(0x44, 0x251);
	cr_assert_eq(inb(0x250), 0xff, "outside a handler: the default");
	cr_assert_eq(in_irq_ctx(0x250), 0, "a range of registers");
	report(buf, sizeof(buf));
	snprintf(want, sizeof(want), "[\"io\",%lu,\"task\",1]",
		 1UL << 24 | 0x71UL << 16 | 0x250);
	cr_assert(strstr(buf, want), "a register is an address: %s", buf);
	cr_assert(strstr(buf, "[\"io\",593,6,5]"),
		  "the index port changes at each write: %s", buf);
}

Test(device, notes_a_port_written_then_another_accessed_at_once)
{
	static char buf[65536];
	int i;

	configure(NULL);
	/* index at 0x2a0, data at 0x2a4: register i read, then written */
	for (i = 0; i < 10; i++) {
		outb(0x40 + i, 0x2a0);
		(void) inb(0x2a4);
		outb(0x40 + i, 0x2a0);
		outb(i, 0x2a4);
	}
	/* a word written is no register number; nor is a read */
	outw(0x1234, 0x2b0);
	(void) inb(0x2b4);
	(void) inb(0x2b8);
	(void) inb(0x2bc);
	report(buf, sizeof(buf));
	cr_assert(strstr(buf, "[672,676,20,10,10,10]"),
		  "index, data, times, values, reads, values read after: %s",
		  buf);
	cr_assert(strstr(buf, "[676,672,9,9,0,0]"),
		  "a data write, then the index: never read: %s", buf);
	cr_assert_null(strstr(buf, "[688,692,"), "%s", buf);
	cr_assert_null(strstr(buf, "[692,696,"), "%s", buf);
	configure(NULL);
	(void) inb(0x2a4);
	report(buf, sizeof(buf));
	cr_assert(strstr(buf, "\"pairs\":[]"),
		  "a new configuration forgets them: %s", buf);
}

Test(device, learns_what_a_register_of_a_file_was_compared_with)
{
	static char buf[65536];
	unsigned int id;
	char want[128];

	configure("seed=5 index=0x2a0:0x2a4 0x2a4#0x16=seeded");
	outb(0x16, 0x2a0);
	id = inb(0x2a4);
	__sanitizer_cov_trace_const_cmp1(0x3d, id);
	report(buf, sizeof(buf));
	/* the register, not the data port: what it learns is a rule for it */
	snprintf(want, sizeof(want), "[\"io\",%lu,\"task\",0,%u,61]",
		 1UL << 24 | 0x16UL << 16 | 0x2a4, id);
	cr_assert(strstr(buf, want), "%s", buf);
}

/* what a handler does in one interrupt: read @port, write @val to @ack */
static unsigned long news_port, news_ack;
static unsigned int news_val;

static void one_interrupt(void *unused)
{
	(void) inb(news_port);
	outb(news_val, news_ack);
}

static void interrupt_once(unsigned long port, unsigned long ack,
			   unsigned int val)
{
	news_port = port;
	news_ack = ack;
	news_val = val;
	sim_call_in_irq(one_interrupt, NULL);
}

Test(device, has_news_while_a_register_has_more_to_say)
{
	configure("0x2a0@irq=0x04,0x04,0x01");
	cr_assert(sim_device_news(), "the first question: it has");
	interrupt_once(0x2a0, 0x2a1, 0);
	cr_assert(sim_device_news(), "0x04 with more to come");
	interrupt_once(0x2a0, 0x2a1, 0);
	cr_assert(sim_device_news(),
		  "the handler's writes the same, but 0x01 to come");
	interrupt_once(0x2a0, 0x2a1, 0);
	cr_assert_not(
		sim_device_news(),
		"the last value, the same acknowledge: nothing new to say");
	interrupt_once(0x2a0, 0x2a1, 0);
	cr_assert_not(sim_device_news(), "and again nothing");
}

Test(device, has_news_when_the_handler_or_the_driver_writes_anew)
{
	configure("0x2a0@irq=0x02");
	sim_device_news();
	interrupt_once(0x2a0, 0x2a8, 0x41);
	sim_device_news();
	interrupt_once(0x2a0, 0x2a8, 0x42);
	cr_assert(sim_device_news(),
		  "a byte to transmit that was not the last one");
	interrupt_once(0x2a0, 0x2a8, 0x42);
	cr_assert_not(sim_device_news(), "the same byte again: nothing new");
	outb(0x0f, 0x2a9);
	cr_assert(sim_device_news(),
		  "the driver told it something outside a handler");
	cr_assert_not(sim_device_news(), "asked again: nothing since");
	configure("0x2a0@irq=seeded");
	sim_device_news();
	interrupt_once(0x2a0, 0x2a8, 0);
	cr_assert(sim_device_news(),
		  "a seeded register always has more to say");
}
