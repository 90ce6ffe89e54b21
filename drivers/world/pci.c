/*
 * pci.c - the simulated PCI bus (world/pci.h): its functions, their
 * configuration space, and the searches a driver makes of it.
 *
 * A pci=N function appears when the driver first makes its N-th
 * distinct search, with what that search asks for: the search that
 * names a board is the only place its ids are written, and a driver's
 * searches come in the same order on both sides of a comparison, so
 * both see the same bus.  Host code, as device.c: the bus is the
 * machine, its bookkeeping under a host lock that is no scheduling
 * point.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <world/pci.h>

#define MAX_SEARCHES 64
#define IO_BASE 0xe000UL
#define IO_BLOCK 0x100UL
#define MEM_BASE 0xe0000000UL
#define MEM_BLOCK 0x400000UL
#define DEFAULT_CLASS 0x078000 /* communication controller, other */
#define MADE_UP_VENDOR 0x5348  /* for a search by class alone */

/* PCI configuration registers, as 2.4's linux/pci.h numbers them */
#define CFG_VENDOR 0x00
#define CFG_COMMAND 0x04
#define CFG_REVISION 0x08
#define CFG_HEADER 0x0e
#define CFG_BAR0 0x10
#define CFG_BAR5_END 0x28
#define CFG_SUBSYSTEM 0x2c
#define CFG_INT_LINE 0x3c
#define CFG_INT_PIN 0x3d

static const unsigned int lines[] = { 11, 10, 9, 12, 15 };

struct search {
	unsigned int v[6]; /* vendor, device, subvendor, subdevice, class, mask */
};

/* what a pci= word asks for */
struct spec {
	int nth;	     /* the search it answers, from 1; 0: explicit */
	unsigned int ids[4]; /* explicit: vendor, device, subsystem */
	long class;	     /* -1: the one asked for, or the default */
	char bars[SIM_PCI_BARS + 1];
};

struct function {
	unsigned int ids[SIM_PCI_NIDS];
	unsigned long bar[SIM_PCI_BARS][3]; /* start, length, flags */
	unsigned char cfg[256];
	unsigned int used; /* BARs the driver looked at */
	char bars[SIM_PCI_BARS + 1];
	int spec; /* the FN of the line that made it, from 0 */
	void *view;
};

static struct shim_mutex lock = SHIM_MUTEX_INIT;
static struct shim_mutex view_lock = SHIM_MUTEX_INIT; /* views made */
static struct spec specs[SIM_PCI_FUNCTIONS];
static int nspecs;
static struct function fns[SIM_PCI_FUNCTIONS];
static int nfns;
static struct search searches[MAX_SEARCHES];
static int nsearches;
static unsigned long walks;
static int io_next, mem_next; /* blocks handed out */

/* --- the pci= words ------------------------------------------------------ */

static int hex(const char **p, unsigned long max, unsigned int *out)
{
	char *end;
	unsigned long v = strtoul(*p, &end, 16);

	if (end == *p || v > max)
		return -1;
	*p = end;
	*out = v;
	return 0;
}

static int one(const char **p, struct spec *s)
{
	const char *q = *p;
	unsigned int v;
	char *end;
	size_t n;

	memset(s, 0, sizeof(*s));
	s->class = -1;
	strcpy(s->bars, "iiiiii");
	n = strcspn(q, ":,/@ \t");
	if (q[n] == ':') {
		if (hex(&q, 0xffff, &s->ids[0]) || *q++ != ':' ||
		    hex(&q, 0xffff, &s->ids[1]))
			return -1;
		s->ids[2] = s->ids[0];
		s->ids[3] = s->ids[1];
		if (*q == ':' &&
		    (q++, hex(&q, 0xffff, &s->ids[2]) || *q++ != ':' ||
				  hex(&q, 0xffff, &s->ids[3])))
			return -1;
	} else {
		s->nth = strtol(q, &end, 10);
		if (end == q || s->nth < 1 || s->nth > MAX_SEARCHES)
			return -1;
		q = end;
	}
	if (*q == '/') {
		q++;
		if (hex(&q, 0xffffff, &v))
			return -1;
		s->class = v;
	}
	if (*q == '@') {
		n = strspn(++q, "im-");
		if (!n || n > SIM_PCI_BARS)
			return -1;
		memset(s->bars, '-', SIM_PCI_BARS);
		memcpy(s->bars, q, n);
		q += n;
	}
	*p = q;
	return 0;
}

