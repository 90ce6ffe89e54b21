/*
 * sancov.c - what gcc's -fsanitize-coverage=trace-cmp calls: each
 * comparison a driver compiled with it makes (make SEARCH=1: the
 * driver's own sources only) is handed to the generic device, which
 * matches its operands with the reads it just answered (world/device.h):
 * the constants a driver wants from its board, learned from the driver;
 * and to world/user.c, which takes those made while the exerciser issues
 * an ioctl as that call's (the commands its handler looks for).
 *
 * And what -fsanitize-coverage=trace-pc calls at the start of each basic
 * block of the driver: which blocks ran, for the search to tell a run
 * that reached new code (world/device.h's "blocks").  A byte per byte of
 * the program's text, so that a block costs a subtraction and a store;
 * the search maps each block to its source lines from the binary.
 *
 * Linked only into a program whose driver objects call these (an
 * archive member nobody needs stays out).  A comparison costs a call
 * and a look at the last few reads; one made more than QUIET times (a
 * busy wait on jiffies, a register polled) has taught all it can, since
 * the device counts a register's reads only so far, and costs a lookup.
 *
 * Compiled with SANCOV_AFL (make SEARCH=1 AFL=1): the program AFL++
 * runs, linked with afl-compiler-rt, which starts the fork server and
 * has the comparison hooks that feed CmpLog (the device learns nothing
 * from them then: AFL++ does).  It has no hook for the blocks gcc's
 * trace-pc names, which AFL's own compilers replace with theirs: here,
 * each block also counts the edge from the block before in AFL's map.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <linux/types.h>
#include <world/device.h>
#include <world/user.h>

#ifndef SANCOV_AFL

#define SITES 4096 /* comparisons of the driver counted, by place */
#define QUIET 4096 /* times a comparison is heard */

static struct {
	unsigned long pc;
	unsigned int times;
} sites[SITES];

/* Whether the comparison at @pc is still worth hearing. */
static int heard(unsigned long pc)
{
	unsigned long h = (pc >> 2) * 0x9E3779B97F4A7C15UL;
	unsigned int i;

	/* a busy wait's comparison, heard enough: one look, no write */
	if (__atomic_load_n(&sites[h % SITES].pc, __ATOMIC_RELAXED) == pc &&
	    __atomic_load_n(&sites[h % SITES].times, __ATOMIC_RELAXED) > QUIET)
		return 0;
	for (i = 0; i < SITES; i++, h++) {
		unsigned long *slot = &sites[h % SITES].pc, none = 0;

		if (__atomic_load_n(slot, __ATOMIC_RELAXED) == pc ||
		    __atomic_compare_exchange_n(slot, &none, pc, 0,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED) ||
		    none == pc)
			return __atomic_add_fetch(&sites[h % SITES].times, 1,
						  __ATOMIC_RELAXED) <= QUIET;
	}
	return 1; /* more places than counted: all heard */
}

/* each to the device, and to what a user gives (an ioctl's command) */
#define SANCOV(name, type, konst)                                         \
	void __sanitizer_cov_trace_##name(type a, type b);                \
	void __sanitizer_cov_trace_##name(type a, type b)                 \
	{                                                                 \
		if (heard((unsigned long) __builtin_return_address(0))) { \
			sim_device_compare(a, b, sizeof(type), konst);    \
			sim_user_compare(a, b, sizeof(type), konst);      \
		}                                                         \
	}

SANCOV(cmp1, u8, 0)
SANCOV(cmp2, u16, 0)
SANCOV(cmp4, u32, 0)
SANCOV(cmp8, u64, 0)
SANCOV(const_cmp1, u8, 1)
SANCOV(const_cmp2, u16, 1)
SANCOV(const_cmp4, u32, 1)
SANCOV(const_cmp8, u64, 1)

#endif /* !SANCOV_AFL */

/* no device register is a float */
void __sanitizer_cov_trace_cmpf(float a, float b);
void __sanitizer_cov_trace_cmpf(float a, float b)
{
}

