/*
 * device.c - the generic device behind port and memory I/O (see
 * world/device.h for SHIM_DEVICE, the line that configures it).
 *
 * Every answer is a function of the configuration and of (space,
 * address, context, n), n counting that address's reads by that reader:
 * never of a global order of accesses, so that a driver's two sides, or
 * two runs of one side, see the same device however their tasks
 * interleave.  Readback is the one policy that looks at other accesses,
 * and only at the writes to the same address.
 *
 * The readers (reader_of()): the interrupt handlers; the kernel's own
 * deferred work (timers, bottom halves, kernel threads: keventd, a
 * workqueue's workers); and the processes, in system calls.  Outside
 * hard-irq context both of the last two are "task" to a policy, but
 * each counts apart: a process polling a status register while a timer
 * polls it on another CPU (a close waiting for the transmitter while the
 * driver's poll timer runs) would otherwise take some of the timer's
 * answers, which ones depending on the interleaving; a conversion that
 * wakes the process from a worker rather than from the bottom half after
 * the handler makes that interleaving possible, a real UART's receive
 * stream does not depend on it, and a device's whole answer stream
 * shifting with it would be the model's doing, not the driver's.
 *
 * Host code on libc, as the demo's monitor is: the device is the
 * machine, not the kernel, and its bookkeeping is under a host lock
 * that is no scheduling point (a controlled run's schedules stay those
 * of the driver).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/interrupt.h>
#include <linux/sched.h>
#include <shim/io.h>
#include <shim/test.h>
#include <world/device.h>
#include <world/irq.h>
#include <world/pci.h>
#include <world/user.h>

#define SPACE_IO 0
#define SPACE_MEM 1
#define CTX_TASK 1
#define CTX_IRQ 2

enum policy { READBACK, SEEDED, ONES, ZERO, VALUE, DEFAULT };

/* who reads (reader_of()): n counts per reader */
#define READER_PROCESS 0
#define READER_IRQ 1
#define READER_KERNEL 2
#define READERS 3
#define READS_IN_TASK (1u << READER_PROCESS | 1u << READER_KERNEL)
#define READS_ANY (READS_IN_TASK | 1u << READER_IRQ)

/* what the n-th read gives: entry n, then the last again, or over */
struct dev_entry {
	enum policy kind;
	u32 val; /* VALUE */
};

struct dev_policy {
	int cycle;
	int nvals;
	struct dev_entry *vals;
};

struct dev_rule {
	int space;
	unsigned long lo, hi;
	unsigned int readers; /* a bit per reader_of() it answers */
	struct dev_policy pol;
};

#define MAX_RULES 512
#define MAX_PROBE 8

/*
 * A register file behind an index port: what the data port's accesses
 * reach is the register the index port was last written with, an
 * address of its own (FILE_REG), as the CD180's and many ISA chips'.
 */
#define MAX_FILES 8
#define FILE_REG(data, index) (1UL << 24 | ((index) &0xffUL) << 16 | (data))

struct dev_config {
	u64 seed;
	struct dev_policy dflt[2]; /* outside and in hard-irq context */
	unsigned int probe[MAX_PROBE];
	int nprobe;
	unsigned long file[MAX_FILES][2]; /* index port, data port */
	int nfiles;
	struct dev_rule rules[MAX_RULES];
	int nrules;
	char *input; /* input=FILE: its path, "-" stdin; NULL: none */
};

/*
 * Per (space, address): reads per reader, writes, and the byte last
 * written.  Open addressing; once full, a new address is answered as if
 * read for the first time and never written, and the report says so.
 */
#define SLOTS (1 << 16)

struct dev_slot {
	u64 key;	    /* space << 48 | address, plus 1; 0: free */
	u32 reads[READERS]; /* per reader_of() */
	u32 writes;
	u32 changes;	   /* writes of another value than the last */
	u16 said[READERS]; /* its input's answers: input.said[said - 1] */
	u8 val;
	u8 written;
};

/*
 * What the driver compared recent reads against (sim_device_compare):
 * the last reads, and each (address, context, n, constant) found.
 */
#define RING 16
#define MAX_COMPARES 2048
#define MAX_CONSTS 512
#define LATE 32 /* reads after which n no longer counts */

struct dev_read {
	int space, ctx, size;
	int written; /* read back what the driver wrote */
	unsigned long addr;
	u32 n, val;
};

struct dev_compare {
	int space, ctx;
	unsigned long addr;
	u32 n, val, konst;
};

static struct shim_mutex lock = SHIM_MUTEX_INIT;
static struct dev_config *cfg;
static struct dev_slot *slots;
static unsigned long full; /* addresses not tracked: the table was full */
static struct dev_read ring[RING]; /* the latest first */
static unsigned int nring;
static struct dev_compare compares[MAX_COMPARES];
static u64 compare_seen[2 * MAX_COMPARES];
static int ncompares;
static u64 consts[MAX_CONSTS];
static u64 const_seen[2 * MAX_CONSTS];
static int nconsts;
static u64 last_const;		/* the constant noted last: a loop notes one */
static unsigned int generation; /* configurations so far */
static int widest;		/* the widest read so far, in bytes */
static unsigned long probe_raised; /* the probe the lines went up in */

/*
 * Index and data ports, as a driver shows them: a port written a byte
 * (a register's number), then at once another port accessed by the same
 * task in the same context (the register), for the search to try a
 * register file there.  Per pair: how often, how many of those accesses
 * were reads, which values the first was written with, and which of
 * them the second was read after (bitmaps of a byte: an index port
 * takes many, and a data port read under one index only is no file).
 */
#define MAX_PAIRS 64

struct dev_pair {
	unsigned long index, data;
	u32 times, reads;
	u32 values[8], read_values[8];
};

static struct dev_pair pairs[MAX_PAIRS];
static int npairs;