static int parse(const char *line)
{
	const char *p = line ? line : "";

	for (;;) {
		p += strspn(p, " \t");
		if (!*p)
			return 0;
		if (strncmp(p, "pci=", 4)) {
			p += strcspn(p, " \t");
			continue;
		}
		p += 4;
		for (;;) {
			if (nspecs == SIM_PCI_FUNCTIONS ||
			    one(&p, &specs[nspecs]))
				return -1;
			nspecs++;
			if (*p != ',')
				break;
			p++;
		}
		if (*p && *p != ' ' && *p != '\t')
			return -1;
	}
}

/* --- the functions ------------------------------------------------------- */

static void put(unsigned char *cfg, int where, int size, unsigned int v)
{
	int i;

	for (i = 0; i < size; i++)
		cfg[where + i] = v >> (8 * i);
}

static unsigned int get(const unsigned char *cfg, int where, int size)
{
	unsigned int v = 0;
	int i;

	for (i = size - 1; i >= 0; i--)
		v = v << 8 | cfg[where + i];
	return v;
}

/* an I/O block no EISA slot's id is read in (0x?c80) */
static unsigned long io_block(void)
{
	unsigned long at;

	do
		at = IO_BASE + IO_BLOCK * io_next++;
	while ((at & 0xf00) == 0xc00);
	return at;
}

/* a function on the bus with these ids, class and BARs; under the lock */
static void plug(const unsigned int *ids, unsigned int class, const char *bars,
		 int spec)
{
	struct function *f = &fns[nfns];
	int b;

	memset(f, 0, sizeof(*f));
	memcpy(f->ids, ids, 4 * sizeof(*ids));
	f->ids[SIM_PCI_CLASS] = class;
	f->ids[SIM_PCI_DEVFN] = (nfns + 1) << 3;
	f->ids[SIM_PCI_IRQ] = lines[nfns % (sizeof(lines) / sizeof(lines[0]))];
	strcpy(f->bars, bars);
	f->spec = spec;
	put(f->cfg, CFG_VENDOR, 2, ids[0]);
	put(f->cfg, CFG_VENDOR + 2, 2, ids[1]);
	put(f->cfg, CFG_REVISION, 4, class << 8);
	put(f->cfg, CFG_SUBSYSTEM, 2, ids[2]);
	put(f->cfg, CFG_SUBSYSTEM + 2, 2, ids[3]);
	put(f->cfg, CFG_INT_LINE, 1, f->ids[SIM_PCI_IRQ]);
	put(f->cfg, CFG_INT_PIN, 1, 1); /* INTA# */
	for (b = 0; b < SIM_PCI_BARS; b++) {
		unsigned long *bar = f->bar[b];

		if (bars[b] == 'i' && io_next < 0x20) {
			bar[0] = io_block();
			bar[1] = IO_BLOCK;
			bar[2] = SIM_PCI_BAR_IO;
			put(f->cfg, CFG_BAR0 + 4 * b, 4, bar[0] | 1);
		} else if (bars[b] == 'm') {
			bar[0] = MEM_BASE + MEM_BLOCK * mem_next++;
			bar[1] = MEM_BLOCK;
			bar[2] = SIM_PCI_BAR_MEM;
			put(f->cfg, CFG_BAR0 + 4 * b, 4, bar[0]);
		}
	}
	nfns++;
}

/* The search numbered @nth (from 1), just made: its functions appear. */
static void answer(int nth, const struct search *s)
{
	unsigned int ids[4];
	int i, k;

	for (i = 0; i < nspecs && nfns < SIM_PCI_FUNCTIONS; i++) {
		const struct spec *p = &specs[i];
		long class = p->class;

		if (p->nth != nth)
			continue;
		ids[0] = s->v[0] != SIM_PCI_ANY ? s->v[0] : MADE_UP_VENDOR;
		ids[1] = s->v[1] != SIM_PCI_ANY ? s->v[1] : nfns + 1;
		for (k = 2; k < 4; k++)
			ids[k] = s->v[k] != SIM_PCI_ANY ? s->v[k] : ids[k - 2];
		if (class < 0)
			class = s->v[5] ? s->v[4] & s->v[5] : DEFAULT_CLASS;
		plug(ids, class, p->bars, i);
	}
}

