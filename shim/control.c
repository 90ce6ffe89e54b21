/*
 * control.c - controlled scheduling: one task at a time, chosen on purpose.
 *
 * SHIM_SCHED=random:SEED or pct:SEED[:DEPTH[:STEPS]] makes every thread the
 * shim knows a task of this scheduler: only the task holding the CPU runs;
 * at each scheduling point (shim/point.h) and whenever it blocks, it asks
 * the strategy which runnable task goes next and hands the CPU over.  The
 * host calls that block, wake, start or end a thread, read the clock or
 * sleep come here instead (host.c), so kernel code and host programs alike
 * run in an order the seed alone decides: the same SHIM_SCHED replays the
 * same run, decision for decision, however loaded the machine.
 *
 * Time is virtual: each scheduling point costs a quantum, and when no task
 * can run the clock jumps to the next deadline (a timer, a sleep); with no
 * deadline either, that is a deadlock, reported task by task with the line
 * that replays it.  A run that never ends (SHIM_SCHED_MAX_STEPS points, or
 * SHIM_SCHED_MAX_SECONDS of virtual time) is reported the same way.
 *
 * Strategies:
 *   random   at each point, any runnable task, uniformly;
 *   pct      probabilistic concurrency testing (Burckhardt et al., ASPLOS
 *            2010): tasks get random priorities, the highest runnable one
 *            runs, and at DEPTH-1 random points among the first STEPS the
 *            running task drops below all others; a bug of depth d shows
 *            with probability at least 1/(n k^(d-1)) per run;
 *   replay   SHIM_SCHED=replay:FILE re-runs the decisions of a
 *            SHIM_SCHED_LOG=FILE written before;
 * and the systematic ones, which need no seed: the running task keeps the
 * CPU until it blocks or yields, then the task runnable the longest runs
 * (first in, first out), except that
 *   eager    when a work is queued, its worker (the task named as its
 *            queue, or that ran its works) runs first, until it blocks:
 *            the work runs before the queuer takes another step;
 *   lazy     workers run only when no other task can: a queued work runs
 *            when something waits for it (a flush, a destroy, a
 *            completion, a sleep, a poll) or at the end;
 *   preempt:SITE  as the call at SITE (a queueing call site, "file.c:LINE",
 *            shim/site.h) returns, the queuer drops below every other
 *            task, until none of them can run;
 *   stall:ROUTINE[:N]  while a work routine of that name runs in process
 *            context (each run, or only the N-th), the task running it
 *            drops below every other task at each of its points, until
 *            none of them can run (sleepers and timers falling due within
 *            CTL_STALL_NS count); its CPU is busy meanwhile, so an
 *            interrupt or a task free to move arrives on another: whatever
 *            queues the routine again then runs it on another worker,
 *            beside the first.  How a declared self-concurrency is
 *            exercised.
 * SHIM_SCHED_SITES=FILE lists the queueing call sites a controlled run
 * passed, one a line ("SITE FUNCTION CALLS"): what preempt can be given.
 *
 * Every schedule is fair (CHESS: Musuvathi and Qadeer, PLDI 2008): each
 * strategy picks only among the runnable tasks that have not given way
 * to another.  A task gives way when it yields (yield(), schedule() while
 * runnable), pauses in a busy wait (cpu_relax(), udelay(), a jiffies busy
 * wait at each tick time.c makes of it, CTL_POLLS tests in a row of one
 * bit or lock with no point between: test_bit(), spin_trylock(),
 * spin_is_locked()), sleeps for a time (schedule_timeout(), a host
 * sleep), or has run CTL_SLICE points since it last gave way or slept
 * (however often it was preempted meanwhile); it then runs again only
 * once every task that could run at that moment has run, as the O(1)
 * scheduler's sched_yield() put a task behind every runnable one.
 * Bound: once a task can run, any other that polls rather than sleeps
 * gives way to it within CTL_SLICE + 1 of its own points and then waits
 * for it, so it runs within (n - 1) * (CTL_SLICE + 1) points of n - 1
 * pollers, whatever the strategy prefers.  (A task that sleeps until
 * another wakes it waits for that one; as in CHESS, tasks that only wake
 * each other for ever, never polling, are a livelock of their own.)
 * Eager's worker first, lazy's workers last, preempt's and stall's
 * giving way are preferences among the tasks fairness allows: a task
 * polling for a work's effect lets lazy's worker run (a poll is waiting
 * too), two pollers cannot keep a demoted queuer or a stalled routine off
 * the CPU, and a hang or a livelock reported (no task can run; no end
 * after SHIM_SCHED_MAX_STEPS points) is one a fair scheduler, the
 * kernel's, would not avoid either.  A loop on a plain variable, with no
 * point at all, is not seen: kernel code busy-waits with cpu_relax().
 *
 * State is changed by the running task only, under ctl.lock (which a
 * thread starting up or a foreign thread joining also takes).
 */
#include <stdarg.h>

#include "shim.h"
#include <shim/point.h>
#include <linux/interrupt.h>
#include <trace/events/workqueue.h>
#include <shim/site.h>

#define CTL_MAX_TASKS 256
#define CTL_MAX_DEPTH 16
#define CTL_TRACE 12
#define CTL_NEVER (~0ULL)
#define CTL_QUANTUM_NS 1000ULL	   /* virtual time of one point */
#define CTL_START_NS 1000000000ULL /* the virtual clock at boot */
#define CTL_DEFAULT_STEPS 20000
#define CTL_DEFAULT_DEPTH 3
#define CTL_MAX_STEPS 5000000L
#define CTL_MAX_SECONDS 3600
#define CTL_SLICE 1000		      /* points run without giving way */
#define CTL_POLLS SHIM_CTL_POLLS      /* tests of one bit or lock in a row */
#define CTL_MAX_IO 10000000L	      /* device accesses in a row, no point */
#define CTL_STALL_NS 20000000ULL      /* stall: how long a CPU stays busy */
#define CTL_PRIO_START (1ULL << 62)   /* pct: tasks start above this */
#define CTL_PRIO_CHANGED (1ULL << 40) /* lowered at a change point */

enum {
	CTL_RANDOM = 1,
	CTL_PCT,
	CTL_REPLAY,
	CTL_EAGER,
	CTL_LAZY,
	CTL_PREEMPT,
	CTL_STALL
};
#define CTL_MAX_SITES 256

/* one line of a schedule log: at step, the CPU went from one task to another */
struct ctl_decision {
	long step;
	int from, to;
};
enum { CTL_RUNNABLE, CTL_BLOCKED, CTL_EXITED };

struct shim_ctl_task {
	int id; /* creation order */
	int state;
	unsigned int go;     /* raw wait word: 1 when it may run */
	volatile void *word; /* blocked on it; NULL: a timed sleep */
	u64 deadline;	     /* virtual ns it wakes at, or CTL_NEVER */
	long blocked_at;     /* blocking order: wakes are FIFO */
	u64 prio;	     /* pct: higher runs first */
	long run_len;	     /* points run since it got the CPU */
	long fair_len;	     /* points run since it last gave way or slept */
	int cpu;
	struct task_struct *tsk; /* its task, once it has one */
	/* fibers: its stack and context, and the thread-locals it left with */
	struct shim_fiber *fiber;
	void (*fn)(void *);
	void *arg;
	struct shim_thread *self;
	struct task_struct *cur;
	unsigned long preempt;
	char name[16];
	void *trace[CTL_TRACE]; /* where it last gave up the CPU */
	int depth;
	int parked; /* fibers: it has given up the CPU in switch_to() */
	/* the systematic strategies */
	u64 ready;   /* when it last became runnable or was preempted */
	u64 urgent;  /* eager: when it was given work to run first, or 0 */
	int server;  /* it runs works (a worker, keventd, ksoftirqd) */
	int demoted; /* preempt: below every other task until none can run */
	unsigned long pinned; /* the CPUs set_cpus_allowed() left it, or 0 */
	int stalling; /* stall: it runs the routine, below every other task */
	/* fairness: stamps of the fair clock */
	u64 woke;    /* when it last became runnable */
	u64 ran;     /* when it last got the CPU */
	u64 yielded; /* when it last gave way */
	int timed;   /* its next sleep in schedule() is a timed one */
	/* polls: what it last tested, at which step, how often in a row */
	const volatile void *poll_what;
	int poll_bit;
	long poll_step;
	int polls;
	/* device accesses: its own points so far, and the accesses since its
	 * last point other than its own I/O pauses (shim_ctl_io()) */
	long own;
	long io_own;
	long io_run;
};

