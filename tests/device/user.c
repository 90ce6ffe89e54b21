/*
 * user.c - what a user gives a driver (world/user.h): the calls of a
 * SHIM_IOCTLS line and their argument memory, the same bytes every
 * time; what a handler compared a probe command, an argument, a field of
 * its memory or a module parameter's string with, in the report.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include <shim/modparam.h>
#include <shim/test.h>
#include <world/user.h>
#include "suite.h"
#include "world.h"

void __sanitizer_cov_trace_const_cmp2(u16 a, u16 b);
void __sanitizer_cov_trace_const_cmp4(u32 a, u32 b);
void __sanitizer_cov_trace_switch(unsigned long val, void *table);

/* a string parameter of a module, as MODULE_PARM(board, "1-3s") makes it */
static char *board[3];
static const struct shim_modparam board_param = { "board", "1-3s",
						  (void *) &board,
						  sizeof(board) };
static const struct shim_modparam *board_ptr
	__attribute__((section("shim_modparams"), used)) = &board_param;

static void ioctls(const char *line)
{
	char err[256] = "";

	cr_assert_eq(sim_ioctls_configure(line, err, sizeof(err)), 0, "%s: %s",
		     line, err);
}

TestSuite(user, .timeout = SUITE_TIMEOUT);

Test(user, a_line_says_its_calls_in_order)
{
	struct sim_ioctl_call c;

	ioctls("probe seed=3 10.63:0x6601=seeded,0:4=0,4:2=0x4657 "
	       "4.128:0x40b=0x404 240.0:7");
	cr_assert(sim_ioctls_probing());
	cr_assert_eq(sim_ioctl_get(0, &c), 0);
	cr_assert(c.major == 10 && c.minor == 63 && c.cmd == 0x6601);
	cr_assert_eq(sim_ioctl_get(1, &c), 0);
	cr_assert(c.major == 4 && c.minor == 128 && c.cmd == 0x40b);
	cr_assert_eq(sim_ioctl_get(2, &c), 0);
	cr_assert(c.major == 240 && c.minor == 0 && c.cmd == 7);
	cr_assert_eq(sim_ioctl_get(3, &c), -ENOENT);
	ioctls("");
	cr_assert(!sim_ioctls_probing());
	cr_assert_eq(sim_ioctl_get(0, &c), -ENOENT, "a line replaces the last");
}

Test(user, refuses_a_malformed_word_saying_which)
{
	static const char *const bad[] = {
		"10.63",
		"10.63:",
		"10.63:0x1=",
		"10.63:1=ones",
		"10.63:1=zero,3",
		"10.63:1=zero,4:3=1",
		"10.63:1=zero,255:4=1",
		"10.63:1=zero,4:p",
		"seed=x",
		"probes",
		"300.1:1",
	};
	char err[256];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(sim_ioctls_configure(bad[i], err, sizeof(err)),
			     -EINVAL, "%s", bad[i]);
		cr_assert(strstr(err, bad[i]), "names the word: %s", err);
	}
}

Test(user, argument_memory_is_the_same_bytes_every_time)
{
	unsigned char first[SIM_IOCTL_ARG], zero[SIM_IOCTL_ARG] = { 0 };
	unsigned char *arg;
	u16 magic;
	u32 board_no;
	void *data;

	ioctls("10.63:1 10.63:2=seeded,0:4=0,4:2=0x4657,8:p 10.63:3=0x404");
	arg = (unsigned char *) sim_ioctl_arg(0);
	cr_assert(!memcmp(arg, zero, sizeof(zero)), "zero by default");
	arg = (unsigned char *) sim_ioctl_arg(1);
	memcpy(first, arg, sizeof(first));
	memcpy(&board_no, arg, 4);
	memcpy(&magic, arg + 4, 2);
	memcpy(&data, arg + 8, sizeof(data));
	cr_assert_eq(board_no, 0);
	cr_assert_eq(magic, 0x4657, "little endian, as a PC's");
	cr_assert_not_null(data, "a pointer to more memory");
	cr_assert(memcmp(arg + 16, zero, 64), "seeded");
	cr_assert_eq(sim_ioctl_arg(2), 0x404, "a number as itself");
	ioctls("seed=2 10.63:1 10.63:2=seeded,0:4=0,4:2=0x4657,8:p");
	arg = (unsigned char *) sim_ioctl_arg(1);
	cr_assert(memcmp(arg + 16, first + 16, 64), "another seed");
	ioctls("10.63:1 10.63:2=seeded,0:4=0,4:2=0x4657,8:p");
	arg = (unsigned char *) sim_ioctl_arg(1);
	cr_assert(!memcmp(arg + 16, first + 16, SIM_IOCTL_ARG - 16),
		  "the same seed, the same bytes");
	ioctls("10.63:5 10.63:2=seeded");
	arg = (unsigned char *) sim_ioctl_arg(1);
	cr_assert(!memcmp(arg + 16, first + 16, SIM_IOCTL_ARG - 16),
		  "wherever the call is in the line");
	cr_assert(!memcmp((void *) sim_ioctl_arg(-1), zero, sizeof(zero)),
		  "the probe's: zero");
}

