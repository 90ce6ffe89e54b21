/*
 * monitor.c - watch every work of a program through the work tracepoints.
 *
 * Linked into each scenario binary of the demo (either stack), it checks
 * the properties that must hold on both: each accepted queueing runs
 * exactly once, in process context, never concurrently with itself; and it
 * notes where each routine ran (which worker threads, which queues) and
 * how long each waited from queueing to start.  At exit it prints one JSON
 * line, {"monitor": {...}}, with routines named from the program's own
 * symbol table; with DEMO_TRACE=FILE it also writes every execution as a
 * Chrome trace-event slice (one row per worker thread).
 *
 * Host code: it runs inside the tracepoints, maybe in atomic context, so it
 * only takes a host mutex and never sleeps in the kernel's sense.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <linux/sched.h>
#include <linux/preempt.h>
#include <shim/trace.h>

#define WORK_SLOTS	(1 << 19)	/* open addressing, by work address */
#define MAX_ROUTINES	64
#define MAX_PLACES	8
#define MAX_SAMPLES	(1 << 18)
#define MAX_SLICES	(1 << 17)

struct work_slot {
	const void *work;
	long pending;			/* accepted queueings not yet started */
	int running;
	uint64_t queued_ns;
};

struct routine_stat {
	void (*fn)(void *);
	long queued, started, ended;
	long in_atomic;			/* started with a non-zero preempt count */
	long self_concurrent;		/* started while already running */
	char threads[MAX_PLACES][16];
	int nr_threads;
	const char *queues[MAX_PLACES];
	int nr_queues;
	uint32_t *lat_us;		/* queue-to-start latencies */
	long nr_lat;
	char name[64];
};

struct slice {
	int routine;			/* index in routines[] */
	uint64_t start_ns, end_ns;
	int tid;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct work_slot *slots;
static struct routine_stat routines[MAX_ROUTINES];
static int nr_routines;
static long lost_slots;
static struct slice *slices;
static long nr_slices;
static uint64_t t0;
static struct {
	int tid;
	char comm[16];
} tids[256];
static int nr_tids;
static __thread struct slice *open_slice;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static struct work_slot *slot_of(const void *work)
{
	uint64_t h = ((uintptr_t) work >> 3) * 0x9E3779B97F4A7C15ULL;
	unsigned i = h >> (64 - 19), n;

	for (n = 0; n < WORK_SLOTS; n++, i = (i + 1) & (WORK_SLOTS - 1)) {
		if (slots[i].work == work)
			return &slots[i];
		if (!slots[i].work) {
			slots[i].work = work;
			return &slots[i];
		}
	}
	lost_slots++;
	return NULL;
}

static struct routine_stat *routine_of(void (*fn)(void *))
{
	int i;

	for (i = 0; i < nr_routines; i++)
		if (routines[i].fn == fn)
			return &routines[i];
	if (nr_routines == MAX_ROUTINES)
		return NULL;
	routines[nr_routines].fn = fn;
	routines[nr_routines].lat_us = malloc(MAX_SAMPLES * sizeof(uint32_t));
	return &routines[nr_routines++];
}

static void note_thread(struct routine_stat *r, const char *comm, const char *queue)
{
	int i;

	for (i = 0; i < r->nr_threads; i++)
		if (!strcmp(r->threads[i], comm))
			break;
	if (i == r->nr_threads && i < MAX_PLACES)
		snprintf(r->threads[r->nr_threads++], 16, "%s", comm);
	for (i = 0; i < r->nr_queues; i++)
		if (!strcmp(r->queues[i], queue))
			break;
	if (i == r->nr_queues && i < MAX_PLACES)
		r->queues[r->nr_queues++] = queue;
}

static void note_tid(int tid, const char *comm)
{
	int i;

	for (i = 0; i < nr_tids; i++)
		if (tids[i].tid == tid)
			return;
	if (nr_tids < 256) {
		tids[nr_tids].tid = tid;
		snprintf(tids[nr_tids++].comm, 16, "%s", comm);
	}
}

static void probe(enum shim_work_event ev, const void *work,
		  void (*fn)(void *), const char *queue)
{
	uint64_t t = now_ns();
	struct routine_stat *r;
	struct work_slot *s;
	int tid = 0;

	if (ev != SHIM_WORK_QUEUE)
		tid = syscall(SYS_gettid);
	pthread_mutex_lock(&lock);
	s = slot_of(work);
	r = routine_of(fn);
	switch (ev) {
	case SHIM_WORK_QUEUE:
		if (s) {
			s->pending++;
			s->queued_ns = t;
		}
		if (r)
			r->queued++;
		break;
	case SHIM_WORK_EXECUTE_START:
		if (r) {
			r->started++;
			if (preempt_count())
				r->in_atomic++;
			if (s && s->running)
				r->self_concurrent++;
			note_thread(r, current->comm, queue);
			if (s && s->queued_ns && r->lat_us && r->nr_lat < MAX_SAMPLES)
				r->lat_us[r->nr_lat++] = (t - s->queued_ns) / 1000;
		}
		if (s) {
			s->pending--;
			s->running++;
		}
		note_tid(tid, current->comm);
		if (slices && r && nr_slices < MAX_SLICES) {
			open_slice = &slices[nr_slices++];
			open_slice->routine = r - routines;
			open_slice->start_ns = t;
			open_slice->end_ns = 0;
			open_slice->tid = tid;
		}
		break;
	case SHIM_WORK_EXECUTE_END:
		/* the routine may have freed the work: its slot is ours still */
		if (s)
			s->running--;
		if (r)
			r->ended++;
		if (open_slice) {
			open_slice->end_ns = t;
			open_slice = NULL;
		}
		break;
	}
	pthread_mutex_unlock(&lock);
}

/* Map routine addresses to names with the program's own symbol table. */
static const char *name_of(void (*fn)(void *), char *buf, size_t len)
{
	static char *table;
	static long bias;
	static int loaded;
	char line[512], sym[256], type;
	unsigned long addr;

	snprintf(buf, len, "%p", (void *) fn);
	if (!loaded) {
		size_t cap = 0, used = 0;
		FILE *p;

		/* the shell popen() starts would read its own /proc/self */
		snprintf(line, sizeof(line), "nm --defined-only /proc/%d/exe 2>/dev/null",
			 (int) getpid());
		p = popen(line, "r");
		loaded = 1;
		if (!p)
			return buf;
		while (fgets(line, sizeof(line), p)) {
			size_t l = strlen(line);

			if (used + l + 1 > cap) {
				cap = (cap + l + 1) * 2;
				table = realloc(table, cap);
			}
			memcpy(table + used, line, l + 1);
			used += l;
			if (sscanf(line, "%lx %c %255s", &addr, &type, sym) == 3 &&
			    !strcmp(sym, "name_of"))
				bias = (long) (uintptr_t) name_of - (long) addr;
		}
		pclose(p);
	}
	if (table) {
		char *l = table, *next;

		for (; l && *l; l = next) {
			next = strchr(l, '\n');
			if (next)
				next++;
			if (sscanf(l, "%lx %c %255s", &addr, &type, sym) == 3 &&
			    (type == 't' || type == 'T') &&
			    (uintptr_t) fn == addr + bias) {
				snprintf(buf, len, "%s", sym);
				break;
			}
		}
	}
	return buf;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

static void write_trace(const char *path)
{
	FILE *f = fopen(path, "w");
	long i;
	int j;

	if (!f) {
		fprintf(stderr, "monitor: cannot write %s\n", path);
		return;
	}
	fprintf(f, "{\"traceEvents\": [\n");
	fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, "
		"\"args\": {\"name\": \"%s\"}}", getpid(),
		getenv("DEMO_TRACE_LABEL") ? getenv("DEMO_TRACE_LABEL") : "program");
	for (j = 0; j < nr_tids; j++)
		fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, "
			"\"tid\": %d, \"args\": {\"name\": \"%s\"}}", getpid(),
			tids[j].tid, tids[j].comm);
	for (i = 0; i < nr_slices; i++) {
		struct slice *s = &slices[i];

		if (!s->end_ns)
			continue;
		fprintf(f, ",\n{\"name\": \"%s\", \"cat\": \"work\", \"ph\": \"X\", "
			"\"ts\": %.3f, \"dur\": %.3f, \"pid\": %d, \"tid\": %d}",
			routines[s->routine].name,
			(s->start_ns - t0) / 1000.0,
			(s->end_ns - s->start_ns) / 1000.0, getpid(), s->tid);
	}
	fprintf(f, "\n]}\n");
	fclose(f);
}