/* a queueing call site a controlled run passed (shim/site.h) */
struct ctl_site {
	const char *site, *func;
	long calls;
};

int shim_controlled;
int shim_fibers;
long shim_ctl_quiet;
long shim_ctl_io_left = CTL_POLLS;

static struct {
	int strategy;
	u64 seed;
	int depth;
	long steps; /* pct: the run length change points fall in */
	u64 rng;
	unsigned int lock; /* 0 free, 1 held, 2 held and slept on */
	struct shim_ctl_task *task[CTL_MAX_TASKS];
	int nr;
	struct shim_ctl_task *running;
	u64 now;
	u64 next_deadline;
	long step, max_steps;
	long max_io; /* device accesses in a row: a soft lockup */
	u64 max_ns;
	long blocks;
	long decisions;
	long change_step[CTL_MAX_DEPTH];
	u64 change_prio[CTL_MAX_DEPTH];
	int nr_change;
	long next_change; /* the step of the next change point */
	int stable;	  /* pct: the running task is still the pick */
	long quiet_base;  /* fibers: shim_ctl_quiet when last counted */
	u64 floor;	  /* pct: the priority of the last sliced task */
	int ncpus, next_cpu;
	int dead;		      /* a report is out: no more decisions */
	int fibers;		      /* tasks are fibers on one host thread */
	struct shim_ctl_task *zombie; /* an ended fiber whose stack can go */
	char spec[128];
	/* the systematic strategies */
	int queue_points; /* a queueing call's return is a point */
	u64 ready_clock, urgent_clock;
	u64 fair_clock; /* fairness: orders wakes, runs and yields */
	char site[96];	/* preempt: the site */
	long preempts;	/* preempt: how often the queuer gave way */
	char stall[64]; /* stall: the routine */
	long stall_nth,
		starts; /* stall: at which start (0: each), and how many */
	/* stall: tasks running the routine; their CPUs are busy meanwhile */
	int stalling;
	u64 stall_until; /* stall: virtual time it may wait for sleepers */
	struct ctl_site sites[CTL_MAX_SITES];
	int nr_sites;
	const char *sites_file; /* SHIM_SCHED_SITES */
	/* replay: the decisions of the log, in order */
	struct ctl_decision *replay;
	long nr_replay, next_replay;
	int replay_cpus;
	/* the log */
	int log_fd;
	size_t log_len;
} ctl = { .log_fd = -1, .next_deadline = CTL_NEVER };

/*
 * The log's buffer, apart: ctl is initialised data, which a batch's reset
 * copies back whole at every schedule; this stays zeros, and untouched
 * unless a run logs.
 */
static char ctl_log_buf[1 << 16];

static __thread struct shim_ctl_task *ctl_me; /* threads: this one's task */
static __thread int ctl_adopting;
__thread int shim_ctl_host;		 /* fibers: the one host thread */
static struct shim_ctl_task *ctl_tracer; /* fibers: a report asks for traces */

/* The running task's own: with fibers, the one running is the one asking. */
static inline struct shim_ctl_task *me_now(void)
{
	return ctl.fibers ? (shim_ctl_host ? ctl.running : NULL) : ctl_me;
}

/*
 * The caller's task in the run.  A thread the shim did not start (a host
 * program's own pthread) joins the run at its first scheduling point, wait
 * or wake, through the adoption that gives it a task: it runs free until
 * then, so only programs whose threads the shim starts replay exactly.
 */
static struct shim_ctl_task *ctl_self(void)
{
	if (ctl.fibers) {
		if (likely(shim_ctl_host) || ctl.dead)
			return me_now();
		shim_console_write(
			"shim: a thread the shim did not start called into "
			"it in a controlled run; start it with "
			"shim_thread_start() (or run with "
			"SHIM_SCHED_THREADS=1)\n",
			154);
		shim_host_abort();
	}
	if (likely(ctl_me) || ctl_adopting || ctl.dead)
		return ctl_me;
	ctl_adopting = 1;
	(void) shim_get_current();
	ctl_adopting = 0;
	return ctl_me;
}

static const char *const point_name[SHIM_NR_POINTS] = {
	[SHIM_POINT_LOCK] = "lock",	  [SHIM_POINT_UNLOCK] = "unlock",
	[SHIM_POINT_WAKE] = "wake",	  [SHIM_POINT_YIELD] = "yield",
	[SHIM_POINT_TIMER] = "timer",	  [SHIM_POINT_KTHREAD] = "kthread",
	[SHIM_POINT_BITOP] = "bitop",	  [SHIM_POINT_RELAX] = "relax",
	[SHIM_POINT_RESCHED] = "resched", [SHIM_POINT_BLOCK] = "block",
	[SHIM_POINT_EXIT] = "exit",	  [SHIM_POINT_QUEUED] = "queued",
};

/* --- the lock, the log, the generator --------------------------------------- */

/*
 * The quiet points passed since they were counted (shim_point()), each
 * a step and a quantum of the running task's: added up before anything
 * reads the step, the clock or the slice.
 */
static void settle(void)
{
	long n = ctl.quiet_base - shim_ctl_quiet;

	if (n) {
		ctl.step += n;
		ctl.now += n * CTL_QUANTUM_NS;
		ctl.running->run_len += n;
		ctl.running->fair_len += n;
		ctl.running->own += n;
		ctl.quiet_base = shim_ctl_quiet;
	}
}

/* The state changes: the points counted quiet may not be any more. */
static void end_quiet(void)
{
	settle();
	shim_ctl_quiet = ctl.quiet_base = 0;
}

/*
 * Whatever changes the state changes it under the lock: taking it ends
 * the quiet points counted in advance (shim_sched_point()).
 */