/*
 * input=FILE: the device steered by an engine such as AFL++ (whose
 * CmpLog learns input-to-state, as Redqueen does), answering as Fuzzware
 * and P2IM answer a firmware's reads: every read no rule names takes its
 * answer from the input's next bytes (as many as the read is wide, the
 * first the lowest), one stream in the order the reads come, until it
 * runs out; then the default policy.  An address takes at most
 * INPUT_READS answers per reader from it, so that a busy wait does not
 * drain the input of what the reads after it would have had; past them,
 * the default, as past the end.
 *
 * Read whole at the first read that wants it, not when configured: an
 * AFL fork server starts after the device is configured, and each run
 * it forks has its own input on stdin.
 *
 * The stream cannot be replayed on the other side of a conversion, whose
 * tasks read in another order; an address's answers per reader can: the
 * report lists them ("answers"), for a line of rules that gives both
 * sides the same (demo/device_search.py's answers_line()).  And it has
 * the stream of every read that could take the input's answer, as
 * answered, from the input or not: an input that replays the run, a
 * fuzzer's seed.
 */
#define INPUT_READS LATE
#define INPUT_MAX (1 << 20)
#define MAX_SAID 4096
#define STREAM_MAX (64 << 10)

struct dev_said {
	int space, reader;
	unsigned long addr;
	u32 n;
	u32 vals[INPUT_READS];
};

static struct {
	int loaded; /* read (or found unreadable) since configured */
	int ended;  /* a read found too few bytes left: no more answers */
	unsigned char *buf;
	size_t len, at;
	struct dev_said said[MAX_SAID];
	int nsaid;
	unsigned long unsaid; /* answers not listed: too many addresses */
	unsigned char stream[STREAM_MAX];
	size_t nstream;
} input;

/*
 * Whether the device has something to say (sim_device_news()): what its
 * handlers met in the interrupts since the last question, and whether
 * the driver told it anything outside them.  A handler that read only
 * registers past the values their policies had to give (their steady
 * last entry, readback) and wrote what the handlers wrote the time
 * before (an acknowledge, an end of interrupt) was told nothing new.
 */
static struct {
	int irq_ran;	 /* a handler read or wrote since the last question */
	int unsteady;	 /* one read a value its policy had not given yet */
	int told;	 /* the driver wrote outside a handler */
	int questions;	 /* asked so far */
	u64 writes;	 /* what the handlers wrote, as a digest */
	u64 last_writes; /* the same, for the interrupts before */
} news;

/* this thread's last port access, per context: a byte written, or not */
static __thread struct dev_access {
	unsigned int generation; /* of the configuration it was made in */
	int written;
	unsigned long port;
	u8 val;
} last_access[2];

/* --- parsing ------------------------------------------------------------- */

static int fail(char *err, size_t len, const char *word, const char *why)
{
	if (err && len)
		snprintf(err, len, "SHIM_DEVICE: %.*s: %s",
			 (int) strcspn(word, " \t"), word, why);
	return -EINVAL;
}

/* A C number at *@p, up to one of @stops; 0 if there is none. */
static int number(const char **p, const char *stops, unsigned long *out)
{
	char *end;

	if (**p < '0' || **p > '9')
		return 0;
	errno = 0;
	*out = strtoul(*p, &end, 0);
	if (errno || (*end && !strchr(stops, *end)))
		return 0;
	*p = end;
	return 1;
}

/* One entry of a policy at *@p: a number or a policy's name. */
static int entry(const char **p, struct dev_entry *e)
{
	static const struct {
		const char *name;
		enum policy kind;
	} names[] = { { "readback", READBACK },
		      { "seeded", SEEDED },
		      { "ones", ONES },
		      { "zero", ZERO },
		      { "default", DEFAULT } };
	size_t n = strcspn(*p, ",* \t");
	unsigned long v;
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i].name) == n &&
		    !strncmp(*p, names[i].name, n)) {
			e->kind = names[i].kind;
			*p += n;
			return 0;
		}
	}
	if (!number(p, ",* \t", &v) || v > 0xffffffffUL)
		return -1;
	e->kind = VALUE;
	e->val = v;
	return 0;
}

static int policy(const char *p, struct dev_policy *pol)
{
	memset(pol, 0, sizeof(*pol));
	for (;;) {
		struct dev_entry *vals;

		vals = realloc(pol->vals, (pol->nvals + 1) * sizeof(*vals));
		if (!vals)
			return -1;
		pol->vals = vals;
		if (entry(&p, &pol->vals[pol->nvals++]))
			return -1;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '*') {
			pol->cycle = 1;
			p++;
		}
		return *p && !strchr(" \t", *p) ? -1 : 0;
	}
}

static int lines(const char *p, struct dev_config *c)
{
	unsigned long v;

	c->nprobe = 0;
	for (;;) {
		if (!number(&p, ", \t", &v) || v >= NR_SIM_IRQS ||
		    c->nprobe == MAX_PROBE)
			return -1;
		c->probe[c->nprobe++] = v;
		if (*p != ',')
			return 0;
		p++;
	}
}

static int rule(const char *word, struct dev_config *c)
{
	struct dev_rule *r = &c->rules[c->nrules];
	const char *p = word;

	if (c->nrules == MAX_RULES)
		return -1;
	memset(r, 0, sizeof(*r));
	if (!strncmp(p, "mem:", 4)) {
		r->space = SPACE_MEM;
		p += 4;
	}
	if (!number(&p, "#-@=", &r->lo))
		return -1;
	r->hi = r->lo;
	if (*p == '#' && r->space == SPACE_IO) {
		/* DATA#I[-J]: registers I to J of the file behind DATA */
		unsigned long data = r->lo, i, j;

		p++;
		if (!number(&p, "-@=", &i) || i > 0xff || data > 0xffff)
			return -1;
		j = i;
		if (*p == '-') {
			p++;
			if (!number(&p, "@=", &j) || j > 0xff || j < i)
				return -1;
		}
		r->lo = FILE_REG(data, i);
		r->hi = FILE_REG(data, j);
	} else if (*p == '-') {
		p++;
		if (!number(&p, "@=", &r->hi) || r->hi < r->lo)
			return -1;
	}
	r->readers = READS_ANY;
	if (!strncmp(p, "@irq=", 5)) {
		r->readers = 1u << READER_IRQ;
		p += 4;
	} else if (!strncmp(p, "@task=", 6)) {
		r->readers = READS_IN_TASK;
		p += 5;
	} else if (!strncmp(p, "@process=", 9)) {
		r->readers = 1u << READER_PROCESS;
		p += 8;
	} else if (!strncmp(p, "@kernel=", 8)) {
		r->readers = 1u << READER_KERNEL;
		p += 7;
	}
	if (*p != '=' || policy(p + 1, &r->pol) ||
	    (r->space == SPACE_IO && r->hi > 0xffff &&
	     r->lo < FILE_REG(0, 0))) {
		/* not counted in: its values are not config_free()'s */
		free(r->pol.vals);
		r->pol.vals = NULL;
		return -1;
	}
	c->nrules++;
	return 0;
}