static void report(void)
{
	long queued = 0, started = 0, ended = 0, atomic_runs = 0, concurrent = 0;
	long never_ran = 0, i;
	int j, k;

	shim_work_trace_unregister();
	pthread_mutex_lock(&lock);
	for (i = 0; i < WORK_SLOTS; i++)
		if (slots[i].work && slots[i].pending > 0)
			never_ran += slots[i].pending;
	printf("{\"monitor\": {\"routines\": {");
	for (j = 0; j < nr_routines; j++) {
		struct routine_stat *r = &routines[j];

		name_of(r->fn, r->name, sizeof(r->name));
		queued += r->queued;
		started += r->started;
		ended += r->ended;
		atomic_runs += r->in_atomic;
		concurrent += r->self_concurrent;
		printf("%s\"%s\": {\"queued\": %ld, \"ran\": %ld, \"in_atomic\": %ld, "
		       "\"self_concurrent\": %ld, \"threads\": [", j ? ", " : "",
		       r->name, r->queued, r->started,
		       r->in_atomic, r->self_concurrent);
		for (k = 0; k < r->nr_threads; k++)
			printf("%s\"%s\"", k ? ", " : "", r->threads[k]);
		printf("], \"queues\": [");
		for (k = 0; k < r->nr_queues; k++)
			printf("%s\"%s\"", k ? ", " : "", r->queues[k]);
		printf("]");
		if (r->nr_lat) {
			qsort(r->lat_us, r->nr_lat, sizeof(uint32_t), cmp_u32);
			printf(", \"latency_us\": {\"n\": %ld, \"p50\": %u, \"p99\": %u, "
			       "\"max\": %u}", r->nr_lat, r->lat_us[r->nr_lat / 2],
			       r->lat_us[(r->nr_lat * 99) / 100],
			       r->lat_us[r->nr_lat - 1]);
		}
		printf("}");
	}
	printf("}, \"queued\": %ld, \"ran\": %ld, \"finished\": %ld, "
	       "\"never_ran\": %ld, \"in_atomic\": %ld, \"self_concurrent\": %ld, "
	       "\"untracked\": %ld}}\n", queued, started, ended, never_ran,
	       atomic_runs, concurrent, lost_slots);
	fflush(stdout);
	if (getenv("DEMO_TRACE"))
		write_trace(getenv("DEMO_TRACE"));
	pthread_mutex_unlock(&lock);
}

/* After the boot (priority 120), before main(). */
__attribute__((constructor(130)))
static void monitor_init(void)
{
	t0 = now_ns();
	slots = calloc(WORK_SLOTS, sizeof(*slots));
	if (getenv("DEMO_TRACE"))
		slices = calloc(MAX_SLICES, sizeof(*slices));
	if (!slots)
		return;
	atexit(report);
	shim_work_trace_register(probe);
}
