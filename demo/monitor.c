/*
 * monitor.c - a behavioural profile of every work routine, for the demo.
 *
 * Linked into each of the demo's scenario binaries (either stack), it
 * watches the work tracepoints and records, per routine: how often it was
 * asked to be queued (from which context: process, bottom half, hard irq,
 * timer; or from its own run), how often it was queued,
 * how often it ran, in which context, on which queues and threads, how
 * long it waited from queueing to start, and every time it ran
 * concurrently with itself (the same work on two workers at once, with
 * the CPUs and times).  Per pair of routines, and per routine and
 * interrupt, timer or bottom-half handler, whether they ever overlapped.
 * Per flush call site (named by its return address), which routines were
 * queued or running on the flushed queue when it started (what it waited
 * for) and which were queued elsewhere (what it did not); and, whatever
 * the moment's timing, which were queued on it or elsewhere since the
 * site's previous call (what it may have had to wait for).  At exit it
 * prints one JSON line, {"monitor": {...}}, with routines named from the
 * program's own symbol table; with DEMO_TRACE=FILE it also writes every
 * execution as a Chrome trace-event slice (one row per task), and with
 * DEMO_LATENCY=FILE every latency sample ("routine microseconds" a line).
 *
 * Host code: it runs inside tracepoints, maybe in atomic context, so it
 * takes only a host lock and never sleeps in the kernel's sense.  Its per
 * task state is keyed by the task, not held in thread-locals, so that it
 * works when a controlled run's tasks are fibers on one thread.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/preempt.h>
#include <linux/interrupt.h>
#include <shim/trace.h>
#include <shim/test.h>
#include <shim/stats.h>

#define WORK_SLOTS (1 << 19) /* open addressing, by work address */
#define MAX_ROUTINES 128     /* work routines and context handlers */
#define MAX_PLACES 8
#define MAX_SAMPLES (1 << 18)
#define MAX_SLICES (1 << 17)
#define MAX_TASKS 256
#define MAX_RUNNING 64
#define MAX_SITES 64
#define MAX_SELF 8 /* self-concurrency instances kept */
#define NR_CTX 4

enum ctx { CTX_PROCESS, CTX_SOFTIRQ, CTX_HARDIRQ, CTX_TIMER };
static const char *const ctx_name[NR_CTX] = { "process", "bottom half",
					      "hard irq", "timer" };

struct work_slot {
	const void *work;
	long pending; /* accepted queueings not yet started */
	int running;
	int routine; /* what it was last queued with */
	int queue;   /* where it was last queued */
	uint64_t queued_ns;
};

#define MAX_QUEUES 32

struct routine_stat {
	void (*fn)(void *);
	int handler;	  /* a context's handler, not a work routine */
	const char *kind; /* handlers: "hardirq", "timer", "softirq" */
	long queued, started, ended;
	long queued_from[NR_CTX], ran_in[NR_CTX];
	long asked_from[NR_CTX]; /* calls to queue it, pending or not */
	long asked_by_itself;	 /* of those, from its own run */
	long in_atomic;		 /* started with a non-zero preempt count */
	long self_concurrent;	 /* started while the same work ran */
	struct {
		int cpus[2];
		uint64_t at_us;
	} self[MAX_SELF];
	char threads[MAX_PLACES][16];
	int nr_threads;
	long queue_runs[MAX_QUEUES]; /* runs per queue */
	long pending[MAX_QUEUES];    /* queued, not started, per queue */
	long queued_on[MAX_QUEUES];  /* accepted queueings, per queue */
	int last_queue;		     /* where it was last queued */
	long executing[MAX_QUEUES];  /* running now, per queue */
	uint64_t *lat_us;	     /* queue-to-start latencies */
	long nr_lat;
	char name[96];
};

/* a work routine or handler executing now, on some task */
struct running {
	const void *work;
	int routine;
	const void *task;
	int cpu;
};

struct slice {
	int routine;
	uint64_t start_ns, end_ns;
	int tid;
};

/* per task: how deep it is in timer and bottom-half handlers */
struct task_state {
	const void *task;
	int timer, softirq;
	struct slice *open_slice;
};