static void ctl_lock(void)
{
	unsigned int c = 0;

	if (!__atomic_compare_exchange_n(&ctl.lock, &c, 1, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		while (__atomic_exchange_n(&ctl.lock, 2, __ATOMIC_ACQUIRE))
			shim_host_raw_wait(&ctl.lock, 2, -1);
	end_quiet();
}

static void ctl_unlock(void)
{
	if (__atomic_exchange_n(&ctl.lock, 0, __ATOMIC_RELEASE) == 2)
		shim_host_raw_wake(&ctl.lock, 1);
}

static void log_flush(void)
{
	if (ctl.log_fd >= 0 && ctl.log_len)
		shim_host_fd_write(ctl.log_fd, ctl_log_buf, ctl.log_len);
	ctl.log_len = 0;
}

/* One line of the schedule log: the step and virtual microseconds first. */
static void __attribute__((format(printf, 1, 2))) ctl_log(const char *fmt, ...)
{
	va_list args;
	int n;

	if (ctl.log_fd < 0)
		return;
	if (ctl.log_len > sizeof(ctl_log_buf) - 512)
		log_flush();
	n = snprintf(ctl_log_buf + ctl.log_len,
		     sizeof(ctl_log_buf) - ctl.log_len, "%ld %llu ", ctl.step,
		     (unsigned long long) ((ctl.now - CTL_START_NS) / 1000));
	va_start(args, fmt);
	n += vsnprintf(ctl_log_buf + ctl.log_len + n,
		       sizeof(ctl_log_buf) - ctl.log_len - n, fmt, args);
	va_end(args);
	if (n > 0 && (size_t) n < sizeof(ctl_log_buf) - ctl.log_len)
		ctl.log_len += n;
	ctl_log_buf[ctl.log_len++] = '\n';
}

/* splitmix64: small, good enough, and the same everywhere */
static u64 rnd(void)
{
	u64 z = (ctl.rng += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static u64 rnd_below(u64 n)
{
	return n ? rnd() % n : 0;
}

/* SHIM_SCHED_SITES=FILE: the queueing call sites passed, one a line. */
static void sites_flush(void)
{
	char line[256];
	int fd, i, n;

	if (!ctl.sites_file)
		return;
	fd = shim_host_create_file(ctl.sites_file);
	ctl.sites_file = NULL; /* once: at the end or at a failure */
	if (fd < 0)
		return;
	for (i = 0; i < ctl.nr_sites; i++) {
		n = snprintf(line, sizeof(line), "%s %s %ld\n",
			     ctl.sites[i].site, ctl.sites[i].func,
			     ctl.sites[i].calls);
		if (n > 0 && n < (int) sizeof(line))
			shim_host_fd_write(fd, line, n);
	}
	shim_host_fd_close(fd);
}

/* --- reports ---------------------------------------------------------------- */

static const char *state_name(struct shim_ctl_task *t)
{
	long state;

	if (t->state == CTL_EXITED)
		return "exited";
	if (!t->tsk)
		return t->state == CTL_RUNNABLE ? "runnable" : "blocked";
	state = __atomic_load_n(&t->tsk->state, __ATOMIC_RELAXED);
	switch (state) {
	case TASK_RUNNING:
		return "TASK_RUNNING";
	case TASK_INTERRUPTIBLE:
		return "TASK_INTERRUPTIBLE";
	case TASK_UNINTERRUPTIBLE:
		return "TASK_UNINTERRUPTIBLE";
	default:
		return "TASK_ZOMBIE";
	}
}

/* What a blocked task waits for, in the kernel's words where it can. */
static const char *wait_name(struct shim_ctl_task *t)
{
	if (t->state != CTL_BLOCKED)
		return t->state == CTL_RUNNABLE ? "can run" : "has ended";
	if (!t->word)
		return "sleeps for a time (host sleep)";
	if (t->tsk && t->word == &t->tsk->shim_wake_seq)
		return "sleeps in schedule()";
	return "waits on a lock or for a thread";
}

static void print_trace(void **trace, int depth)
{
	char sym[160];
	int i;

	for (i = 0; i < depth; i++) {
		if (!shim_symbol((unsigned long) trace[i], sym, sizeof(sym)))
			continue;
		/* the scheduler's and the host's own frames say nothing */
		if (!strncmp(sym, "shim_ctl_", 9) ||
		    !strncmp(sym, "shim_host_", 10) ||
		    !strncmp(sym, "ctl_", 4) || !strncmp(sym, "switch_to", 9))
			continue;
		printk(KERN_EMERG "      %s\n", sym);
	}
}

/* One line that runs this again, decision for decision; no lock taken. */
void shim_ctl_print_replay(void)
{
	char cmd[1024], line[1280];
	int n;

	if (!shim_controlled)
		return;
	shim_host_cmdline(cmd, sizeof(cmd));
	if (ctl.ncpus != 2)
		n = snprintf(line, sizeof(line),
			     "replay: SHIM_SCHED=%s SHIM_CPUS=%d %s\n",
			     ctl.spec, ctl.ncpus, cmd);
	else
		n = snprintf(line, sizeof(line), "replay: SHIM_SCHED=%s %s\n",
			     ctl.spec, cmd);
	shim_console_write(line,
			   n < (int) sizeof(line) ? n : (int) sizeof(line) - 1);
}

/*
 * Fibers: a task off the CPU keeps its stack as it left it, so where it
 * waits is read there when a report needs it, rather than unwound at every
 * block of every run whether a report ever comes or not.  The reporter
 * switches to the parked task, which records its own backtrace and
 * switches straight back.
 */
static void ctl_trace_of(struct shim_ctl_task *t)
{
	ctl_tracer = ctl.running;
	shim_host_fiber_switch(ctl.running->fiber, t->fiber);
	ctl_tracer = NULL;
}

/* In a parked fiber that has just been switched to: was it for its trace? */
static void ctl_answer_trace(struct shim_ctl_task *me)
{
	while (ctl_tracer && ctl_tracer != me) {
		me->depth = shim_host_backtrace(me->trace, CTL_TRACE);
		shim_host_fiber_switch(me->fiber, ctl_tracer->fiber);
	}
}

static void print_tasks(void)
{
	int i;

	for (i = 0; i < ctl.nr; i++) {
		struct shim_ctl_task *t = ctl.task[i];

		if (t->state == CTL_EXITED)
			continue;
		printk(KERN_EMERG "  task %d %s (pid %d, cpu %d): %s, %s\n",
		       t->id, t->tsk ? t->tsk->comm : t->name,
		       t->tsk ? t->tsk->pid : 0, t->cpu,
		       t == ctl.running ? "running" : state_name(t),
		       t == ctl.running ? "reports this" : wait_name(t));
		if (t == ctl.running)
			t->depth = shim_host_backtrace(t->trace, CTL_TRACE);
		else if (ctl.fibers && shim_ctl_host && t->parked)
			ctl_trace_of(t);
		print_trace(t->trace, t->depth);
	}
}

/* The run cannot go on: say why, with every task, and die as a BUG does. */
static void __attribute__((noreturn)) ctl_fail(const char *fmt, ...)
{
	char why[256];
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, sizeof(why), fmt, args);
	va_end(args);
	ctl.dead = 1;
	ctl_log("fail %s", why);
	log_flush();
	sites_flush();
	printk(KERN_EMERG
	       "BUG: %s, under SHIM_SCHED=%s at step %ld (%llu us of "
	       "virtual time)\n",
	       why, ctl.spec, ctl.step,
	       (unsigned long long) ((ctl.now - CTL_START_NS) / 1000));
	print_tasks();
	shim_ctl_print_replay();
	ctl_unlock();
	shim_host_abort();
}

/* --- picking the next task ---------------------------------------------------- */

static void make_runnable(struct shim_ctl_task *t)
{
	ctl.stable = 0;
	end_quiet();
	t->ready = ++ctl.ready_clock;
	t->woke = ++ctl.fair_clock;
	t->state = CTL_RUNNABLE;
	t->word = NULL;
	t->deadline = CTL_NEVER;
}

/* Wake every task whose deadline has come; recompute the next one. */
static void expire(void)
{
	u64 next = CTL_NEVER;
	int i;

	for (i = 0; i < ctl.nr; i++) {
		struct shim_ctl_task *t = ctl.task[i];

		if (t->state != CTL_BLOCKED || t->deadline == CTL_NEVER)
			continue;
		if (t->deadline <= ctl.now) {
			ctl_log("timeout %d", t->id);
			make_runnable(t);
		} else if (t->deadline < next) {
			next = t->deadline;
		}
	}
	ctl.next_deadline = next;
}

/* The logged decision for this step, if there is one; else @me runs on. */
static struct shim_ctl_task *replay_choice(struct shim_ctl_task *me,
					   struct shim_ctl_task **cand, int n)
{
	int i, want = me->id;

	if (ctl.next_replay < ctl.nr_replay &&
	    ctl.replay[ctl.next_replay].step == ctl.step)
		want = ctl.replay[ctl.next_replay++].to;
	for (i = 0; i < n; i++)
		if (cand[i]->id == want)
			return cand[i];
	if (n == 1 && want == me->id)
		return cand[0]; /* forced: no decision was logged */
	ctl_fail(
		"replay diverged: task %d cannot run at this step (the program, "
		"its input or its settings changed since the log was written)",
		want);
}

/* The systematic strategies' rank of a runnable task: lower runs first. */
static int sys_rank(struct shim_ctl_task *t)
{
	if (t->demoted)
		return 2;
	return ctl.strategy == CTL_LAZY && t->server;
}

/* Would the systematic strategies run @a rather than @b? */
static int sys_before(struct shim_ctl_task *a, struct shim_ctl_task *b,
		      struct shim_ctl_task *me)
{
	if (a->urgent != b->urgent)
		return a->urgent && (!b->urgent || a->urgent < b->urgent);
	if (sys_rank(a) != sys_rank(b))
		return sys_rank(a) < sys_rank(b);
	/*
	 * the running task keeps the CPU, unless stalling: it gives way to
	 * its equals too; else first in, first out
	 */
	if (a == me || b == me)
		return (a == me) != me->stalling;
	return a->ready < b->ready;
}

/*
 * eager, lazy, preempt: no choice is random.  A demoted task picked all
 * the same has nothing left to give way to: it is demoted no longer.
 */
static struct shim_ctl_task *systematic_pick(struct shim_ctl_task *me,
					     struct shim_ctl_task **cand, int n)
{
	struct shim_ctl_task *next = cand[0];
	int i;

	for (i = 1; i < n; i++)
		if (sys_before(cand[i], next, me))
			next = cand[i];
	next->demoted = 0;
	/* eager: a worker that yielded gets the CPU back at the next point */
	if (me != next && me->urgent && me->state == CTL_RUNNABLE)
		ctl.stable = 0;
	return next;
}

/*
 * Fairness: @t gives way (a yield, a busy wait's pause, a timed sleep, a
 * slice run without one): it runs again only once every task that could
 * run at this moment has run.
 */
static void give_way(struct shim_ctl_task *t)
{
	t->yielded = ++ctl.fair_clock;
	t->fair_len = 0;
	ctl.stable = 0;
}

/*
 * Fairness: keep of the runnable tasks @cand those that gave way to none
 * of the others, and say how many.  @t gave way to @u if @u could run
 * when @t last gave way and has not run since: @u's wake and its last
 * turn both come before @t's yield.  So @t is held back while the oldest
 * waiter but itself waits from before its yield.  Never none: a task
 * held back yielded after the last turn of the one holding it back, so
 * the one of them that last got the CPU longest ago is held by nobody.
 */
static int fair_candidates(struct shim_ctl_task **cand, int n)
{
	u64 first = CTL_NEVER, second = CTL_NEVER;
	struct shim_ctl_task *oldest = NULL;
	int i, m;

	for (i = 0; i < n; i++) {
		u64 since = max(cand[i]->woke, cand[i]->ran);

		if (since < first) {
			second = first;
			first = since;
			oldest = cand[i];
		} else if (since < second) {
			second = since;
		}
	}
	for (i = m = 0; i < n; i++)
		if (cand[i]->yielded < (cand[i] == oldest ? second : first))
			cand[m++] = cand[i];
	return m ? m : n; /* (m is never 0: see above) */
}

/* Can only tasks a stall demoted run? */
static int only_stalled(struct shim_ctl_task **cand, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!cand[i]->stalling)
			return 0;
	return 1;
}

/*
 * Called with ctl.lock held by the running task @me at a point of kind
 * @why: the task to run next (maybe @me).  Moves time on when no task can
 * run; fails the run when none ever will.
 */
static struct shim_ctl_task *pick(struct shim_ctl_task *me, enum shim_point why)
{
	struct shim_ctl_task *cand[CTL_MAX_TASKS], *next;
	int i, n;

	for (;;) {
		if (ctl.next_deadline <= ctl.now)
			expire();
		for (i = n = 0; i < ctl.nr; i++)
			if (ctl.task[i]->state == CTL_RUNNABLE)
				cand[n++] = ctl.task[i];
		/*
		 * stall: while only a stalled task could run, the others'
		 * sleeps and timers fall due as on a CPU busy with it
		 */
		if (n && ctl.stalling && only_stalled(cand, n) &&
		    ctl.next_deadline <= ctl.stall_until) {
			ctl_log("advance %llu",
				(unsigned long long) ((ctl.next_deadline -
						       ctl.now) /
						      1000));
			ctl.now = ctl.next_deadline;
			continue;
		}
		if (n)
			break;
		if (ctl.next_deadline == CTL_NEVER)
			ctl_fail(
				"deadlock: no task can run and none waits for a "
				"timer");
		/* nothing runs until the next deadline: jump to it */
		ctl_log("advance %llu",
			(unsigned long long) ((ctl.next_deadline - ctl.now) /
					      1000));
		ctl.now = ctl.next_deadline;
	}
	if (ctl.now - CTL_START_NS > ctl.max_ns)
		ctl_fail(
			"no end after %llu s of virtual time (SHIM_SCHED_MAX_SECONDS): "
			"a livelock?",
			(unsigned long long) (ctl.max_ns / 1000000000ULL));

	/*
	 * A yield, a busy wait's pause, or a slice run without either: the
	 * task gives way (fairness, above).  Under pct a yield, a pause or a
	 * slice run alone on the CPU also drops it below every other task,
	 * as fair versions of it do.
	 */
	if (me->state == CTL_RUNNABLE &&
	    (why == SHIM_POINT_YIELD || why == SHIM_POINT_RELAX ||
	     me->run_len >= CTL_SLICE || me->fair_len >= CTL_SLICE)) {
		if (ctl.strategy == CTL_PCT && n > 1 &&
		    (why == SHIM_POINT_YIELD || why == SHIM_POINT_RELAX ||
		     me->run_len >= CTL_SLICE))
			me->prio = --ctl.floor;
		give_way(me);
	}
	n = fair_candidates(cand, n);
	if (ctl.strategy == CTL_REPLAY) {
		next = replay_choice(me, cand, n);
		goto chosen;
	}
	ctl.stable = ctl.strategy == CTL_PCT || ctl.strategy >= CTL_EAGER;
	if (n == 1) {
		cand[0]->demoted = 0;
		return cand[0];
	}

	switch (ctl.strategy) {
	case CTL_RANDOM:
		next = cand[rnd_below(n)];
		break;
	case CTL_EAGER:
	case CTL_LAZY:
	case CTL_PREEMPT:
	case CTL_STALL:
		next = systematic_pick(me, cand, n);
		break;
	default:
		next = cand[0];
		for (i = 1; i < n; i++)
			if (cand[i]->prio > next->prio)
				next = cand[i];
		break;
	}
chosen:
	if (next != me && n > 1) {
		ctl.decisions++;
		ctl_log("D %d %d %d %s", me->id, next->id, n, point_name[why]);
	}
	return next;
}

/*
 * Wait for the CPU.  A task that holds it for long without reaching a
 * point is most likely blocked in a host call the shim cannot see (a
 * join of a host thread, a read): say so once, for whoever wonders why nothing moves.
 */
static void wait_turn(struct shim_ctl_task *me)
{
	const s64 patience = 10 * 1000000000LL;
	long step = ctl.step;
	int said = 0;

	while (!__atomic_load_n(&me->go, __ATOMIC_ACQUIRE)) {
		shim_host_raw_wait(&me->go, 0, patience);
		if (!said && !__atomic_load_n(&me->go, __ATOMIC_ACQUIRE) &&
		    __atomic_load_n(&ctl.step, __ATOMIC_RELAXED) == step &&
		    !ctl.dead) {
			struct shim_ctl_task *r = ctl.running;

			said = 1;
			printk(KERN_WARNING
			       "shim: controlled run stuck: task %d (%s) "
			       "has held the CPU for 10 s without a scheduling "
			       "point; is it blocked in a host call the shim does "
			       "not see (a thread it did not start, a host join or "
			       "sleep)?\n",
			       r ? r->id : -1, r ? r->name : "?");
		}
		step = __atomic_load_n(&ctl.step, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&me->go, 0, __ATOMIC_RELAXED);
}

/* Fibers share the host thread's locals: each keeps its own across a switch. */
static void save_locals(struct shim_ctl_task *t)
{
	t->self = shim_thread_self();
	t->cur = shim_current_or_null();
	t->preempt = shim_preempt;
}

static void restore_locals(struct shim_ctl_task *t)
{
	shim_thread_set_self(t->self);
	shim_set_current(t->cur);
	shim_preempt = t->preempt;
}

/* The stack of a fiber that has ended can go once another one runs. */
static void reap_zombie(void)
{
	struct shim_ctl_task *z = ctl.zombie;

	if (z) {
		ctl.zombie = NULL;
		shim_host_fiber_free(z->fiber);
		z->fiber = NULL;
	}
}

static void fiber_entry(void *p)
{
	struct shim_ctl_task *t = p;

	reap_zombie();
	shim_thread_set_self(NULL);
	shim_set_current(NULL);
	shim_preempt = 0;
	t->fn(t->arg); /* its thread's end switches away for good */
}

/* A new task's fiber: it first runs when the scheduler switches to it. */
int shim_ctl_start_fiber(struct shim_ctl_task *t, void (*fn)(void *), void *arg)
{
	t->fn = fn;
	t->arg = arg;
	return shim_host_fiber_create(&t->fiber, fiber_entry, t);
}

int shim_ctl_fibers(void)
{
	return ctl.fibers;
}

/* Called with ctl.lock held: hand the CPU to @next, and wait for it back. */
/*
 * stall: a stalled routine's worker holds its CPU, so a task that is free
 * to move (not a worker, not pinned, not atomic) runs on another CPU when
 * it gets the CPU back, as a real scheduler would put it: what it queues
 * then goes to another worker.  The one ksoftirqd stands for every CPU's
 * timers and bottom halves: it moves too, as their next ones would run on
 * a CPU that is not busy.
 */
static void stall_migrate(struct shim_ctl_task *me)
{
	unsigned long others;
	int i;

	if (me->server || me->stalling || preempt_count())
		return;
	for (i = 0; i < ctl.nr; i++)
		if (ctl.task[i]->stalling && ctl.task[i]->cpu == me->cpu)
			break;
	if (i == ctl.nr)
		return;
	others = (me->pinned ? me->pinned : shim_ctl_cpus()) & shim_ctl_cpus() &
		 ~(1UL << me->cpu);
	if (!others)
		return;
	me->cpu = __builtin_ctzl(others);
	ctl_log("migrate %d cpu %d", me->id, me->cpu);
}

/* An interrupt is about to arrive on the running task's CPU. */
void shim_ctl_irq_enter(void)
{
	struct shim_ctl_task *me = me_now();

	if (me && ctl.stalling)
		stall_migrate(me);
}

static void switch_to(struct shim_ctl_task *me, struct shim_ctl_task *next,
		      int wait)
{
	ctl.running = next;
	if (next == me) {
		me->run_len++;
		me->fair_len++;
		ctl_unlock();
		return;
	}
	next->ran = ++ctl.fair_clock;
	next->run_len = 0;
	if (me->state == CTL_RUNNABLE)
		me->ready = ++ctl.ready_clock; /* preempted: to the back */
	ctl_unlock();
	if (ctl.fibers) {
		if (!wait) {
			ctl.zombie = me;
			shim_host_fiber_switch(NULL, next->fiber);
		}
		save_locals(me);
		me->parked = 1;
		shim_host_fiber_switch(me->fiber, next->fiber);
		ctl_answer_trace(me);
		restore_locals(me);
		reap_zombie();
		if (ctl.stalling)
			stall_migrate(me);
		return;
	}
	__atomic_store_n(&next->go, 1, __ATOMIC_RELEASE);
	shim_host_raw_wake(&next->go, 1);
	if (wait) {
		wait_turn(me);
		if (ctl.stalling)
			stall_migrate(me);
	}
}

/* Called with ctl.lock held: count a point, spend its time, lower pct. */
static void account_point(struct shim_ctl_task *me)
{
	int i;

	ctl.step++;
	ctl.now += CTL_QUANTUM_NS;
	me->own++;
	shim_ctl_io_left = CTL_POLLS;
	if (ctl.step > ctl.max_steps)
		ctl_fail(
			"no end after %ld scheduling points (SHIM_SCHED_MAX_STEPS): "
			"a livelock?",
			ctl.max_steps);
	if (ctl.step == ctl.next_change) {
		ctl.next_change = LONG_MAX;
		for (i = 0; i < ctl.nr_change; i++) {
			if (ctl.change_step[i] == ctl.step)
				me->prio = ctl.change_prio[i];
			else if (ctl.change_step[i] > ctl.step &&
				 ctl.change_step[i] < ctl.next_change)
				ctl.next_change = ctl.change_step[i];
		}
		ctl.stable = 0;
	}
}

/*
 * Most points change nothing: the running task is still the one pct (or
 * the replayed log) would pick, no deadline falls due, no change point or
 * slice ends.  Those take no lock and look at no other task; only the
 * running task changes what they read.
 */
static int point_is_quiet(struct shim_ctl_task *me, enum shim_point why)
{
	long step = ctl.step + 1;

	if (why == SHIM_POINT_YIELD || why == SHIM_POINT_RELAX ||
	    me != ctl.running || me->stalling || step > ctl.max_steps ||
	    step == ctl.next_change ||
	    max(me->run_len, me->fair_len) + 1 >= CTL_SLICE ||
	    ctl.now + CTL_QUANTUM_NS >= ctl.next_deadline ||
	    ctl.now + CTL_QUANTUM_NS - CTL_START_NS > ctl.max_ns)
		return 0;
	if (ctl.strategy == CTL_PCT || ctl.strategy >= CTL_EAGER)
		return ctl.stable;
	if (ctl.strategy == CTL_REPLAY)
		return ctl.next_replay >= ctl.nr_replay ||
		       ctl.replay[ctl.next_replay].step != step;
	return 0;
}

/* k/d, or @max if that is smaller */
static long below(u64 k, u64 d, long max)
{
	return max > 0 && k / d < (u64) max ? (long) (k / d) : max;
}

/*
 * Fibers, at a quiet point: how many of the points that follow are quiet
 * too, if nothing but quiet points comes first.  Each test of
 * point_is_quiet() as a count of steps: its step, its slice, its time.
 */
static long quiet_ahead(struct shim_ctl_task *me)
{
	long step = ctl.step + 1,
	     n = CTL_SLICE - max(me->run_len, me->fair_len) - 2;
	u64 now = ctl.now + CTL_QUANTUM_NS;

	if (me->stalling)
		return 0;
	if (ctl.max_steps - step < n)
		n = ctl.max_steps - step;
	/* (pct's; the others' is 0, a step that never comes) */
	if (ctl.next_change > step && ctl.next_change - step - 1 < n)
		n = ctl.next_change - step - 1;
	if (ctl.strategy == CTL_REPLAY && ctl.next_replay < ctl.nr_replay &&
	    ctl.replay[ctl.next_replay].step > step &&
	    ctl.replay[ctl.next_replay].step - step - 1 < n)
		n = ctl.replay[ctl.next_replay].step - step - 1;
	n = below(ctl.next_deadline - now - 1, CTL_QUANTUM_NS, n);
	n = below(ctl.max_ns + CTL_START_NS - now, CTL_QUANTUM_NS, n);
	return n > 0 ? n : 0;
}

/*
 * Most points are quiet, and most quiet points follow one: each of those
 * counts down what quiet_ahead() said, and only a change of state (which
 * takes ctl.lock, or makes a task runnable) has them look again.
 */
static noinline void sched_point(enum shim_point why)
{
	struct shim_ctl_task *me = ctl_self();

	if (!me || ctl.dead)
		return;
	settle();
	if (unlikely(me->stalling))
		me->demoted = 1;
	if (point_is_quiet(me, why)) {
		if (ctl.fibers)
			shim_ctl_quiet = ctl.quiet_base = quiet_ahead(me);
		ctl.step++;
		ctl.now += CTL_QUANTUM_NS;
		me->run_len++;
		me->fair_len++;
		me->own++;
		shim_ctl_io_left = CTL_POLLS;
		return;
	}
	ctl_lock();
	account_point(me);
	switch_to(me, pick(me, why), 1);
}

void shim_sched_point(enum shim_point why)
{
	if (likely(shim_ctl_quiet > 0) && why != SHIM_POINT_YIELD &&
	    why != SHIM_POINT_RELAX && likely(shim_ctl_host)) {
		shim_ctl_quiet--;
		shim_ctl_io_left = CTL_POLLS;
		return;
	}
	sched_point(why);
}

/*
 * A test of @what (a bit, a lock) that may be a busy wait's: test_bit(),
 * a failed spin_trylock(), spin_is_locked().  A loop of them alone has no
 * scheduling point, and would hold the CPU for ever while what it waits
 * for cannot run: CTL_POLLS tests of one thing in a row, with no point
 * between, are a busy wait's pause.  The same code tests as often in
 * every run, so a run stays reproducible.
 */
void shim_ctl_poll(const volatile void *what, int bit)
{
	struct shim_ctl_task *me = me_now();

	if (!me || ctl.dead)
		return;
	settle();
	if (what != me->poll_what || bit != me->poll_bit ||
	    ctl.step != me->poll_step) {
		me->poll_what = what;
		me->poll_bit = bit;
		me->poll_step = ctl.step;
		me->polls = 0;
	}
	if (++me->polls < CTL_POLLS)
		return;
	me->polls = 0;
	shim_sched_point(SHIM_POINT_RELAX);
}

/*
 * A port or memory access of the device (shim/io.c).  A loop of them
 * alone (a driver polling a status register, a handler draining a FIFO
 * that never empties) has no scheduling point: CTL_POLLS accesses in a
 * row with no point between are a busy wait's pause, as tests of a bit
 * are, so that the loop gives way to a task that would end it.  And a
 * task that makes ctl.max_io accesses with no point of its own between
 * but those pauses (SHIM_SCHED_MAX_IO; 10,000,000, ten seconds of ISA
 * bus cycles) spins for ever on a device that never changes its answer:
 * a soft lockup, reported as the hang it is, with every task and where,
 * at a count rather than after a host's seconds.  The same code makes
 * the same accesses in every run, so a run stays reproducible.
 */
void shim_ctl_io(void)
{
	struct shim_ctl_task *me = me_now();

	/* called at the CTL_POLLS-th access since the last point, of any
	 * task: the running one's, since a switch is at a point */
	shim_ctl_io_left = CTL_POLLS;
	if (!me || ctl.dead || me != ctl.running)
		return;
	settle();
	if (me->own != me->io_own) {
		me->io_own = me->own;
		me->io_run = 0;
	}
	me->io_run += CTL_POLLS;
	if (me->io_run >= ctl.max_io) {
		ctl_lock();
		ctl_fail("soft lockup: %ld device accesses by task %d with "
			 "no scheduling point between (SHIM_SCHED_MAX_IO)",
			 me->io_run, me->id);
	}
	shim_sched_point(SHIM_POINT_RELAX);
	/* the pause is the loop's own: it does not start the count again */
	me->io_own = me->own;
}

/* schedule_timeout(): the caller's next sleep in schedule() is timed. */
void shim_ctl_timed_sleep(int timed)
{
	struct shim_ctl_task *me = me_now();

	if (me)
		me->timed = timed;
}

/* --- what host.c asks of the scheduler ---------------------------------------- */

void shim_ctl_wait(volatile void *word, u32 val, s64 timeout_ns)
{
	struct shim_ctl_task *me = ctl_self();
	void *trace[CTL_TRACE];
	int depth;

	if (!me || ctl.dead) {
		shim_host_raw_wait(word, val, timeout_ns);
		return;
	}
	/* a fiber's trace is read from its stack if a report needs it */
	depth = ctl.fibers ? 0 : shim_host_backtrace(trace, CTL_TRACE);
	ctl_lock();
	/* no one else runs: the word cannot change between test and block */
	if (word &&
	    __atomic_load_n((volatile u32 *) word, __ATOMIC_ACQUIRE) != val) {
		ctl_unlock();
		return;
	}
	account_point(me);
	/*
	 * fairness: a timed sleep is a poll (schedule_timeout() in a loop);
	 * any other ends the slice, as it waits for another task
	 */
	if (timeout_ns >= 0 ||
	    (me->timed && me->tsk && word == &me->tsk->shim_wake_seq))
		give_way(me);
	me->fair_len = 0;
	me->urgent = 0; /* eager: it ran what it was given, or cannot */
	me->state = CTL_BLOCKED;
	me->word = word;
	me->deadline = timeout_ns >= 0 ? ctl.now + timeout_ns : CTL_NEVER;
	me->blocked_at = ++ctl.blocks;
	memcpy(me->trace, trace, depth * sizeof(void *));
	me->depth = depth;
	if (me->deadline < ctl.next_deadline)
		ctl.next_deadline = me->deadline;
	ctl_log("block %d%s", me->id, word ? "" : " sleep");
	switch_to(me, pick(me, SHIM_POINT_BLOCK), 1);
}

void shim_ctl_wake(volatile void *word, int nr)
{
	struct shim_ctl_task *me = ctl_self();

	if (!me || ctl.dead) {
		shim_host_raw_wake(word, nr);
		return;
	}
	ctl_lock();
	while (nr-- > 0) {
		struct shim_ctl_task *first = NULL;
		int i;

		for (i = 0; i < ctl.nr; i++) {
			struct shim_ctl_task *t = ctl.task[i];

			if (t->state == CTL_BLOCKED && t->word == word &&
			    (!first || t->blocked_at < first->blocked_at))
				first = t;
		}
		if (!first)
			break;
		ctl_log("wake %d by %d", first->id, me->id);
		make_runnable(first);
	}
	ctl_unlock();
}

u64 shim_ctl_clock_ns(void)
{
	settle(); /* fibers: only the running task reads it */
	return __atomic_load_n(&ctl.now, __ATOMIC_RELAXED);
}

/* udelay() and friends: the caller is busy for @ns, so time passes. */
void shim_ctl_delay(u64 ns)
{
	if (!me_now() || ctl.dead)
		return;
	ctl_lock();
	ctl.now += ns;
	ctl_unlock();
	shim_sched_point(SHIM_POINT_RELAX);
}

int shim_ctl_cpu(void)
{
	struct shim_ctl_task *me = me_now();

	return me ? me->cpu : 0;
}

int shim_ctl_task_id(void)
{
	struct shim_ctl_task *me = me_now();

	return me ? me->id : -1;
}

unsigned long shim_ctl_cpus(void)
{
	return ctl.ncpus >= BITS_PER_LONG ? ~0UL : (1UL << ctl.ncpus) - 1;
}

void shim_ctl_set_cpus(struct shim_ctl_task *t, unsigned long mask)
{
	if (t && mask) {
		t->cpu = __builtin_ctzl(mask);
		t->pinned = mask;
	}
}

void shim_ctl_set_task(struct task_struct *tsk)
{
	struct shim_ctl_task *me = me_now();

	if (me && tsk)
		me->tsk = tsk;
}

void shim_ctl_set_name(const char *name)
{
	struct shim_ctl_task *me = me_now();

	if (!me || !strncmp(me->name, name, sizeof(me->name) - 1))
		return;
	snprintf(me->name, sizeof(me->name), "%s", name);
	ctl_lock();
	ctl_log("name %d %s", me->id, me->name);
	ctl_unlock();
}

/* A new task, runnable but not running: the caller is about to start it. */
struct shim_ctl_task *shim_ctl_register(const char *name)
{
	struct shim_ctl_task *t = shim_host_zalloc(sizeof(*t));

	if (!t)
		shim_host_bug("calloc", ENOMEM);
	snprintf(t->name, sizeof(t->name), "%s", name);
	make_runnable(t);
	ctl_lock();
	if (ctl.nr == CTL_MAX_TASKS)
		ctl_fail("more than %d tasks in a controlled run",
			 CTL_MAX_TASKS);
	t->id = ctl.nr;
	ctl.task[ctl.nr++] = t;
	t->cpu = ctl.next_cpu++ % ctl.ncpus;
	/* pct: a random place among the tasks not lowered yet */
	t->prio = CTL_PRIO_START + rnd_below(1ULL << 40);
	ctl.stable = 0;
	ctl_log("spawn %d %s cpu %d", t->id, t->name, t->cpu);
	ctl_unlock();
	return t;
}

/* In the new thread: wait for the first turn. */
void shim_ctl_begin(struct shim_ctl_task *t)
{
	ctl_me = t;
	wait_turn(t);
}

/* A thread the shim did not start asks for a task: it joins the run. */
void shim_ctl_adopt(const char *name)
{
	if (!shim_controlled || ctl.fibers || ctl_me)
		return;
	shim_ctl_begin(shim_ctl_register(name));
}

/* The caller's thread ends: it never runs again. */
void shim_ctl_exit(void)
{
	struct shim_ctl_task *me = me_now();

	if (!me)
		return;
	ctl_me = NULL;
	if (ctl.dead)
		return;
	ctl_lock();
	account_point(me);
	me->urgent = 0;
	me->state = CTL_EXITED;
	ctl_log("exit %d", me->id);
	switch_to(me, pick(me, SHIM_POINT_EXIT), 0);
}

/* A BUG, an oops or a panic in a controlled run: how to see it again. */
void shim_ctl_crash(void)
{
	if (!shim_controlled || ctl.dead)
		return;
	end_quiet();
	ctl.dead = 1;
	ctl_log("fail crash");
	log_flush();
	sites_flush();
	shim_ctl_print_replay();
}

/*
 * The task that runs the works of @queue: the one named as it (a
 * workqueue's worker "events/0", keventd), ksoftirqd for the task queues
 * bottom halves run; NULL for a queue no task serves (a driver's own).
 */
static struct shim_ctl_task *server_of(const char *queue)
{
	const char *name = queue;
	int i;

	if (!strcmp(queue, "tq_immediate") || !strcmp(queue, "tq_timer"))
		name = "ksoftirqd/0";
	for (i = 0; i < ctl.nr; i++) {
		struct shim_ctl_task *t = ctl.task[i];

		if (t->state != CTL_EXITED &&
		    !strncmp(t->tsk ? t->tsk->comm : t->name, name,
			     sizeof(t->name)))
			return t;
	}
	return NULL;
}

/* Called with ctl.lock held: what eager and lazy learn from a work event. */
static void note_work(struct shim_ctl_task *me, int ev, const char *queue)
{
	struct shim_ctl_task *s;

	if (ev == SHIM_WORK_EXECUTE_START && !me->server) {
		me->server = 1;
		ctl.stable = 0;
	}
	if (ev != SHIM_WORK_QUEUE || !(s = server_of(queue)) || s == me)
		return;
	if (!s->server) {
		s->server = 1;
		ctl.stable = 0;
	}
	if (ctl.strategy == CTL_EAGER) {
		if (!s->urgent)
			s->urgent = ++ctl.urgent_clock;
		ctl.stable = 0; /* it runs at the queuer's next point */
	}
}

/*
 * The work tracepoints, in the schedule log (routine names, no addresses),
 * and for eager and lazy, who serves which queue.
 */
void shim_ctl_trace_work(int ev, void (*routine)(void *), const char *queue)
{
	static const char *const what[] = { "queue", "start", "end" };
	char sym[128];
	struct shim_ctl_task *me = me_now();
	int learn = ctl.strategy == CTL_EAGER || ctl.strategy == CTL_LAZY;
	int stall = 0;

	if ((ctl.log_fd < 0 && !learn && !ctl.stall[0]) || !me || ctl.dead)
		return;
	if ((ctl.log_fd >= 0 || ctl.stall[0]) &&
	    !shim_symbol((unsigned long) routine, sym, sizeof(sym)))
		snprintf(sym, sizeof(sym), "?");
	/* a replay of a stall run stalls where the run did, as a point */
	if (ctl.stall[0] && ev == SHIM_WORK_EXECUTE_START && !preempt_count() &&
	    !strcmp(sym, ctl.stall) &&
	    (++ctl.starts == ctl.stall_nth || !ctl.stall_nth))
		stall = 1;
	if (ev == SHIM_WORK_EXECUTE_END && me->stalling) {
		ctl_lock();
		me->stalling = 0;
		me->demoted = 0;
		ctl.stalling--;
		ctl.stable = 0;
		ctl_unlock();
	}
	ctl_lock();
	if (learn)
		note_work(me, ev, queue);
	if (ctl.log_fd >= 0)
		ctl_log("work %s %s %s by %d", what[ev], sym, queue, me->id);
	if (stall) {
		/* it gives way to everything else, at each point till its end */
		if (!ctl.stalling++)
			ctl.stall_until = ctl.now + CTL_STALL_NS;
		me->stalling = 1;
		me->demoted = 1;
		ctl.stable = 0;
		account_point(me);
		ctl_log("stalled %s in %d", ctl.stall, me->id);
		switch_to(me, pick(me, SHIM_POINT_YIELD), 1);
		return;
	}
	ctl_unlock();
}

/* Called with ctl.lock held: count a pass at @site. */
static void note_site(const char *site, const char *func)
{
	int i;

	for (i = 0; i < ctl.nr_sites; i++)
		if (ctl.sites[i].site == site ||
		    !strcmp(ctl.sites[i].site, site))
			break;
	if (i == ctl.nr_sites) {
		if (i == CTL_MAX_SITES)
			return;
		ctl.sites[i].site = site;
		ctl.sites[i].func = func;
		ctl.nr_sites++;
	}
	ctl.sites[i].calls++;
}

/*
 * A queueing call at @site (shim/site.h), in @func, has returned in the
 * running task.  Under the systematic strategies (and the replay of one)
 * that is a scheduling point: eager's worker may be runnable by now, and
 * preempt:SITE makes the queuer give way here.
 */
void shim_ctl_queued(const char *site, const char *func)
{
	struct shim_ctl_task *me;
	int preempt;

	if (ctl.dead ||
	    (!ctl.queue_points && !ctl.sites_file && ctl.log_fd < 0))
		return;
	/* only a point adopts a thread the shim did not start, as before */
	me = ctl.queue_points ? ctl_self() : me_now();
	if (!me)
		return;
	ctl_lock();
	note_site(site, func);
	if (!ctl.queue_points) {
		ctl_log("queued %s by %d", site, me->id);
		ctl_unlock();
		return;
	}
	/* a replay logs them too, but its decisions are the log's */
	preempt = ctl.site[0] && !strcmp(site, ctl.site);
	account_point(me);
	ctl_log("queued %s by %d%s", site, me->id, preempt ? " preempt" : "");
	if (preempt) {
		me->demoted = 1;
		ctl.preempts++;
		ctl.stable = 0;
	}
	switch_to(me, pick(me, SHIM_POINT_QUEUED), 1);
}

static void ctl_at_exit(void)
{
	settle();
	if (ctl.dead)
		return;
	if (ctl.site[0])
		ctl_log("preempted %ld times at %s", ctl.preempts, ctl.site);
	ctl_log("end %ld steps %ld decisions %d tasks", ctl.step, ctl.decisions,
		ctl.nr);
	log_flush();
	sites_flush();
}

/* --- the setting ---------------------------------------------------------------- */

static void __attribute__((noreturn))
bad_setting(const char *name, const char *value, const char *why)
{
	char msg[512];
	int n;

	n = snprintf(msg, sizeof(msg), "shim: %s=%s: %s\n", name, value, why);
	shim_console_write(msg, n);
	shim_host_exit(2);
}

static unsigned long long number(const char **p, const char *value)
{
	char *end;
	unsigned long long n = simple_strtoul(*p, &end, 10);

	if (end == *p)
		bad_setting("SHIM_SCHED", value, "a number is missing");
	*p = end;
	return n;
}

/* Read the decisions ("<step> <us> D <from> <to> ...") of a schedule log. */
/* stall:ROUTINE[:N]: the routine's name, and at which of its starts */
static void parse_stall(const char *p, const char *value)
{
	size_t len = 0;

	while (p[len] && p[len] != ':' && p[len] != '\n')
		len++;
	if (!len || len >= sizeof(ctl.stall) || memchr(p, ' ', len))
		bad_setting("SHIM_SCHED", value,
			    "stall:ROUTINE[:N] wants a work routine's name");
	memcpy(ctl.stall, p, len);
	ctl.stall[len] = 0;
	ctl.stall_nth = 0;
	p += len;
	if (*p == ':') {
		p++;
		ctl.stall_nth = number(&p, value);
		if (ctl.stall_nth < 1)
			bad_setting("SHIM_SCHED", value,
				    "stall:ROUTINE:N counts starts from 1");
	}
	if (*p && *p != '\n')
		bad_setting("SHIM_SCHED", value, "unexpected text after N");
}

static void parse_replay(const char *file, const char *value)
{
	size_t len, cap = 0;
	char *text = shim_host_read_file(file, &len);
	const char *p, *spec;

	if (!text)
		bad_setting("SHIM_SCHED", value, "cannot read the log file");
	spec = strstr(text, "# SHIM_SCHED=");
	if (!spec)
		bad_setting("SHIM_SCHED", value,
			    "not a schedule log (no '# SHIM_SCHED=' line)");
	ctl.strategy = CTL_REPLAY;
	/* a systematic run's queueing calls were points: they are again */
	spec += 13;
	ctl.queue_points =
		!strncmp(spec, "eager\n", 6) || !strncmp(spec, "lazy\n", 5) ||
		!strncmp(spec, "preempt:", 8) || !strncmp(spec, "stall:", 6);
	/* its stall was a point: it is again */
	if (!strncmp(spec, "stall:", 6))
		parse_stall(spec + 6, value);
	if (!strncmp(spec, "preempt:", 8)) {
		/* to log its preemptions as the run did */
		const char *end = strchr(spec + 8, '\n');

		if (end && end - spec - 8 < (long) sizeof(ctl.site))
			memcpy(ctl.site, spec + 8, end - spec - 8);
	}
	p = strstr(text, "# SHIM_CPUS=");
	if (p)
		ctl.replay_cpus = simple_strtol(p + 12, NULL, 10);
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *q;
		long step;
		int from, to;

		/* not sscanf: it measures the rest of the text at each call */
		step = simple_strtol(p, &q, 10);
		if (q == p || *q++ != ' ')
			continue;
		simple_strtoul(q, &q, 10);
		if (strncmp(q, " D ", 3))
			continue;
		from = simple_strtol(q + 3, &q, 10);
		to = simple_strtol(q + 1, &q, 10);
		if (ctl.nr_replay == (long) cap) {
			cap = cap ? 2 * cap : 1024;
			ctl.replay = shim_host_realloc(
				ctl.replay, cap * sizeof(*ctl.replay));
			if (!ctl.replay)
				shim_host_bug("realloc", ENOMEM);
		}
		ctl.replay[ctl.nr_replay].step = step;
		ctl.replay[ctl.nr_replay].from = from;
		ctl.replay[ctl.nr_replay].to = to;
		ctl.nr_replay++;
	}
	shim_host_free(text);
}

static void parse(const char *value)
{
	const char *p = value;

	if (!strncmp(p, "random:", 7)) {
		p += 7;
		ctl.strategy = CTL_RANDOM;
		ctl.seed = number(&p, value);
	} else if (!strncmp(p, "pct:", 4)) {
		p += 4;
		ctl.strategy = CTL_PCT;
		ctl.seed = number(&p, value);
		ctl.depth = CTL_DEFAULT_DEPTH;
		ctl.steps = CTL_DEFAULT_STEPS;
		if (*p == ':') {
			p++;
			ctl.depth = number(&p, value);
		}
		if (*p == ':') {
			p++;
			ctl.steps = number(&p, value);
		}
		if (ctl.depth < 1 || ctl.depth > CTL_MAX_DEPTH || ctl.steps < 1)
			bad_setting("SHIM_SCHED", value,
				    "DEPTH must be 1 to 16 and STEPS at "
				    "least 1");
	} else if (!strncmp(p, "replay:", 7)) {
		parse_replay(p + 7, value);
		p += strlen(p);
	} else if (!strcmp(p, "eager") || !strcmp(p, "lazy")) {
		ctl.strategy = *p == 'e' ? CTL_EAGER : CTL_LAZY;
		ctl.queue_points = 1;
		p += strlen(p);
	} else if (!strncmp(p, "preempt:", 8)) {
		p += 8;
		if (!*p || strlen(p) >= sizeof(ctl.site) || strchr(p, ' '))
			bad_setting(
				"SHIM_SCHED", value,
				"preempt:SITE wants a queueing call site, "
				"file.c:LINE (SHIM_SCHED_SITES lists them)");
		snprintf(ctl.site, sizeof(ctl.site), "%s", p);
		ctl.strategy = CTL_PREEMPT;
		ctl.queue_points = 1;
		p += strlen(p);
	} else if (!strncmp(p, "stall:", 6)) {
		parse_stall(p + 6, value);
		ctl.strategy = CTL_STALL;
		ctl.queue_points = 1;
		p += strlen(p);
	} else {
		bad_setting("SHIM_SCHED", value,
			    "expected free, random:SEED, "
			    "pct:SEED[:DEPTH[:STEPS]], eager, lazy, "
			    "preempt:SITE, stall:ROUTINE or replay:FILE");
	}
	if (*p)
		bad_setting("SHIM_SCHED", value,
			    "unexpected text after the numbers");
}

static long env_long(const char *name, long def, long min, long max)
{
	const char *s = shim_getenv(name);
	char *end;
	long n;

	if (!s || !*s)
		return def;
	n = simple_strtol(s, &end, 10);
	if (*end || n < min || n > max)
		bad_setting(name, s, "not a number in range");
	return n;
}

/*
 * At boot, before anything else of the shim: the calling thread (the
 * program's main) becomes task 0 and holds the CPU.
 */
void shim_ctl_init(void)
{
	const char *value = shim_getenv("SHIM_SCHED");
	const char *log;
	struct shim_ctl_task *t;
	int i;

	if (!value || !*value || !strcmp(value, "free"))
		return;
	parse(value);
	ctl.ncpus = env_long("SHIM_CPUS", ctl.replay_cpus ? ctl.replay_cpus : 2,
			     1, NR_CPUS);
	ctl.max_steps =
		env_long("SHIM_SCHED_MAX_STEPS", CTL_MAX_STEPS, 1, LONG_MAX);
	ctl.max_io = env_long("SHIM_SCHED_MAX_IO", CTL_MAX_IO, 1, LONG_MAX);
	ctl.max_ns = env_long("SHIM_SCHED_MAX_SECONDS", CTL_MAX_SECONDS, 1,
			      1000000) *
		     1000000000ULL;
	ctl.now = CTL_START_NS;
	ctl.rng = ctl.seed;
	ctl.floor = CTL_PRIO_CHANGED;
	if (ctl.strategy == CTL_PCT) {
		snprintf(ctl.spec, sizeof(ctl.spec), "pct:%llu:%d:%ld",
			 (unsigned long long) ctl.seed, ctl.depth, ctl.steps);
		ctl.nr_change = ctl.depth - 1;
		ctl.next_change = LONG_MAX;
		for (i = 0; i < ctl.nr_change; i++) {
			ctl.change_step[i] = 1 + rnd_below(ctl.steps);
			ctl.change_prio[i] = CTL_PRIO_CHANGED + i + 1;
			if (ctl.change_step[i] < ctl.next_change)
				ctl.next_change = ctl.change_step[i];
		}
	} else if (ctl.strategy == CTL_RANDOM) {
		snprintf(ctl.spec, sizeof(ctl.spec), "random:%llu",
			 (unsigned long long) ctl.seed);
	} else if (ctl.strategy == CTL_PREEMPT) {
		snprintf(ctl.spec, sizeof(ctl.spec), "preempt:%s", ctl.site);
	} else if (ctl.strategy == CTL_STALL) {
		snprintf(ctl.spec, sizeof(ctl.spec), "%s", value);
	} else {
		snprintf(ctl.spec, sizeof(ctl.spec), "%s", value);
	}
	value = shim_getenv("SHIM_SCHED_SITES");
	if (value && *value)
		ctl.sites_file = value;
	log = shim_getenv("SHIM_SCHED_LOG");
	if (log && *log) {
		char cmd[1024];
		int n;

		ctl.log_fd = shim_host_create_file(log);
		if (ctl.log_fd < 0)
			bad_setting("SHIM_SCHED_LOG", log,
				    "cannot create the file");
		shim_host_cmdline(cmd, sizeof(cmd));
		n = snprintf(ctl_log_buf, sizeof(ctl_log_buf),
			     "# shim schedule log\n"
			     "# SHIM_SCHED=%s\n# SHIM_CPUS=%d\n# %s\n",
			     ctl.spec, ctl.ncpus, cmd);
		ctl.log_len = n;
	}
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
	/* a sanitizer does not follow a stack switch it was not told of */
	ctl.fibers = !env_long("SHIM_SCHED_THREADS", 0, 0, 1);
#endif
	shim_controlled = 1;
	shim_fibers = ctl.fibers;
	t = shim_ctl_register("main");
	ctl_me = t;
	shim_ctl_host = 1;
	ctl.running = t;
	if (ctl.fibers)
		t->fiber = shim_host_fiber_self();
	shim_host_atexit(ctl_at_exit);
}

int shim_sched_is_controlled(void)
{
	return shim_controlled;
}

void shim_sched_print_replay(void)
{
	shim_ctl_print_replay();
}