Test(user, a_probe_learns_the_commands_a_handler_looks_for)
{
	static char buf[65536];
	u64 cases[] = { 3, 32, 0x6601, 0x6602, 0x5401 };

	configure(NULL);
	ioctls("probe");
	sim_ioctl_begin(10, 63, SIM_IOCTL_PROBE, sim_ioctl_arg(-1), 0);
	__sanitizer_cov_trace_switch(SIM_IOCTL_PROBE, cases);
	__sanitizer_cov_trace_const_cmp4(0x4d04, SIM_IOCTL_PROBE);
	sim_ioctl_end();
	sim_ioctl_begin(4, 128, SIM_IOCTL_PROBE, sim_ioctl_arg(-1), 1);
	__sanitizer_cov_trace_switch(SIM_IOCTL_PROBE, cases);
	sim_ioctl_end();
	__sanitizer_cov_trace_const_cmp4(0x4d05, SIM_IOCTL_PROBE);
	report(buf, sizeof(buf));
	cr_assert(strstr(buf, "\"cmds\":[[\"10.63\",26113],[\"10.63\",26114],"
			      "[\"10.63\",21505],[\"10.63\",19716],"
			      "[\"4.128\",26113],[\"4.128\",26114]]"),
		  "a tty's own commands left out, nothing past the call: %s",
		  buf);
}

Test(user, a_call_learns_the_fields_its_memory_should_hold)
{
	static char buf[65536];
	unsigned char *arg;
	u32 word;
	u16 half;
	void *ptr;
	char want[128];

	configure(NULL);
	ioctls("10.63:0x40486601=seeded 10.63:2");
	arg = (unsigned char *) sim_ioctl_arg(0);
	memcpy(&word, arg + 8, 4);
	memcpy(&half, arg + 6, 2);
	memcpy(&ptr, arg + 16, sizeof(ptr));
	sim_ioctl_begin(10, 63, 0x40486601, (unsigned long) arg, 0);
	__sanitizer_cov_trace_const_cmp4(4, word);
	__sanitizer_cov_trace_const_cmp2(0x4657, half);
	__sanitizer_cov_trace_const_cmp4(0x404, (u32) (unsigned long) arg);
	sim_user_fault(ptr, 4096);
	sim_ioctl_end();
	sim_ioctl_begin(10, 63, 2, 0x1234, 0);
	__sanitizer_cov_trace_const_cmp4(0x404, 0x1234);
	sim_ioctl_end();
	report(buf, sizeof(buf));
	snprintf(want, sizeof(want), "[\"10.63\",1078486529,8,4,%u,4]", word);
	cr_assert(strstr(buf, want), "a word: %s", buf);
	snprintf(want, sizeof(want), "[\"10.63\",1078486529,6,2,%u,18007]",
		 half);
	cr_assert(strstr(buf, want), "a half word: %s", buf);
	cr_assert(strstr(buf, "\"values\":[[\"10.63\",1078486529,1028],"
			      "[\"10.63\",2,1028]]"),
		  "the argument as a number: %s", buf);
	cr_assert(strstr(buf, "\"pointers\":[[\"10.63\",1078486529,16,4096]]"),
		  "a word copied from: %s", buf);
}

Test(user, a_string_parameter_learns_the_names_it_is_compared_with)
{
	static char buf[65536];
	char elsewhere[] = "ech";

	configure(NULL);
	cr_assert_eq(shim_modparam_set("board", "x,0x2a0"), 0);
	sim_user_strcmp("easyio", board[0], (size_t) -1);
	sim_user_strcmp(board[0], "ec8/32", 3);
	sim_user_strcmp(board[1], "a name\twith blanks", (size_t) -1);
	sim_user_strcmp(elsewhere, "ech-pci", (size_t) -1);
	sim_user_strcmp(board[0], "easyio", (size_t) -1);
	report(buf, sizeof(buf));
	cr_assert(strstr(buf, "\"strings\":[[\"board\",0,\"easyio\"],"
			      "[\"board\",0,\"ec8\"]]"),
		  "each once, as far as compared; not another string's: %s",
		  buf);
}