/* Note search @s; a new one is numbered, and answered. Under the lock. */
static void note(const struct search *s)
{
	int i;

	if (s->v[0] == SIM_PCI_ANY && s->v[1] == SIM_PCI_ANY &&
	    s->v[2] == SIM_PCI_ANY && s->v[3] == SIM_PCI_ANY && !s->v[5])
		return; /* a walk over whatever is there */
	for (i = 0; i < nsearches; i++)
		if (!memcmp(&searches[i], s, sizeof(*s)))
			return;
	if (nsearches == MAX_SEARCHES)
		return;
	searches[nsearches++] = *s;
	answer(nsearches, s);
}

static int matches(const struct function *f, const struct search *s)
{
	int k;

	for (k = 0; k < 4; k++)
		if (s->v[k] != SIM_PCI_ANY && s->v[k] != f->ids[k])
			return 0;
	return (f->ids[SIM_PCI_CLASS] & s->v[5]) == (s->v[4] & s->v[5]);
}

int sim_pci_find(unsigned int vendor, unsigned int device,
		 unsigned int subvendor, unsigned int subdevice,
		 unsigned int class, unsigned int class_mask, int from)
{
	static const struct search any = { { SIM_PCI_ANY, SIM_PCI_ANY,
					     SIM_PCI_ANY, SIM_PCI_ANY, 0, 0 } };
	struct search s = { { vendor, device, subvendor, subdevice, class,
			      class_mask } };
	int i;

	shim_mutex_lock_unseen(&lock);
	note(&s);
	if (from < 0 && !memcmp(&s, &any, sizeof(s)))
		walks++;
	for (i = from < 0 ? 0 : from + 1; i < nfns; i++)
		if (matches(&fns[i], &s))
			break;
	shim_mutex_unlock_unseen(&lock);
	return i < nfns ? i : -1;
}

int sim_pci_slot(unsigned int bus, unsigned int devfn)
{
	int i, found = -1;

	shim_mutex_lock_unseen(&lock);
	for (i = 0; i < nfns && !bus; i++)
		if (fns[i].ids[SIM_PCI_DEVFN] == devfn)
			found = i;
	shim_mutex_unlock_unseen(&lock);
	return found;
}

int sim_pci_describe(int fn, unsigned int *ids, unsigned long *bars)
{
	int ok;

	shim_mutex_lock_unseen(&lock);
	ok = fn >= 0 && fn < nfns;
	if (ok && ids)
		memcpy(ids, fns[fn].ids, sizeof(fns[fn].ids));
	if (ok && bars)
		memcpy(bars, fns[fn].bar, sizeof(fns[fn].bar));
	shim_mutex_unlock_unseen(&lock);
	return ok ? 0 : -1;
}

/* what a write of @v to register @where (@size bytes) leaves there */
static void config_write(struct function *f, int where, int size,
			 unsigned int v)
{
	int i;

	for (i = 0; i < size; i++) {
		int at = where + i, b = (at - CFG_BAR0) / 4;
		unsigned char byte = v >> (8 * i);

		if (at < CFG_COMMAND || (at >= CFG_REVISION && at < 0x0c) ||
		    at == CFG_HEADER ||
		    (at >= CFG_SUBSYSTEM && at < CFG_SUBSYSTEM + 4) ||
		    at == CFG_INT_PIN)
			continue; /* read-only: ids, class, header, pin */
		if (at >= CFG_BAR0 && at < CFG_BAR5_END) {
			/* a BAR keeps the bits its size lets through, and
			 * its kind: all ones written, its size is read */
			unsigned long len = f->bar[b][1];
			unsigned int keep =
				f->bar[b][2] == SIM_PCI_BAR_IO ? 0x3 : 0xf;
			unsigned int mask =
				len ? ~(unsigned int) (len - 1) & ~keep : 0;
			unsigned int shift = 8 * ((at - CFG_BAR0) % 4);

			byte = (byte & (mask >> shift)) |
			       (f->cfg[at] & (keep >> shift));
		}
		f->cfg[at] = byte;
	}
}