struct site {
	unsigned long ip;
	int queue; /* the queue it flushes */
	long calls;
	long covers[MAX_ROUTINES];  /* flushes that found it on that queue */
	long outside[MAX_ROUTINES]; /* flushes that found it elsewhere only */
	int outside_queue[MAX_ROUTINES];
	/* queued since the site's previous call: on its queue, elsewhere */
	long may_cover[MAX_ROUTINES], may_outside[MAX_ROUTINES];
	int may_outside_queue[MAX_ROUTINES];
	long mark_on[MAX_ROUTINES], mark_all[MAX_ROUTINES];
};

static struct shim_mutex lock = SHIM_MUTEX_INIT;
static struct work_slot *slots;
static struct routine_stat routines[MAX_ROUTINES];
static int nr_routines;
static long lost_slots, lost_routines;
static unsigned char overlap[MAX_ROUTINES][MAX_ROUTINES];
static struct running running[MAX_RUNNING];
static int nr_running;
static struct task_state tasks[MAX_TASKS];
static int nr_tasks;
static struct site sites[MAX_SITES];
static int nr_sites;
static char queue_names[MAX_QUEUES][16];
static int nr_queues;
static struct slice *slices;
static long nr_slices;
/*
 * The sum of the slots' pending counts above zero, kept as they change:
 * the report reads it rather than every slot, which would touch all of
 * the table's pages (a cost per run when the demo explores many).
 */
static long never_ran;
static uint64_t t0;
static struct {
	int tid;
	char comm[16];
} tids[256];
static int nr_tids;

static struct work_slot *slot_of(const void *work)
{
	uint64_t h = ((uintptr_t) work >> 3) * 0x9E3779B97F4A7C15ULL;
	unsigned int i = h >> (64 - 19), n;

	for (n = 0; n < WORK_SLOTS; n++, i = (i + 1) & (WORK_SLOTS - 1)) {
		if (slots[i].work == work)
			return &slots[i];
		if (!slots[i].work) {
			slots[i].work = work;
			slots[i].routine = -1;
			slots[i].queue = -1;
			return &slots[i];
		}
	}
	lost_slots++;
	return NULL;
}

static int routine_of(void (*fn)(void *), const char *kind)
{
	int i;

	for (i = 0; i < nr_routines; i++)
		if (routines[i].fn == fn &&
		    routines[i].handler == (kind != NULL))
			return i;
	if (nr_routines == MAX_ROUTINES) {
		lost_routines++;
		return -1;
	}
	routines[nr_routines].fn = fn;
	routines[nr_routines].handler = kind != NULL;
	routines[nr_routines].kind = kind;
	if (!kind)
		routines[nr_routines].lat_us =
			malloc(MAX_SAMPLES * sizeof(uint64_t));
	return nr_routines++;
}

/* A queue by its name, less the CPU: "events/1" is "events". */
static int queue_of(const char *name)
{
	size_t n = strcspn(name, "/");
	int i;

	for (i = 0; i < nr_queues; i++)
		if (strlen(queue_names[i]) == n &&
		    !strncmp(queue_names[i], name, n))
			return i;
	if (nr_queues == MAX_QUEUES)
		return MAX_QUEUES - 1;
	snprintf(queue_names[nr_queues], sizeof(queue_names[0]), "%.*s",
		 (int) n, name);
	return nr_queues++;
}

static struct task_state *task_of(const void *task)
{
	int i;

	for (i = 0; i < nr_tasks; i++)
		if (tasks[i].task == task)
			return &tasks[i];
	if (nr_tasks == MAX_TASKS)
		return NULL;
	memset(&tasks[nr_tasks], 0, sizeof(tasks[0]));
	tasks[nr_tasks].task = task;
	return &tasks[nr_tasks++];
}

/* The context the caller runs in, as the kernel would say it. */
static enum ctx context_now(struct task_state *ts)
{
	if (in_irq())
		return CTX_HARDIRQ;
	if (in_softirq())
		return ts && ts->timer > ts->softirq ? CTX_TIMER : CTX_SOFTIRQ;
	return CTX_PROCESS;
}