/* index=A:D, a register file at data port D indexed by port A */
static int file(const char *p, struct dev_config *c)
{
	unsigned long a, d;

	if (c->nfiles == MAX_FILES || !number(&p, ":", &a) || *p++ != ':' ||
	    !number(&p, " \t", &d) || a > 0xffff || d > 0xffff || a == d)
		return -1;
	c->file[c->nfiles][0] = a;
	c->file[c->nfiles][1] = d;
	c->nfiles++;
	return 0;
}

/* default[@irq|@task]=POLICY, from what follows "default" */
static int defaults(const char *p, struct dev_config *c)
{
	unsigned int ctx = CTX_TASK | CTX_IRQ, i;

	if (!strncmp(p, "@irq", 4)) {
		ctx = CTX_IRQ;
		p += 4;
	} else if (!strncmp(p, "@task", 5)) {
		ctx = CTX_TASK;
		p += 5;
	}
	if (*p++ != '=')
		return -1;
	for (i = 0; i < 2; i++) {
		if (!(ctx & (1u << i)))
			continue;
		int j;

		free(c->dflt[i].vals);
		if (policy(p, &c->dflt[i]))
			return -1;
		/* "default" in a list names this policy: not in itself */
		for (j = 0; j < c->dflt[i].nvals; j++)
			if (c->dflt[i].vals[j].kind == DEFAULT)
				return -1;
	}
	return 0;
}

static void config_free(struct dev_config *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nrules; i++)
		free(c->rules[i].pol.vals);
	free(c->dflt[0].vals);
	free(c->dflt[1].vals);
	free(c->input);
	free(c);
}

static int parse(const char *line, struct dev_config *c, char *err, size_t len)
{
	const char *p = line ? line : "";

	c->seed = 1;
	if (policy("readback", &c->dflt[0]) || policy("readback", &c->dflt[1]))
		return fail(err, len, "", "out of memory");
	for (;;) {
		const char *word;

		p += strspn(p, " \t");
		if (!*p)
			return 0;
		word = p;
		p += strcspn(p, " \t");
		if (!strncmp(word, "seed=", 5)) {
			const char *q = word + 5;

			if (!number(&q, " \t", &c->seed))
				return fail(err, len, word,
					    "expected a number");
		} else if (!strncmp(word, "default", 7)) {
			if (defaults(word + 7, c))
				return fail(err, len, word,
					    "expected readback, seeded, ones, "
					    "zero, a value or a list of them "
					    "P,P,...[*]");
		} else if (!strncmp(word, "index=", 6)) {
			if (file(word + 6, c))
				return fail(err, len, word,
					    "expected index=A:D, index port A "
					    "and data port D, up to 8");
		} else if (!strncmp(word, "input=", 6)) {
			size_t n = strcspn(word + 6, " \t");

			free(c->input);
			c->input = strndup(word + 6, n);
			if (!c->input)
				return fail(err, len, word, "out of memory");
			if (!n ||
			    (strcmp(c->input, "-") && access(c->input, R_OK)))
				return fail(err, len, word,
					    "expected input=FILE, a file to "
					    "read, or - (stdin)");
		} else if (!strncmp(word, "pci=", 4)) {
			/* the bus's (world/pci.c) */
		} else if (!strncmp(word, "probe=", 6)) {
			if (lines(word + 6, c))
				return fail(err, len, word,
					    "expected interrupt lines L,L,... "
					    "(world/irq.h's NR_SIM_IRQS)");
		} else if (rule(word, c)) {
			return fail(
				err, len, word,
				"expected seed=N, default[@irq|@task]=POLICY, "
				"probe=L,..., input=FILE or [mem:]A[-B]"
				"[@irq|@task|@process|@kernel]=POLICY "
				"(world/device.h)");
		}
	}
}

/* --- the device ---------------------------------------------------------- */