void __sanitizer_cov_trace_cmpd(double a, double b);
void __sanitizer_cov_trace_cmpd(double a, double b)
{
}

/*
 * switch (@val): @cases[0] cases of @cases[1] bits, their values from
 * @cases[2]: each is a constant @val was compared with.
 */
#ifndef SANCOV_AFL
void __sanitizer_cov_trace_switch(unsigned long val, void *table);
void __sanitizer_cov_trace_switch(unsigned long val, void *table)
{
	/* gcc's own prototype: a u64 value and a u64 table on x86_64 */
	u64 *cases = table;
	u64 i;
	int size = cases[1] / 8;

	if (!heard((unsigned long) __builtin_return_address(0)))
		return;
	for (i = 0; i < cases[0]; i++) {
		sim_device_compare(cases[2 + i], val, size ? size : 8, 1);
		sim_user_compare(cases[2 + i], val, size ? size : 8, 1);
	}
}
#endif /* !SANCOV_AFL */

/* the program's text, from its first byte: a byte per byte of it */
#define TEXT_MAP (8UL << 20)

extern const char __executable_start[], etext[];
static unsigned char ran[TEXT_MAP];

#ifdef SANCOV_AFL
/*
 * afl-compiler-rt's map, 64 KiB unless AFL_MAP_SIZE says otherwise (this
 * program never asks for more: its blocks are not numbered at link);
 * an edge is the block and the one before it, as AFL counts them.  The
 * block by its place in the text, not its address: the same in every
 * process whatever the load address.
 */
#define AFL_MAP 65536
extern unsigned char *__afl_area_ptr;
static __thread unsigned long afl_prev;
#endif

void __sanitizer_cov_trace_pc(void);
void __sanitizer_cov_trace_pc(void)
{
	unsigned long at = (unsigned long) __builtin_return_address(0) -
			   (unsigned long) __executable_start;
#ifdef SANCOV_AFL
	unsigned long cur = (at * 0x9E3779B97F4A7C15UL) >> 48;

	__afl_area_ptr[(cur ^ afl_prev) & (AFL_MAP - 1)]++;
	afl_prev = cur >> 1;
#endif
	if (at < TEXT_MAP)
		ran[at] = 1;
}

#ifdef SANCOV_AFL
static void died(int sig)
{
	_exit(128 + sig);
}

/*
 * Under afl-fuzz (its map in shared memory): a run that ends in a BUG
 * (a controlled run's livelock, a driver waiting for ever for its board
 * cut at SHIM_SCHED_MAX_STEPS) or an oops ends as an exit, which AFL
 * keeps in its queue if it reached new code: the device search counts
 * such a run for what it reached, and AFL would set a crash apart, never
 * to mutate it again.  After the shim's traps (constructor 102) and the
 * device (125), before the fork server (afl-compiler-rt's, unnumbered:
 * the last).  Run by hand, the program dies as any other.
 */
__attribute__((constructor(126))) static void afl_deaths_exit(void)
{
	static const int sigs[] = { SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	struct sigaction sa = { .sa_handler = died,
				.sa_flags = SA_NODEFER | SA_ONSTACK };
	unsigned int i;

	if (!getenv("__AFL_SHM_ID"))
		return;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
#endif

/*
 * "blocks": the blocks that ran, each by the address its call returns
 * to, from the program's start (as objdump and addr2line number them).
 * Only the text's part of the map is read, a word at a time.
 */
void sim_blocks_report(FILE *f)
{
	const unsigned long word = sizeof(unsigned long);
	unsigned long i, j, text = etext - __executable_start;
	const char *sep = "";

	fprintf(f, "\"blocks\":[");
	for (i = 0; i < TEXT_MAP && i < text; i += word) {
		if (!*(unsigned long *) &ran[i])
			continue;
		for (j = i; j < i + word; j++)
			if (ran[j]) {
				fprintf(f, "%s%lu", sep, j);
				sep = ",";
			}
	}
	fprintf(f, "],");
}