static void note_thread(struct routine_stat *r, const char *comm)
{
	int i;

	for (i = 0; i < r->nr_threads; i++)
		if (!strcmp(r->threads[i], comm))
			return;
	if (r->nr_threads < MAX_PLACES)
		snprintf(r->threads[r->nr_threads++], 16, "%s", comm);
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

/* With the lock held: @r starts on @task; what does it overlap? */
static void start_running(const void *work, int r, const void *task, int cpu,
			  uint64_t t)
{
	struct routine_stat *rs = &routines[r];
	int i;

	for (i = 0; i < nr_running; i++) {
		struct running *o = &running[i];

		if (o->task == task)
			continue; /* nested on one task: not concurrent */
		overlap[r][o->routine] = overlap[o->routine][r] = 1;
		if (work && o->work == work && !rs->handler) {
			if (rs->self_concurrent < MAX_SELF) {
				rs->self[rs->self_concurrent].cpus[0] = o->cpu;
				rs->self[rs->self_concurrent].cpus[1] = cpu;
				rs->self[rs->self_concurrent].at_us =
					(t - t0) / 1000;
			}
			rs->self_concurrent++;
		}
	}
	if (nr_running < MAX_RUNNING) {
		running[nr_running].work = work;
		running[nr_running].routine = r;
		running[nr_running].task = task;
		running[nr_running].cpu = cpu;
		nr_running++;
	}
}

/*
 * With the lock held: the block at @addr is freed.  A work in it that is
 * still running (its routine freed it) is no longer the work that a later
 * one allocated at the same address is: a routine runs "concurrently with
 * itself" on one object, not on one address.
 */
static void forget_work(const void *addr, unsigned long size)
{
	const char *a = addr;
	int i;

	for (i = 0; i < nr_running; i++) {
		const char *w = running[i].work;

		if (w >= a && w < a + size)
			running[i].work = NULL;
	}
}

static void stop_running(int r, const void *task)
{
	int i;

	for (i = nr_running - 1; i >= 0; i--) {
		if (running[i].routine == r && running[i].task == task) {
			running[i] = running[--nr_running];
			return;
		}
	}
}

/* A flush from @ip starts on queue @q: what is on it now, what elsewhere. */
static void flush_starts(unsigned long ip, int q)
{
	struct site *s;
	int i, j;

	for (j = 0; j < nr_sites; j++)
		if (sites[j].ip == ip && sites[j].queue == q)
			break;
	if (j == nr_sites) {
		if (nr_sites == MAX_SITES)
			return;
		sites[nr_sites].ip = ip;
		sites[nr_sites].queue = q;
		nr_sites++;
	}
	s = &sites[j];
	s->calls++;
	for (i = 0; i < nr_routines; i++) {
		struct routine_stat *r = &routines[i];
		int other;

		if (r->handler)
			continue;
		/*
		 * What it may have had to wait for: whether a work queued
		 * since the last call is still there when the flush starts
		 * is the moment's timing, which a comparison must not hang on.
		 */
		if (r->queued_on[q] > s->mark_on[i])
			s->may_cover[i]++;
		else if (r->queued > s->mark_all[i]) {
			s->may_outside[i]++;
			s->may_outside_queue[i] = r->last_queue;
		}
		s->mark_on[i] = r->queued_on[q];
		s->mark_all[i] = r->queued;
		if (r->pending[q] > 0 || r->executing[q] > 0) {
			s->covers[i]++;
			continue;
		}
		for (other = 0; other < nr_queues; other++) {
			if (r->pending[other] > 0 || r->executing[other] > 0) {
				s->outside[i]++;
				s->outside_queue[i] = other;
				break;
			}
		}
	}
}

static void probe(enum shim_work_event ev, const void *work, void (*fn)(void *),
		  const char *queue)
{
	uint64_t t;
	const void *task;
	int tid, cpu;
	struct task_state *ts;
	struct work_slot *s = NULL;
	int r = -1, q;

	/* every kfree comes here: only a routine running now cares */
	if (ev == SHIM_MEMORY_FREED) {
		if (__atomic_load_n(&nr_running, __ATOMIC_RELAXED)) {
			shim_mutex_lock_unseen(&lock);
			forget_work(work, (unsigned long) fn);
			shim_mutex_unlock_unseen(&lock);
		}
		return;
	}
	t = shim_clock_ns();
	task = current;
	tid = shim_gettid();
	cpu = smp_processor_id();
	shim_mutex_lock_unseen(&lock);
	ts = task_of(task);
	switch (ev) {
	case SHIM_WORK_QUEUE:
		r = routine_of(fn, NULL);
		s = slot_of(work);
		q = queue_of(queue);
		if (r >= 0) {
			routines[r].queued++;
			routines[r].queued_from[context_now(ts)]++;
			routines[r].pending[q]++;
			routines[r].queued_on[q]++;
			routines[r].last_queue = q;
		}
		if (s) {
			never_ran += s->pending >= 0;
			s->pending++;
			s->routine = r;
			s->queue = q;
			s->queued_ns = t;
		}
		break;
	case SHIM_WORK_EXECUTE_START:
		r = routine_of(fn, NULL);
		s = slot_of(work);
		q = queue_of(queue);
		if (r < 0)
			break;
		routines[r].started++;
		routines[r].ran_in[context_now(ts)]++;
		routines[r].queue_runs[q]++;
		if (routines[r].pending[q] > 0)
			routines[r].pending[q]--;
		routines[r].executing[q]++;
		if (preempt_count() & ~HARDIRQ_MASK & ~SOFTIRQ_MASK)
			routines[r].in_atomic++;
		else if (in_interrupt())
			routines[r].in_atomic++;
		note_thread(&routines[r], current->comm);
		if (s && s->queued_ns && routines[r].lat_us &&
		    routines[r].nr_lat < MAX_SAMPLES)
			routines[r].lat_us[routines[r].nr_lat++] =
				(t - s->queued_ns) / 1000;
		if (s) {
			never_ran -= s->pending > 0;
			s->pending--;
			s->running++;
		}
		start_running(work, r, task, cpu, t);
		note_tid(tid, current->comm);
		if (slices && ts && nr_slices < MAX_SLICES) {
			ts->open_slice = &slices[nr_slices++];
			ts->open_slice->routine = r;
			ts->open_slice->start_ns = t;
			ts->open_slice->end_ns = 0;
			ts->open_slice->tid = tid;
		}
		break;
	case SHIM_WORK_EXECUTE_END:
		/* the routine may have freed the work: its slot is ours still */
		r = routine_of(fn, NULL);
		s = slot_of(work);
		q = queue_of(queue);
		if (s)
			s->running--;
		if (r < 0)
			break;
		routines[r].ended++;
		if (routines[r].executing[q] > 0)
			routines[r].executing[q]--;
		stop_running(r, task);
		if (ts && ts->open_slice) {
			ts->open_slice->end_ns = t;
			ts->open_slice = NULL;
		}
		break;
	case SHIM_WORK_QUEUE_CALL:
		r = routine_of(fn, NULL);
		if (r < 0)
			break;
		for (q = 0; q < nr_running; q++)
			if (running[q].task == task && running[q].routine == r)
				break;
		if (q < nr_running)
			routines[r].asked_by_itself++;
		else
			routines[r].asked_from[context_now(ts)]++;
		break;
	case SHIM_WORK_FLUSH_START:
		flush_starts((unsigned long) fn, queue_of(queue));
		break;
	case SHIM_WORK_FLUSH_END:
		break;
	case SHIM_CONTEXT_ENTRY:
		if (ts && !strcmp(queue, "timer"))
			ts->timer++;
		else if (ts && !strcmp(queue, "softirq"))
			ts->softirq++;
		r = routine_of(fn, queue);
		if (r >= 0) {
			routines[r].started++;
			start_running(work, r, task, cpu, t);
		}
		break;
	case SHIM_CONTEXT_EXIT:
		if (ts && !strcmp(queue, "timer"))
			ts->timer--;
		else if (ts && !strcmp(queue, "softirq"))
			ts->softirq--;
		r = routine_of(fn, queue);
		if (r >= 0)
			stop_running(r, task);
		break;
	case SHIM_MEMORY_FREED: /* above */
	case SHIM_NR_WORK_EVENTS:
		/* a count, never an event the stacks report */
		break;
	}
	shim_mutex_unlock_unseen(&lock);
}

static const char *name_of(void (*fn)(void *), char *buf, size_t len)
{
	char *plus;

	if (!shim_symbol((unsigned long) fn, buf, len))
		snprintf(buf, len, "%p", (void *) fn);
	plus = strchr(buf, '+');
	if (plus)
		*plus = '\0';
	return buf;
}

static void print_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char) *s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
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
	fprintf(f,
		"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, "
		"\"args\": {\"name\": ",
		getpid());
	print_json_str(f, getenv("DEMO_TRACE_LABEL") ?
				  getenv("DEMO_TRACE_LABEL") :
				  "program");
	fprintf(f, "}}");
	for (j = 0; j < nr_tids; j++)
		fprintf(f,
			",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, "
			"\"tid\": %d, \"args\": {\"name\": \"%s\"}}",
			getpid(), tids[j].tid, tids[j].comm);
	for (i = 0; i < nr_slices; i++) {
		struct slice *sl = &slices[i];

		if (!sl->end_ns)
			continue;
		fprintf(f,
			",\n{\"name\": \"%s\", \"cat\": \"work\", \"ph\": \"X\", "
			"\"ts\": %.3f, \"dur\": %.3f, \"pid\": %d, \"tid\": %d}",
			routines[sl->routine].name,
			(sl->start_ns - t0) / 1000.0,
			(sl->end_ns - sl->start_ns) / 1000.0, getpid(),
			sl->tid);
	}
	fprintf(f, "\n]}\n");
	fclose(f);
}