int sim_pci_config(int fn, int write, int where, int size, unsigned int *val)
{
	struct function *f;

	if (where < 0 || where + size > 256 || (where & (size - 1)))
		return -1;
	shim_mutex_lock_unseen(&lock);
	if (fn < 0 || fn >= nfns) {
		shim_mutex_unlock_unseen(&lock);
		return -1;
	}
	f = &fns[fn];
	if (write) {
		config_write(f, where, size, *val);
	} else {
		*val = get(f->cfg, where, size);
		if (where >= CFG_BAR0 && where < CFG_BAR5_END)
			f->used |= 1u << ((where - CFG_BAR0) / 4);
	}
	shim_mutex_unlock_unseen(&lock);
	return 0;
}

void sim_pci_bar_used(int fn, int bar)
{
	shim_mutex_lock_unseen(&lock);
	if (fn >= 0 && fn < nfns && bar >= 0 && bar < SIM_PCI_BARS)
		fns[fn].used |= 1u << bar;
	shim_mutex_unlock_unseen(&lock);
}

void *sim_pci_view(int fn, unsigned long size, void (*fill)(void *view, int fn))
{
	void *view = NULL;

	/* its own lock: @fill asks for the function's description */
	shim_mutex_lock_unseen(&view_lock);
	if (fn >= 0 && fn < nfns) {
		if (!fns[fn].view) {
			view = calloc(1, size);
			if (view)
				fill(view, fn);
			fns[fn].view = view;
		}
		view = fns[fn].view;
	}
	shim_mutex_unlock_unseen(&view_lock);
	return view;
}

/* --- the host's side ----------------------------------------------------- */

int sim_pci_configure(const char *line, char *err, size_t len)
{
	int i, bad;

	shim_mutex_lock_unseen(&lock);
	/* views are the old bus's: a driver still holding one keeps it */
	nspecs = nfns = nsearches = io_next = mem_next = 0;
	walks = 0;
	bad = parse(line);
	if (bad)
		nspecs = 0;
	for (i = 0; i < nspecs && !bad; i++) {
		const struct spec *s = &specs[i];

		if (!s->nth)
			plug(s->ids, s->class < 0 ? DEFAULT_CLASS : s->class,
			     s->bars, i);
	}
	shim_mutex_unlock_unseen(&lock);
	if (bad && err && len)
		snprintf(err, len,
			 "SHIM_DEVICE: pci=: expected pci=FN[,FN...], FN the "
			 "N-th search or VVVV:DDDD[:SSSS:TTTT], then "
			 "[/CLASS][@BARS] (i, m, -), %d functions at most "
			 "(world/pci.h)",
			 SIM_PCI_FUNCTIONS);
	return bad ? -EINVAL : 0;
}

void sim_pci_report(FILE *f)
{
	int i, k;

	shim_mutex_lock_unseen(&lock);
	fprintf(f, "\"pci\":{\"searches\":[");
	for (i = 0; i < nsearches; i++) {
		fprintf(f, "%s[", i ? "," : "");
		for (k = 0; k < 6; k++)
			fprintf(f, "%s%u", k ? "," : "", searches[i].v[k]);
		fputc(']', f);
	}
	fprintf(f, "],\"walks\":%lu,\"functions\":[", walks);
	for (i = 0; i < nfns; i++)
		fprintf(f, "%s[%u,%u,%u,\"%s\",%u,%d]", i ? "," : "",
			fns[i].ids[SIM_PCI_VENDOR], fns[i].ids[SIM_PCI_DEVICE],
			fns[i].ids[SIM_PCI_CLASS], fns[i].bars, fns[i].used,
			fns[i].spec);
	fprintf(f, "]},");
	shim_mutex_unlock_unseen(&lock);
}
