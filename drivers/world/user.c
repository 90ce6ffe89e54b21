/*
 * user.c - what a user gives a driver besides its ports (world/user.h):
 * the calls of SHIM_IOCTLS and their argument memory, and what the
 * driver compared a command, an argument or a module parameter's string
 * with, for the device search.
 *
 * The calls are the exerciser's to make (drivers/exercise/tty.c): this
 * says what they are and fills their memory, the same bytes on both
 * sides, and, while one is under way (sim_ioctl_begin()), takes what the
 * driver compares (world/sancov.c, the 2.4 headers' strcmp() and
 * uaccess) as that call's.  Host code on libc, as the device is, its
 * bookkeeping under a host lock that is no scheduling point.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/modparam.h>
#include <shim/test.h>
#include <world/user.h>
#include <world/util.h>

#define MAX_FIELDS 8  /* set in one call's memory */
#define MAX_FOUND 256 /* findings of each kind kept */
#define MAX_TEXT 64   /* a string found, NUL included */
#define TTY_OWN 0x54  /* the tty layer's commands: 0x54xx */

struct field {
	unsigned int off;
	int width; /* 1, 2, 4, 8; 0: a pointer to the data memory */
	u64 val;
};

struct call {
	unsigned int major, minor, cmd;
	int number; /* the argument is @value itself */
	unsigned long value;
	int seeded;
	int nfields;
	struct field fields[MAX_FIELDS];
};

static struct {
	u64 seed;
	int probe;
	int ncalls;
	struct call calls[SIM_IOCTL_MAX];
} line;

/* the argument memory of the call under way, and what a pointer in it reaches */
static unsigned char argmem[SIM_IOCTL_ARG] __attribute__((aligned(16)));
static unsigned char datamem[SIM_IOCTL_DATA] __attribute__((aligned(16)));

/* the call under way: what the driver compares is its */
static struct {
	int active;
	int probe, tty;
	unsigned int major, minor, cmd;
	unsigned long arg;
	int mem; /* @arg is argmem */
} now;

/* what was found, each kind a list of numbers (strings apart) */
enum { CMDS, VALUES, FIELDS, POINTERS, KINDS };

static const char *const kind_name[KINDS] = { "cmds", "values", "fields",
					      "pointers" };
static const int kind_width[KINDS] = { 2, 3, 6, 4 };

static struct shim_mutex lock = SHIM_MUTEX_INIT;
static u64 found[KINDS][MAX_FOUND][6];
static int nfound[KINDS];

static struct {
	const char *param;
	int index;
	char text[MAX_TEXT];
} strings[MAX_FOUND];
static int nstrings;

/* --- the line -------------------------------------------------------------- */

static int fail(char *err, size_t len, const char *word, int wlen,
		const char *why)
{
	if (err && len)
		snprintf(err, len, "SHIM_IOCTLS: %.*s: %s", wlen, word, why);
	return -EINVAL;
}

static int number(const char **p, const char *end, u64 *out)
{
	char *stop;

	if (*p >= end || **p < '0' || **p > '9')
		return -EINVAL;
	*out = strtoull(*p, &stop, 0);
	if (stop > end)
		return -EINVAL;
	*p = stop;
	return 0;
}

/* "FILL[,OFF:W=V...][,OFF:p]", or a number */
static int argument(const char *p, const char *end, struct call *c)
{
	u64 off, v;

	if (*p >= '0' && *p <= '9') {
		c->number = 1;
		if (number(&p, end, &v) || p != end)
			return -EINVAL;
		c->value = v;
		return 0;
	}
	if (end - p >= 6 && !strncmp(p, "seeded", 6)) {
		c->seeded = 1;
		p += 6;
	} else if (end - p >= 4 && !strncmp(p, "zero", 4)) {
		p += 4;
	} else {
		return -EINVAL;
	}
	while (p < end) {
		struct field *f = &c->fields[c->nfields];

		if (*p++ != ',' || c->nfields == MAX_FIELDS ||
		    number(&p, end, &off) || p >= end || *p++ != ':')
			return -EINVAL;
		f->off = off;
		if (p < end && *p == 'p') {
			p++;
			f->width = 0;
			if (off % sizeof(void *) ||
			    off + sizeof(void *) > SIM_IOCTL_ARG)
				return -EINVAL;
		} else {
			if (number(&p, end, &v) || p >= end || *p++ != '=' ||
			    (v != 1 && v != 2 && v != 4 && v != 8) ||
			    off + v > SIM_IOCTL_ARG)
				return -EINVAL;
			f->width = v;
			if (number(&p, end, &f->val))
				return -EINVAL;
		}
		c->nfields++;
	}
	return 0;
}

/* "MAJOR.MINOR:CMD[=ARG]" */
static int call(const char *p, const char *end, struct call *c)
{
	u64 major, minor, cmd;
	const char *eq;

	memset(c, 0, sizeof(*c));
	if (number(&p, end, &major) || p >= end || *p++ != '.' ||
	    number(&p, end, &minor) || p >= end || *p++ != ':' ||
	    number(&p, end, &cmd) || major > 255 || minor > 255 ||
	    cmd > 0xffffffffULL)
		return -EINVAL;
	c->major = major;
	c->minor = minor;
	c->cmd = cmd;
	if (p == end)
		return 0;
	eq = p;
	if (*eq != '=' || eq + 1 == end)
		return -EINVAL;
	return argument(eq + 1, end, c);
}