static u64 mix(u64 z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static u32 seeded(int space, unsigned long addr, int ctx, u32 n)
{
	u64 z = mix(cfg->seed + 0x9E3779B97F4A7C15ULL);

	z = mix(z ^ ((u64) space << 62) ^ ((u64) ctx << 60) ^ addr);
	return mix(z ^ ((u64) n << 20)) >> 17;
}

static u32 ones(int size)
{
	return size >= 4 ? 0xffffffffu : (1u << (8 * size)) - 1;
}

static struct dev_slot *slot(int space, unsigned long addr)
{
	u64 key = ((u64) space << 48 | addr) + 1;
	u64 h = mix(key) & (SLOTS - 1);
	int i;

	if (!slots) {
		slots = calloc(SLOTS, sizeof(*slots));
		if (!slots)
			return NULL;
	}
	for (i = 0; i < SLOTS; i++, h = (h + 1) & (SLOTS - 1)) {
		if (slots[h].key == key)
			return &slots[h];
		if (!slots[h].key) {
			slots[h].key = key;
			return &slots[h];
		}
	}
	full++;
	return NULL;
}

static const struct dev_policy *policy_of(int space, unsigned long addr,
					  int ctx, int reader)
{
	int i;

	for (i = cfg->nrules - 1; i >= 0; i--) {
		const struct dev_rule *r = &cfg->rules[i];

		if (r->space == space && r->lo <= addr && addr <= r->hi &&
		    (r->readers & (1u << reader)))
			return &r->pol;
	}
	return &cfg->dflt[ctx - 1];
}

/*
 * Whether the n-th read in @ctx gives what every later one will: a
 * policy's last entry, not a seeded value (each read its own), not a
 * list gone round.  A list ending in "default" stands for the default
 * (an input's answers made a line: answers_line()), its values said in
 * the default's place: as steady as the default is at each read, so
 * that the device interrupts as often under the line as under the input.
 */
static int steady(const struct dev_policy *pol, u32 n, int ctx)
{
	const struct dev_entry *e = &pol->vals[pol->nvals - 1];

	if (e->kind == DEFAULT)
		return steady(&cfg->dflt[ctx - 1], n, ctx);
	if (pol->cycle ? pol->nvals > 1 : n + 1 < (u32) pol->nvals)
		return 0;
	return e->kind != SEEDED;
}

/* which of its entries the n-th read gives: in turn, then over or the last */
static int value_index(const struct dev_policy *pol, u32 n)
{
	if (n < (u32) pol->nvals)
		return n;
	return pol->cycle ? n % pol->nvals : pol->nvals - 1;
}

/* the entry the n-th read in @ctx gives: "default", the default's */
static const struct dev_entry *entry_of(const struct dev_policy *pol, u32 n,
					int ctx)
{
	const struct dev_entry *e = &pol->vals[value_index(pol, n)];

	if (e->kind == DEFAULT) {
		pol = &cfg->dflt[ctx - 1];
		e = &pol->vals[value_index(pol, n)];
	}
	return e;
}

/*
 * Keep @r among the last reads, the latest first.  A register read over
 * and over (a busy wait) takes one place, its first read another: its
 * latest read replaces its previous one once it has been read twice, so
 * that a poll does not push out of sight the reads a driver compares
 * after it (an acknowledge register read before a reset that polls).
 */
static void remember(struct dev_read r)
{
	unsigned int i, at;

	for (i = 0; i < nring; i++)
		if (ring[i].space == r.space && ring[i].addr == r.addr &&
		    ring[i].ctx == r.ctx)
			break;
	if (i < nring && ring[i].n >= 1) {
		at = i; /* over its register's previous read */
	} else {
		if (nring < RING)
			nring++;
		at = nring - 1; /* a new place, or over the oldest */
	}
	memmove(&ring[1], &ring[0], at * sizeof(ring[0]));
	ring[0] = r;
}

/*
 * Who reads: a handler (hard irq), the kernel's deferred work (a timer,
 * a bottom half, a kernel thread), or a process.  The same code is the
 * same reader on both sides of a conversion: a routine moved from a
 * bottom half to a worker is the kernel's work on both.
 */
static int reader_of(int ctx)
{
	if (ctx == CTX_IRQ)
		return READER_IRQ;
	if (in_interrupt() || (current->flags & PF_KTHREAD))
		return READER_KERNEL;
	return READER_PROCESS;
}

/* reads of @s in context @ctx, whoever read */
static u32 reads_in(const struct dev_slot *s, int ctx)
{
	return ctx == CTX_IRQ ?
		       s->reads[READER_IRQ] :
		       s->reads[READER_PROCESS] + s->reads[READER_KERNEL];
}

/* answer()'s word to device_read(): this read was steady, past LATE */
static __thread struct {
	struct dev_slot *slot;
	int ctx;
} steady_read;

/* The whole input, once a configuration: a file, or stdin ("-"). */
static void input_load(void)
{
	FILE *f = strcmp(cfg->input, "-") ? fopen(cfg->input, "rb") : stdin;
	size_t n;

	input.loaded = 1;
	input.len = input.at = 0;
	if (!input.buf)
		input.buf = malloc(INPUT_MAX);
	if (!f || !input.buf) {
		fprintf(stderr, "SHIM_DEVICE: input=%s: cannot read it\n",
			cfg->input);
		input.ended = 1;
		return;
	}
	while (input.len < INPUT_MAX &&
	       (n = fread(input.buf + input.len, 1, INPUT_MAX - input.len, f)) >
		       0)
		input.len += n;
	if (f != stdin)
		fclose(f);
}

/*
 * The input's answer to the n-th read of @s by @reader, @size bytes
 * wide, in *@val: 1, or 0 once it has run out (for good: an address's
 * answers from it are the first of its reads, which a line of rules
 * can say).
 */
static int input_answer(struct dev_slot *s, int space, unsigned long addr,
			int reader, u32 n, int size, u32 *val)
{
	struct dev_said *said;
	int i;

	if (!input.loaded)
		input_load();
	if (input.ended || input.len - input.at < (size_t) size) {
		input.ended = 1;
		return 0;
	}
	*val = 0;
	for (i = size - 1; i >= 0; i--)
		*val = *val << 8 | input.buf[input.at + i];
	input.at += size;
	if (!s->said[reader] && input.nsaid < MAX_SAID) {
		s->said[reader] = ++input.nsaid;
		input.said[input.nsaid - 1] = (struct dev_said){
			.space = space, .reader = reader, .addr = addr
		};
	}
	said = s->said[reader] ? &input.said[s->said[reader] - 1] : NULL;
	if (said && said->n == n)
		said->vals[said->n++] = *val & ones(size);
	else
		input.unsaid++;
	return 1;
}

/* a read that could take the input's answer, as answered: the stream */
static void input_stream(u32 val, int size)
{
	int i;

	for (i = 0; i < size && input.nstream < STREAM_MAX; i++)
		input.stream[input.nstream++] = val >> (8 * i);
}

static u32 answer(int space, unsigned long addr, int size)
{
	int ctx = in_irq() ? CTX_IRQ : CTX_TASK, reader = reader_of(ctx);
	struct dev_slot *s = slot(space, addr);
	const struct dev_policy *pol = policy_of(space, addr, ctx, reader);
	u32 n = s ? s->reads[reader]++ : 0, val = 0;
	const struct dev_entry *e = entry_of(pol, n, ctx);
	struct dev_entry given = { .kind = VALUE };
	/* no rule names it: the input's, if it has one for it */
	int steered = cfg->input && s && n < INPUT_READS &&
		      pol == &cfg->dflt[ctx - 1];
	int i;

	if (steered &&
	    input_answer(s, space, addr, reader, n, size, &given.val))
		e = &given;

	switch (e->kind) {
	case READBACK:
		for (i = size - 1; i >= 0; i--) {
			struct dev_slot *b = i ? slot(space, addr + i) : s;

			val = val << 8 | (b && b->written ? b->val : 0xff);
		}
		break;
	case SEEDED:
		val = seeded(space, addr, ctx, n);
		break;
	case ONES:
		val = 0xffffffffu;
		break;
	case ZERO:
		val = 0;
		break;
	case VALUE:
		val = e->val;
		break;
	case DEFAULT:
		break; /* entry_of() gave the default's */
	}
	val &= ones(size);
	if (steered)
		input_stream(val, size);
	if (ctx == CTX_IRQ) {
		news.irq_ran = 1;
		if (!steady(pol, n, ctx))
			news.unsteady = 1;
	}
	/* what device_read() may answer the next reads of it with */
	if (s && n >= LATE && steady(pol, n, ctx)) {
		steady_read.slot = s;
		steady_read.ctx = ctx;
	}
	if (size > widest)
		__atomic_store_n(&widest, size, __ATOMIC_RELAXED);
	remember((struct dev_read){
		.space = space,
		.ctx = ctx,
		.size = size,
		.written = e->kind == READBACK,
		.addr = addr,
		.n = n,
		.val = val,
	});
	return val;
}

/* Where an access to @addr lands: a data port's, the register indexed. */
static unsigned long reg_of(int space, unsigned long addr)
{
	int i;

	for (i = 0; space == SPACE_IO && i < cfg->nfiles; i++) {
		if (cfg->file[i][1] == addr) {
			struct dev_slot *a = slot(SPACE_IO, cfg->file[i][0]);

			return FILE_REG(addr, a && a->written ? a->val : 0xff);
		}
	}
	return addr;
}

/*
 * A port access that follows at once this thread's byte written to
 * another port, in the same context: a pair noted.  Under the lock.
 */
static void follow(unsigned long port, int write, int size, u32 val)
{
	int ctx = in_irq() ? CTX_IRQ : CTX_TASK, i;
	struct dev_access *last = &last_access[ctx - 1];

	if (last->generation == generation && last->written &&
	    last->port != port) {
		for (i = 0; i < npairs; i++)
			if (pairs[i].index == last->port &&
			    pairs[i].data == port)
				break;
		if (i == npairs && npairs < MAX_PAIRS) {
			memset(&pairs[i], 0, sizeof(pairs[i]));
			pairs[i].index = last->port;
			pairs[i].data = port;
			npairs++;
		}
		if (i < npairs) {
			u32 bit = 1u << (last->val & 31);

			pairs[i].times++;
			pairs[i].values[last->val >> 5] |= bit;
			if (!write) {
				pairs[i].reads++;
				pairs[i].read_values[last->val >> 5] |= bit;
			}
		}
	}
	last->generation = generation;
	last->written = write && size == 1;
	last->port = port;
	last->val = val;
}

/*
 * A register polled: the same reader reading the same address again, past
 * its first LATE reads, where its policy gives what it gave last (steady)
 * and nothing was written to the device since.  Its answer is the last
 * one and its count goes on: a busy wait of a hundred thousand reads (a
 * driver waiting for a chip that never answers) costs a look each, not
 * the whole path (the lock, the pairs, the rules, the ring), and answers
 * as that path would.
 */
static unsigned int writes_seen; /* writes to the device so far */

static __thread struct dev_poll {
	unsigned int generation, writes;
	int space, ctx, reader, size;
	unsigned long port; /* as accessed, before reg_of() */
	struct dev_slot *slot;
	u32 val;
} poll;

static int polled(int space, unsigned long port, int size, u32 *val)
{
	int ctx = in_irq() ? CTX_IRQ : CTX_TASK;

	if (!poll.slot || poll.port != port || poll.space != space ||
	    poll.size != size || poll.ctx != ctx ||
	    poll.generation != generation ||
	    poll.writes != __atomic_load_n(&writes_seen, __ATOMIC_ACQUIRE) ||
	    poll.reader != reader_of(ctx))
		return 0;
	__atomic_fetch_add(&poll.slot->reads[poll.reader], 1, __ATOMIC_RELAXED);
	if (ctx == CTX_IRQ)
		news.irq_ran = 1;
	*val = poll.val;
	return 1;
}

static u32 device_read(int space, unsigned long addr, int size)
{
	unsigned long port = addr;
	u32 val;

	if (polled(space, port, size, &val))
		return val;
	shim_mutex_lock_unseen(&lock);
	if (space == SPACE_IO)
		follow(addr, 0, size, 0);
	addr = reg_of(space, addr);
	val = answer(space, addr, size);
	poll.slot = NULL;
	if (steady_read.slot) {
		poll = (struct dev_poll){
			.generation = generation,
			.writes = writes_seen,
			.space = space,
			.ctx = steady_read.ctx,
			.reader = reader_of(steady_read.ctx),
			.size = size,
			.port = port,
			.slot = steady_read.slot,
			.val = val,
		};
		steady_read.slot = NULL;
	}
	shim_mutex_unlock_unseen(&lock);
	return val;
}

static void device_write(int space, unsigned long addr, u32 val, int size)
{
	unsigned long probing = sim_irq_probing();
	unsigned int raise[MAX_PROBE];
	int i, nraise = 0;

	shim_mutex_lock_unseen(&lock);
	if (space == SPACE_IO)
		follow(addr, 1, size, val);
	addr = reg_of(space, addr);
	__atomic_fetch_add(&writes_seen, 1, __ATOMIC_RELEASE);
	if (in_irq()) {
		news.irq_ran = 1;
		news.writes = mix(news.writes ^ mix((u64) space << 60 ^
						    (u64) addr << 32 ^ val));
	} else {
		news.told = 1;
	}
	for (i = 0; i < size; i++) {
		struct dev_slot *s = slot(space, addr + i);

		if (!s)
			continue;
		if (s->written && s->val != (u8) (val >> (8 * i)) && !i)
			s->changes++;
		s->val = val >> (8 * i);
		s->written = 1;
		if (!i)
			s->writes++;
	}
	/* asked to do something while probed: it interrupts, once a probe */
	if (probing && probing != probe_raised && cfg->nprobe) {
		probe_raised = probing;
		nraise = cfg->nprobe;
		memcpy(raise, cfg->probe, sizeof(raise));
	}
	shim_mutex_unlock_unseen(&lock);
	/* unlocked: a line with a handler runs it, which reads the device */
	for (i = 0; i < nraise; i++)
		sim_raise_irq(raise[i]);
}

static unsigned int io_in(unsigned long port, int size)
{
	return device_read(SPACE_IO, port, size);
}

static void io_out(unsigned long port, unsigned int val, int size)
{
	device_write(SPACE_IO, port, val, size);
}

static unsigned int mem_read(unsigned long phys, int size)
{
	return device_read(SPACE_MEM, phys, size);
}

static void mem_write(unsigned long phys, unsigned int val, int size)
{
	device_write(SPACE_MEM, phys, val, size);
}

static const struct shim_io_ops device_ops = {
	.in = io_in,
	.out = io_out,
	.read = mem_read,
	.write = mem_write,
};

int sim_device_configure(const char *line, char *err, size_t len)
{
	struct dev_config *c = calloc(1, sizeof(*c)), *old;

	if (!c) {
		if (err && len)
			snprintf(err, len, "SHIM_DEVICE: out of memory");
		return -ENOMEM;
	}
	if (parse(line, c, err, len) || sim_pci_configure(line, err, len)) {
		config_free(c);
		return -EINVAL;
	}
	shim_mutex_lock_unseen(&lock);
	old = cfg;
	cfg = c;
	if (slots)
		memset(slots, 0, SLOTS * sizeof(*slots));
	full = 0;
	memset(ring, 0, sizeof(ring));
	nring = 0;
	ncompares = nconsts = widest = 0;
	last_const = ~0ULL;
	memset(compare_seen, 0, sizeof(compare_seen));
	memset(const_seen, 0, sizeof(const_seen));
	probe_raised = 0;
	npairs = 0;
	input.loaded = input.ended = 0;
	input.nsaid = input.nstream = input.unsaid = 0;
	memset(&news, 0, sizeof(news));
	generation++;
	shim_mutex_unlock_unseen(&lock);
	config_free(old);
	shim_io_register(&device_ops);
	return 0;
}

/*
 * Has the device something to say since the last question?  The first
 * question, yes; then: a handler read a register whose policy had more
 * to give, or the handlers wrote other than they wrote before (a byte
 * to transmit, a changed mask), or the driver told the device something
 * from outside a handler (a command, a byte to send).  A device that
 * answers as it did and is told nothing new would interrupt for nothing:
 * the exerciser then lets time alone move.  Deterministic: the answer is
 * the device's state, as every answer of it.
 */
int sim_device_news(void)
{
	int said;

	shim_mutex_lock_unseen(&lock);
	said = !news.questions++ || news.unsteady || news.told ||
	       (news.irq_ran && news.writes != news.last_writes);
	if (news.irq_ran)
		news.last_writes = news.writes;
	news.writes = 0;
	news.irq_ran = news.unsteady = news.told = 0;
	shim_mutex_unlock_unseen(&lock);
	return said;
}

/* --- what the driver compared its reads against -------------------------- */

/*
 * Whether @key was seen before, in @table of @size (a power of two)
 * slots; noted if not.  A driver polling a register compares at every
 * read: this is on its path, so a hash and not a scan.  Full, it says
 * "seen": what comes after is not noted.
 */
static int seen(u64 *table, unsigned int size, u64 key)
{
	u64 k = key ? key : 1, h = mix(k);
	unsigned int i;

	for (i = 0; i < size; i++, h++) {
		u64 *slot = &table[h & (size - 1)];

		if (*slot == k)
			return 1;
		if (!*slot) {
			*slot = k;
			return 0;
		}
	}
	return 1;
}

static void note_const(u64 k)
{
	__atomic_store_n(&last_const, k, __ATOMIC_RELAXED);
	if (nconsts < MAX_CONSTS && !seen(const_seen, 2 * MAX_CONSTS, k + 1))
		consts[nconsts++] = k;
}

/*
 * The n-th read compared with @konst.  Past the first LATE reads of an
 * address n is LATE: a register polled a hundred thousand times teaches
 * what it should say, not a hundred thousand times the same.
 */
static void note_compare(const struct dev_read *r, u32 konst)
{
	u32 n = r->n < LATE ? r->n : LATE;
	u64 key =
		mix(mix(((u64) r->space << 62 | (u64) r->ctx << 60 | r->addr) ^
			((u64) n << 32 | konst)));

	if (ncompares == MAX_COMPARES ||
	    seen(compare_seen, 2 * MAX_COMPARES, key))
		return;
	compares[ncompares++] = (struct dev_compare){
		.space = r->space,
		.ctx = r->ctx,
		.addr = r->addr,
		.n = n,
		.val = r->val,
		.konst = konst,
	};
}

/*
 * Does @x hold read @r's value, as a comparison @size bytes wide sees
 * it: the value itself, zero- or sign-extended (1: older reads holding
 * the same value by chance are not looked at)?  And what would @y need
 * the read to give?  If @field (compared with a constant), @x may hold a
 * field of it too: some of its bits ((v & M) == K, K within M, is met by K), or its
 * high bits ((v >> n) == K, n below 8, by K << n).  The value suggested is the
 * constant, not mixed with what the read gave, so that each is learnt
 * once however the read's value varies.  A read of all ones or zero
 * proves nothing: too many comparisons see those.
 */
static int match(const struct dev_read *r, u64 x, u64 y, int size, int field)
{
	u64 wide = size >= 8 ? ~0ULL : (1ULL << (8 * size)) - 1;
	u64 mask = ones(r->size), high = wide & ~mask;
	/* past LATE reads a register is polled: learnt at LATE already */
	int telling = r->n <= LATE && r->val != 0 && r->val != mask;
	int n;

	if (!r->size || size < r->size)
		return 0;
	x &= wide;
	y &= wide;
	if ((x & high) && (x & high) != high)
		return 0; /* wider than the read */
	if ((y & high) && (y & high) != high)
		telling = 0; /* no value of the read could give it */
	x &= mask;
	y &= mask;
	if (x == r->val) {
		/* y == the value: the read already gives what is wanted */
		if (telling)
			note_compare(r, y);
		return 1;
	}
	if (!telling || !field || !x || x == y)
		return 0;
	if (!(x & ~r->val)) {
		note_compare(r, y);
		return 0;
	}
	for (n = 1; n < 8 && x <= r->val >> n; n++) {
		if (x == r->val >> n) {
			note_compare(r, (y << n) & mask);
			break;
		}
	}
	return 0;
}

/*
 * Could @v, seen by a comparison @size bytes wide, hold a read, none of
 * which was wider than @widest bytes?  What is wider (a jiffies count a
 * busy wait compares, a pointer) is no read: most comparisons a driver
 * makes, told apart here without the lock.
 */
static int could_be_read(u64 v, int size, int widest)
{
	u64 wide = size >= 8 ? ~0ULL : (1ULL << (8 * size)) - 1;
	u64 high = wide & ~(u64) ones(widest);

	return !(v & high) || (v & high) == high;
}

void sim_device_compare(u64 a, u64 b, int size, int konst)
{
	int w = __atomic_load_n(&widest, __ATOMIC_RELAXED);
	int held_a = konst, held_b = 0; /* found in its latest read */
	unsigned int i;

	if (!w || (!could_be_read(b, size, w) &&
		   (konst || !could_be_read(a, size, w)))) {
		if (konst &&
		    a != __atomic_load_n(&last_const, __ATOMIC_RELAXED)) {
			shim_mutex_lock_unseen(&lock);
			note_const(a);
			shim_mutex_unlock_unseen(&lock);
		}
		return;
	}
	shim_mutex_lock_unseen(&lock);
	if (konst)
		note_const(a);
	for (i = 0; i < nring && !(held_a && held_b); i++) {
		const struct dev_read *r = &ring[i];

		/*
		 * A constant is no read: only the other side may be one, in
		 * its latest read holding the value.  A field is looked for
		 * in the last read only, which is where a driver tests a bit
		 * of a register (an older read matches by chance the small
		 * numbers a driver compares most), and not in what the
		 * driver wrote itself, which it compares as a whole if at
		 * all.
		 */
		if (!held_a)
			held_a = match(r, a, b, size, 0);
		if (!held_b)
			held_b = match(r, b, a, size,
				       konst && !i && !r->written);
	}
	shim_mutex_unlock_unseen(&lock);
}

/* --- the report ---------------------------------------------------------- */

static const char *const space_name[] = { "io", "mem" };
static const char *const ctx_name[] = { "", "task", "irq" };
static const char *const reader_name[] = { "process", "irq", "kernel" };

/*
 * input=: "input": {"bytes": the input's, "used": those answered with,
 * "ended": whether a read found it run out, "unlisted": answers the
 * table of addresses had no room for}; "answers": [space, address,
 * reader, [values]], an address's answers from the input per reader, in
 * order (the first of its reads: as many as there are values); "stream":
 * the reads that could take the input's answer, as answered, in hex: an
 * input that replays the run.
 */
static void report_input(FILE *f)
{
	size_t i;
	int j;
	u32 k;

	fprintf(f,
		"\"input\":{\"bytes\":%zu,\"used\":%zu,\"ended\":%d,"
		"\"unlisted\":%lu},\"answers\":[",
		input.len, input.at, input.ended, input.unsaid);
	for (j = 0; j < input.nsaid; j++) {
		const struct dev_said *a = &input.said[j];

		fprintf(f, "%s[\"%s\",%lu,\"%s\",[", j ? "," : "",
			space_name[a->space], a->addr, reader_name[a->reader]);
		for (k = 0; k < a->n; k++)
			fprintf(f, "%s%u", k ? "," : "", a->vals[k]);
		fprintf(f, "]]");
	}
	fprintf(f, "],\"stream\":\"");
	for (i = 0; i < input.nstream; i++)
		fprintf(f, "%02x", input.stream[i]);
	fprintf(f, "\",");
}

/* [[line, @count(line)], ...] for the lines where it is not zero */
static void per_line(FILE *f, unsigned long (*count)(unsigned int irq))
{
	const char *sep = "";
	unsigned int i;

	fputc('[', f);
	for (i = 0; i < NR_SIM_IRQS; i++) {
		if (count(i)) {
			fprintf(f, "%s[%u,%lu]", sep, i, count(i));
			sep = ",";
		}
	}
	fputc(']', f);
}

/* @dying: from a signal, which may have come while this thread held it */
static int report(const char *path, int dying)
{
	FILE *f = fopen(path, "w");
	const char *sep = "";
	unsigned int lines[NR_SIM_IRQS];
	int found[NR_SIM_PROBES];
	int i, n, locked = !dying;

	if (!f)
		return -errno;
	if (dying)
		locked = shim_mutex_trylock(&lock);
	else
		shim_mutex_lock_unseen(&lock);
	/* "reads": [space, address, context, reads] per address read */
	fprintf(f, "{\"reads\":[");
	for (i = 0; slots && i < SLOTS; i++) {
		const struct dev_slot *s = &slots[i];
		int ctx;

		for (ctx = CTX_TASK; s->key && ctx <= CTX_IRQ; ctx++) {
			if (!reads_in(s, ctx))
				continue;
			fprintf(f, "%s[\"%s\",%lu,\"%s\",%u]", sep,
				space_name[(s->key - 1) >> 48],
				(unsigned long) ((s->key - 1) &
						 0xffffffffffffULL),
				ctx_name[ctx], reads_in(s, ctx));
			sep = ",";
		}
	}
	/* "writes": [space, address, writes, changes of value] per address
	 * written (an index port changes at almost every write) */
	fprintf(f, "],\"writes\":[");
	sep = "";
	for (i = 0; slots && i < SLOTS; i++) {
		const struct dev_slot *s = &slots[i];

		if (!s->key || !s->writes)
			continue;
		fprintf(f, "%s[\"%s\",%lu,%u,%u]", sep,
			space_name[(s->key - 1) >> 48],
			(unsigned long) ((s->key - 1) & 0xffffffffffffULL),
			s->writes, s->changes);
		sep = ",";
	}
	/* "compares": [space, address, context, n, value read, constant]:
	 * the n-th read (LATE: one after the first LATE) gave the value,
	 * compared with the constant (the same: it gave what was wanted) */
	fprintf(f, "],\"compares\":[");
	for (i = 0; i < ncompares; i++) {
		const struct dev_compare *c = &compares[i];

		fprintf(f, "%s[\"%s\",%lu,\"%s\",%u,%u,%u]", i ? "," : "",
			space_name[c->space], c->addr, ctx_name[c->ctx], c->n,
			c->val, c->konst);
	}
	/* "consts": every constant the driver compared anything with */
	fprintf(f, "],\"consts\":[");
	for (i = 0; i < nconsts; i++)
		fprintf(f, "%s%lu", i ? "," : "", (unsigned long) consts[i]);
	/* "pairs": [index port, data port, times, distinct values written
	 * to the index port, reads of the data port, distinct values it was
	 * read after] (see follow()) */
	fprintf(f, "],\"pairs\":[");
	for (i = 0; i < npairs; i++) {
		const struct dev_pair *p = &pairs[i];
		int values = 0, read_values = 0, w;

		for (w = 0; w < 8; w++) {
			values += __builtin_popcount(p->values[w]);
			read_values += __builtin_popcount(p->read_values[w]);
		}
		fprintf(f, "%s[%lu,%lu,%u,%d,%u,%d]", i ? "," : "", p->index,
			p->data, p->times, values, p->reads, read_values);
	}
	fprintf(f, "],\"untracked\":%lu,", full);
	if (cfg->input)
		report_input(f);
	if (sim_blocks_report)
		sim_blocks_report(f);
	sim_pci_report(f);
	sim_user_report(f, dying);
	if (dying && locked)
		shim_mutex_unlock(&lock);
	else if (locked)
		shim_mutex_unlock_unseen(&lock);
	/* "irq": lines requested, lines with a handler now, handlers run,
	 * and what each probe found */
	fprintf(f, "\"irq\":{\"requested\":");
	per_line(f, sim_irq_requests);
	fprintf(f, ",\"handled\":");
	per_line(f, sim_irq_count);
	fprintf(f, ",\"lines\":[");
	n = sim_irq_lines(lines, NR_SIM_IRQS);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? "," : "", lines[i]);
	fprintf(f, "],\"probes\":[");
	n = sim_irq_probe_results(found, NR_SIM_PROBES);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", found[i]);
	fprintf(f, "]}}\n");
	return fclose(f) ? -errno : 0;
}