/* Every queue-to-start latency, in the order they happened (before sorting). */
static void write_latencies(const char *path)
{
	FILE *f = fopen(path, "w");
	long i;
	int j;

	if (!f) {
		fprintf(stderr, "monitor: cannot write %s\n", path);
		return;
	}
	for (j = 0; j < nr_routines; j++)
		for (i = 0; i < routines[j].nr_lat; i++)
			fprintf(f, "%s %llu\n", routines[j].name,
				(unsigned long long) routines[j].lat_us[i]);
	fclose(f);
}

static void print_counts(const char *key, const long *v, int n,
			 const char *const *names)
{
	int i, first = 1;

	printf(", \"%s\": {", key);
	for (i = 0; i < n; i++) {
		if (!v[i])
			continue;
		printf("%s\"%s\": %ld", first ? "" : ", ", names[i], v[i]);
		first = 0;
	}
	printf("}");
}

static void report_routine(struct routine_stat *r, int first)
{
	const char *qnames[MAX_QUEUES];
	int k;

	for (k = 0; k < nr_queues; k++)
		qnames[k] = queue_names[k];
	printf("%s", first ? "" : ", ");
	print_json_str(stdout, r->name);
	printf(": {\"queued\": %ld, \"ran\": %ld, \"in_atomic\": %ld, "
	       "\"self_concurrent\": %ld",
	       r->queued, r->started, r->in_atomic, r->self_concurrent);
	print_counts("queued_from", r->queued_from, NR_CTX, ctx_name);
	print_counts("asked_from", r->asked_from, NR_CTX, ctx_name);
	printf(", \"asked_by_itself\": %ld", r->asked_by_itself);
	print_counts("ran_in", r->ran_in, NR_CTX, ctx_name);
	print_counts("queues", r->queue_runs, nr_queues, qnames);
	printf(", \"threads\": [");
	for (k = 0; k < r->nr_threads; k++)
		printf("%s\"%s\"", k ? ", " : "", r->threads[k]);
	printf("], \"self\": [");
	for (k = 0; k < r->self_concurrent && k < MAX_SELF; k++)
		printf("%s{\"cpus\": [%d, %d], \"at_us\": %llu}", k ? ", " : "",
		       r->self[k].cpus[0], r->self[k].cpus[1],
		       (unsigned long long) r->self[k].at_us);
	printf("]");
	if (r->nr_lat) {
		uint64_t p50 = shim_percentile(r->lat_us, r->nr_lat, 50);
		uint64_t p99 = shim_percentile(r->lat_us, r->nr_lat, 99);

		printf(", \"latency_us\": {\"n\": %ld, \"p50\": %llu, \"p99\": %llu, "
		       "\"max\": %llu}",
		       r->nr_lat, (unsigned long long) p50,
		       (unsigned long long) p99,
		       (unsigned long long) shim_percentile(r->lat_us,
							    r->nr_lat, 100));
	}
	printf("}");
}