int sim_ioctls_configure(const char *text, char *err, size_t len)
{
	const char *p = text ? text : "";

	shim_mutex_lock_unseen(&lock);
	memset(&line, 0, sizeof(line));
	line.seed = 1;
	memset(nfound, 0, sizeof(nfound));
	nstrings = 0;
	shim_mutex_unlock_unseen(&lock);
	for (;;) {
		const char *end;
		u64 v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return 0;
		end = p + strcspn(p, " \t");
		if (end - p == 5 && !strncmp(p, "probe", 5)) {
			line.probe = 1;
		} else if (end - p > 5 && !strncmp(p, "seed=", 5)) {
			const char *q = p + 5;

			if (number(&q, end, &v) || q != end)
				return fail(err, len, p, end - p,
					    "expected seed=N");
			line.seed = v;
		} else if (line.ncalls == SIM_IOCTL_MAX) {
			return fail(err, len, p, end - p, "too many calls");
		} else if (call(p, end, &line.calls[line.ncalls])) {
			return fail(err, len, p, end - p,
				    "expected MAJOR.MINOR:CMD[=V|=FILL"
				    "[,OFF:W=V...][,OFF:p]], FILL zero or "
				    "seeded (world/user.h)");
		} else {
			line.ncalls++;
		}
		p = end;
	}
}

int sim_ioctls_probing(void)
{
	return line.probe;
}

int sim_ioctl_get(int i, struct sim_ioctl_call *c)
{
	if (i < 0 || i >= line.ncalls)
		return -ENOENT;
	c->major = line.calls[i].major;
	c->minor = line.calls[i].minor;
	c->cmd = line.calls[i].cmd;
	return 0;
}

/* FILL of call @c: the same bytes for the same command wherever it is */
static void fill(const struct call *c, unsigned char *mem, size_t len,
		 u64 which)
{
	u64 s;

	if (!c->seeded) {
		memset(mem, 0, len);
		return;
	}
	s = world_prng_seed(world_mix64(line.seed) ^
			    world_mix64((u64) c->major << 48 |
					(u64) c->minor << 40 | c->cmd) ^
			    which);
	world_prng_fill(&s, mem, len);
}

unsigned long sim_ioctl_arg(int i)
{
	const struct call *c;
	int f;

	if (i < 0 || i >= line.ncalls) {
		memset(argmem, 0, sizeof(argmem));
		return (unsigned long) argmem;
	}
	c = &line.calls[i];
	if (c->number)
		return c->value;
	fill(c, argmem, sizeof(argmem), 0);
	for (f = 0; f < c->nfields; f++) {
		const struct field *fl = &c->fields[f];
		u64 v = fl->val;

		if (!fl->width) {
			void *data = datamem;

			fill(c, datamem, sizeof(datamem), 1);
			memcpy(argmem + fl->off, &data, sizeof(data));
			continue;
		}
		/* little endian, as the host and a PC are */
		memcpy(argmem + fl->off, &v, fl->width);
	}
	return (unsigned long) argmem;
}

void sim_ioctl_begin(unsigned int major, unsigned int minor, unsigned int cmd,
		     unsigned long arg, int tty)
{
	now.major = major;
	now.minor = minor;
	now.cmd = cmd;
	now.arg = arg;
	now.tty = tty;
	now.probe = cmd == SIM_IOCTL_PROBE;
	now.mem = arg == (unsigned long) argmem;
	__atomic_store_n(&now.active, 1, __ATOMIC_RELEASE);
}

void sim_ioctl_end(void)
{
	__atomic_store_n(&now.active, 0, __ATOMIC_RELEASE);
}

/* --- what the driver compared ------------------------------------------------ */

/* Note finding @v (its kind's width of numbers) once; under the lock. */
static void note(int kind, const u64 *v)
{
	int i, w = kind_width[kind];

	for (i = 0; i < nfound[kind]; i++)
		if (!memcmp(found[kind][i], v, w * sizeof(*v)))
			return;
	if (nfound[kind] < MAX_FOUND)
		memcpy(found[kind][nfound[kind]++], v, w * sizeof(*v));
}

/* Note, of the call under way's file, finding @a, @b... (its kind's width) */
static void note_of(int kind, u64 a, u64 b, u64 c, u64 d, u64 e)
{
	u64 v[6] = { (u64) now.major << 8 | now.minor, a, b, c, d, e };

	note(kind, v);
}

/*
 * A field of the call's memory holding @v, @width bytes at an offset of
 * its size (as a structure lays fields out): noted with the constant @k.
 * Fields of one byte are not looked for: a byte of seeded memory holds
 * any small constant by chance.
 */