int sim_device_report(const char *path)
{
	return report(path, 0);
}

static const char *report_path;

static void report_at_exit(void)
{
	if (report_path && sim_device_report(report_path))
		fprintf(stderr, "SHIM_DEVICE_REPORT=%s: cannot write it\n",
			report_path);
}

/* the driver's gcov counters, when it has them (make COVERAGE=1) */
extern void __gcov_dump(void) __attribute__((weak));

/*
 * A driver that waits for ever for a bit the device never sets is what a
 * search meets most: asked to end (SIGTERM), or ended by a BUG (SIGABRT:
 * a controlled run's livelock is one), the run still says what the
 * device saw, and what the driver ran, before it dies.  Not from a
 * signal-safe place, and without the lock: a last word, at worst lost.
 */
static volatile sig_atomic_t term_dying;

static void report_at_term(int sig)
{
	sigset_t set;

	/* a second signal while the first's last word runs: no word, the end */
	if (term_dying) {
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		_exit(128 + sig);
	}
	term_dying = 1;
	if (report_path)
		report(report_path, 1);
	if (__gcov_dump)
		__gcov_dump();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * The same last word when the driver faults (an oops: shim/host.c calls
 * this before the process dies of it), so that a search sees how far a
 * run that then oopsed got: a driver that loads and oopses at its first
 * open is in, which a board it never finds is not.
 */
void shim_fault_last_words(void)
{
	if (report_path)
		report(report_path, 1);
	if (__gcov_dump)
		__gcov_dump();
}

/* after the shim's boot (constructors 101 to 120), before main() */
__attribute__((constructor(125))) static void device_init(void)
{
	char err[256];

	if (sim_device_configure(getenv("SHIM_DEVICE"), err, sizeof(err))) {
		fprintf(stderr, "%s (world/device.h)\n", err);
		exit(2);
	}
	report_path = getenv("SHIM_DEVICE_REPORT");
	if (report_path && *report_path) {
		atexit(report_at_exit);
		signal(SIGTERM, report_at_term);
		signal(SIGABRT, report_at_term);
	} else {
		report_path = NULL;
	}
}