/*
 * The routines a flush site counted, as JSON members: each one's count,
 * or, given the queues, the queue it was found on instead.
 */
static void print_routine_map(const long *count, const int *queue)
{
	int k, first;

	for (k = 0, first = 1; k < nr_routines; k++) {
		if (!count[k])
			continue;
		printf("%s", first ? "" : ", ");
		print_json_str(stdout, routines[k].name);
		if (queue)
			printf(": \"%s\"", queue_names[queue[k]]);
		else
			printf(": %ld", count[k]);
		first = 0;
	}
}

static void report(void)
{
	long queued = 0, started = 0, ended = 0, atomic_runs = 0,
	     concurrent = 0;
	int j, k, first;

	shim_work_trace_unregister();
	shim_mutex_lock_unseen(&lock);
	for (j = 0; j < nr_routines; j++)
		name_of(routines[j].fn, routines[j].name,
			sizeof(routines[j].name));
	if (getenv("DEMO_LATENCY"))
		write_latencies(getenv("DEMO_LATENCY"));

	printf("{\"monitor\": {\"routines\": {");
	for (j = 0, first = 1; j < nr_routines; j++) {
		struct routine_stat *r = &routines[j];

		if (r->handler)
			continue;
		queued += r->queued;
		started += r->started;
		ended += r->ended;
		atomic_runs += r->in_atomic;
		concurrent += r->self_concurrent;
		report_routine(r, first);
		first = 0;
	}
	/* pairs that ran at the same time: routines, and routine and handler */
	printf("}, \"overlaps\": [");
	for (j = 0, first = 1; j < nr_routines; j++) {
		for (k = j; k < nr_routines; k++) {
			if (!overlap[j][k] ||
			    (routines[j].handler && routines[k].handler))
				continue;
			printf("%s[", first ? "" : ", ");
			print_json_str(stdout, routines[j].name);
			printf(", ");
			print_json_str(stdout, routines[k].name);
			printf(", \"%s\", \"%s\"]",
			       routines[j].handler ? routines[j].kind : "work",
			       routines[k].handler ? routines[k].kind : "work");
			first = 0;
		}
	}
	/* flush call sites: what each found on its queue, what elsewhere */
	printf("], \"flushes\": [");
	for (j = 0; j < nr_sites; j++) {
		struct site *s = &sites[j];
		char where[128];

		if (!shim_symbol(s->ip, where, sizeof(where)))
			snprintf(where, sizeof(where), "?");
		printf("%s{\"site\": ", j ? ", " : "");
		print_json_str(stdout, where);
		printf(", \"address\": \"0x%lx\", \"queue\": \"%s\", \"calls\": %ld, "
		       "\"covers\": {",
		       shim_symbol_link_address(s->ip) - 1,
		       queue_names[s->queue], s->calls);
		print_routine_map(s->covers, NULL);
		printf("}, \"elsewhere\": {");
		print_routine_map(s->outside, s->outside_queue);
		printf("}, \"may_cover\": {");
		print_routine_map(s->may_cover, NULL);
		printf("}, \"may_elsewhere\": {");
		print_routine_map(s->may_outside, s->may_outside_queue);
		printf("}}");
	}
	printf("], \"queued\": %ld, \"ran\": %ld, \"finished\": %ld, "
	       "\"never_ran\": %ld, \"in_atomic\": %ld, \"self_concurrent\": %ld, "
	       "\"untracked\": %ld}}\n",
	       queued, started, ended, never_ran, atomic_runs, concurrent,
	       lost_slots + lost_routines);
	fflush(stdout);
	if (getenv("DEMO_TRACE"))
		write_trace(getenv("DEMO_TRACE"));
	shim_mutex_unlock_unseen(&lock);
}

/* After the boot (priority 120), before main(). */
__attribute__((constructor(130))) static void monitor_init(void)
{
	t0 = shim_clock_ns();
	slots = calloc(WORK_SLOTS, sizeof(*slots));
	if (getenv("DEMO_TRACE"))
		slices = calloc(MAX_SLICES, sizeof(*slices));
	if (!slots)
		return;
	atexit(report);
	shim_work_trace_register(probe);
}