static void fields_holding(u64 v, u64 k, int size)
{
	int width;

	for (width = 2; width <= 8 && width <= size; width *= 2) {
		u64 mask = width == 8 ? ~0ULL : (1ULL << (8 * width)) - 1;
		unsigned int off;

		if (v > mask)
			continue;
		for (off = 0; off + width <= SIM_IOCTL_ARG; off += width) {
			u64 held = 0;

			memcpy(&held, argmem + off, width);
			if (held == v)
				note_of(FIELDS, now.cmd, off, width, v, k);
		}
	}
}

void sim_user_compare(u64 a, u64 b, int size, int konst)
{
	u64 mask = size >= 8 ? ~0ULL : (1ULL << (8 * size)) - 1;

	if (!__atomic_load_n(&now.active, __ATOMIC_ACQUIRE))
		return;
	a &= mask;
	b &= mask;
	shim_mutex_lock_unseen(&lock);
	if (now.probe) {
		/* a command is an int: narrower is no comparison of it */
		u64 p = SIM_IOCTL_PROBE & mask, cmd = ~0ULL;

		if (size >= 4 && b == p && a != p)
			cmd = a;
		else if (size >= 4 && a == p && b != p && !konst)
			cmd = b;
		if (cmd <= 0xffffffffULL && !(now.tty && (cmd >> 8) == TTY_OWN))
			note_of(CMDS, cmd, 0, 0, 0, 0);
	} else if (konst) {
		/* the argument itself, as a number */
		if (size >= 4 && b == (now.arg & mask) && b)
			note_of(VALUES, now.cmd, a, 0, 0, 0);
		/* what its memory holds: input-to-state, as for registers */
		if (now.mem && b && b != mask)
			fields_holding(b, a, size);
	}
	shim_mutex_unlock_unseen(&lock);
}

void sim_user_fault(const void *addr, unsigned long n)
{
	unsigned int off;

	if (!__atomic_load_n(&now.active, __ATOMIC_ACQUIRE) || !now.mem)
		return;
	shim_mutex_lock_unseen(&lock);
	for (off = 0; off + sizeof(addr) <= SIM_IOCTL_ARG;
	     off += sizeof(addr)) {
		const void *held;

		memcpy(&held, argmem + off, sizeof(held));
		if (held == addr)
			note_of(POINTERS, now.cmd, off, n, 0, 0);
	}
	shim_mutex_unlock_unseen(&lock);
}

static void note_string(const char *param, int index, const char *text,
			size_t n)
{
	char t[MAX_TEXT];
	size_t i;
	int k;

	for (i = 0; i < n && i < MAX_TEXT - 1 && text[i]; i++) {
		/* what a module parameter can say on a command line */
		if (text[i] <= ' ' || text[i] > '~' || text[i] == '"' ||
		    text[i] == '\\')
			return;
		t[i] = text[i];
	}
	if (!i || (i == MAX_TEXT - 1 && i < n && text[i]))
		return;
	t[i] = 0;
	shim_mutex_lock_unseen(&lock);
	for (k = 0; k < nstrings; k++)
		if (strings[k].param == param && strings[k].index == index &&
		    !strcmp(strings[k].text, t))
			break;
	if (k == nstrings && nstrings < MAX_FOUND) {
		strings[nstrings].param = param;
		strings[nstrings].index = index;
		memcpy(strings[nstrings].text, t, i + 1);
		nstrings++;
	}
	shim_mutex_unlock_unseen(&lock);
}

void sim_user_strcmp(const char *a, const char *b, size_t n)
{
	const char *param;
	int index;

	if (!a || !b)
		return;
	if (!shim_modparam_string_of(a, &param, &index))
		note_string(param, index, b, n);
	else if (!shim_modparam_string_of(b, &param, &index))
		note_string(param, index, a, n);
}

/* --- the report ------------------------------------------------------------- */

void sim_user_report(FILE *f, int dying)
{
	int k, i, j, locked = 1;

	/* from a signal, which may have come while this thread held it */
	if (dying)
		locked = shim_mutex_trylock(&lock);
	else
		shim_mutex_lock_unseen(&lock);
	fprintf(f, "\"ioctls\":{");
	for (k = 0; k < KINDS; k++) {
		fprintf(f, "%s\"%s\":[", k ? "," : "", kind_name[k]);
		for (i = 0; i < nfound[k]; i++) {
			const u64 *v = found[k][i];

			fprintf(f, "%s[\"%u.%u\"", i ? "," : "",
				(unsigned int) (v[0] >> 8),
				(unsigned int) (v[0] & 0xff));
			for (j = 1; j < kind_width[k]; j++)
				fprintf(f, ",%llu", (unsigned long long) v[j]);
			fputc(']', f);
		}
		fputc(']', f);
	}
	fprintf(f, "},\"strings\":[");
	for (i = 0; i < nstrings; i++)
		fprintf(f, "%s[\"%s\",%d,\"%s\"]", i ? "," : "",
			strings[i].param, strings[i].index, strings[i].text);
	fprintf(f, "],");
	if (dying && locked)
		shim_mutex_unlock(&lock);
	else if (locked)
		shim_mutex_unlock_unseen(&lock);
}
