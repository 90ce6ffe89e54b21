/*
 * host.c - what the sandbox's kernel asks of its host (see host.h): the
 * only file that calls pthreads, futexes, the clock, signals and the
 * allocator.
 */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <limits.h>
#include <malloc.h>
#include <stdarg.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <urcu/futex.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include "shim.h"
#include <shim/point.h>

/*
 * Every futex word of the shim lives in this process: the private flag
 * spares the host kernel the lookup a shared futex needs on every wait and
 * wake.
 */
#define FUTEX_PRIVATE 128 /* FUTEX_PRIVATE_FLAG */

#define MUTEX_SPINS 100 /* polls before a contended host mutex sleeps */

struct shim_thread {
	pthread_t thread;
	void (*fn)(void *);
	void *arg;
	void (*at_exit)(void *); /* adopted threads: let their task go */
	int joinable;
	unsigned int *started;	   /* futex word, the creator's: it runs */
	unsigned int ended;	   /* futex word: fn has returned */
	struct shim_ctl_task *ctl; /* its task in a controlled run */
	char name[16];
};

static __thread struct shim_thread *self;
static pthread_key_t adopted_key;
static pthread_once_t adopted_once = PTHREAD_ONCE_INIT;

/* --- failure -------------------------------------------------------------- */

void shim_host_fail(const char *call, int err, const char *func)
{
	printk(KERN_EMERG "BUG: host call %s failed in %s: %s\n", call, func,
	       strerror(err));
	BUG();
}

/*
 * What the simulated world has to say before a fault or a BUG ends the
 * run (drivers/world/device.c: what the device saw): defined there, if
 * linked.  A run of a batch ends without the signal's handlers.
 */
extern void shim_fault_last_words(void) __attribute__((weak));

static void batch_last_words(void)
{
	if (shim_fault_last_words)
		shim_fault_last_words();
}

static int batch_running(void);

/* gcov's counters, in a program built with them (the demo's coverage) */
extern void __gcov_dump(void) __attribute__((weak));

/*
 * A BUG or a panic ends the program as the kernel ended: what it ran up
 * to there is still written, so that the demo's coverage counts a path
 * that ends in a panic (2.4's serial.c, unable to register) as reached.
 */
void shim_host_abort(void)
{
	if (batch_running())
		batch_last_words();
	shim_host_batch_died(SIGABRT);
	if (__gcov_dump)
		__gcov_dump();
	abort();
}

void shim_host_exit(int status)
{
	exit(status);
}

void shim_host_atexit(void (*fn)(void))
{
	if (atexit(fn))
		shim_host_bug("atexit", ENOMEM);
}

/* --- blocking ------------------------------------------------------------- */

void shim_host_raw_wait(volatile void *word, u32 val, s64 timeout_ns)
{
	struct timespec ts, *timeout = NULL;

	if (timeout_ns >= 0) {
		ts.tv_sec = timeout_ns / 1000000000LL;
		ts.tv_nsec = timeout_ns % 1000000000LL;
		timeout = &ts;
	}
	if (futex_noasync((int32_t *) word, FUTEX_WAIT | FUTEX_PRIVATE,
			  (int32_t) val, timeout, NULL, 0) &&
	    errno != EAGAIN && errno != EINTR && errno != ETIMEDOUT)
		shim_host_bug("futex(FUTEX_WAIT)", errno);
}

void shim_host_raw_wake(volatile void *word, int nr)
{
	if (futex_noasync((int32_t *) word, FUTEX_WAKE | FUTEX_PRIVATE, nr,
			  NULL, NULL, 0) < 0)
		shim_host_bug("futex(FUTEX_WAKE)", errno);
}

void shim_host_wait(volatile void *word, u32 val, s64 timeout_ns)
{
	if (unlikely(shim_controlled))
		shim_ctl_wait(word, val, timeout_ns);
	else
		shim_host_raw_wait(word, val, timeout_ns);
}

void shim_host_wake(volatile void *word, int nr)
{
	if (unlikely(shim_controlled))
		shim_ctl_wake(word, nr);
	else
		shim_host_raw_wake(word, nr);
}

void shim_yield(void)
{
	if (unlikely(shim_controlled))
		shim_sched_point(SHIM_POINT_YIELD);
	else
		sched_yield();
}

static inline int mutex_cmpxchg(struct shim_mutex *m, unsigned int old,
				unsigned int new)
{
	return __atomic_compare_exchange_n(&m->word, &old, new, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* 0 free, 1 held, 2 held and maybe slept on: unlock wakes only then. */
void shim_mutex_lock(struct shim_mutex *m)
{
	int i;

	if (likely(mutex_cmpxchg(m, 0, 1)))
		goto out;
	/* in a controlled run the holder cannot run while we spin */
	for (i = 0; i < MUTEX_SPINS && !shim_controlled; i++) {
		__builtin_ia32_pause();
		if (__atomic_load_n(&m->word, __ATOMIC_RELAXED) == 0 &&
		    mutex_cmpxchg(m, 0, 1))
			goto out;
	}
	while (__atomic_exchange_n(&m->word, 2, __ATOMIC_ACQUIRE) != 0)
		shim_host_wait(&m->word, 2, -1);
out:
	shim_tsan_acquire(m);
}

int shim_mutex_trylock(struct shim_mutex *m)
{
	if (!mutex_cmpxchg(m, 0, 1))
		return 0;
	shim_tsan_acquire(m);
	return 1;
}

void shim_mutex_unlock(struct shim_mutex *m)
{
	shim_tsan_release(m);
	if (__atomic_exchange_n(&m->word, 0, __ATOMIC_RELEASE) == 2)
		shim_host_wake(&m->word, 1);
}

#ifdef __SANITIZE_THREAD__
extern void AnnotateIgnoreReadsBegin(const char *file, int line);
extern void AnnotateIgnoreReadsEnd(const char *file, int line);
extern void AnnotateIgnoreWritesBegin(const char *file, int line);
extern void AnnotateIgnoreWritesEnd(const char *file, int line);
#endif

/*
 * The same lock for the shim's own bookkeeping (the debug registry, kmalloc's
 * accounting, the log, a monitor's tables), which ThreadSanitizer must not
 * see: what it orders is not the kernel's, and an order it showed would
 * hide a race between two routines that both happen to kmalloc or printk.
 * Its critical section is not checked either: it is host code.
 */
void shim_mutex_lock_unseen(struct shim_mutex *m)
{
#ifdef __SANITIZE_THREAD__
	AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
	AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
	while (!mutex_cmpxchg(m, 0, 1))
		shim_host_wait(&m->word, 1, 100000);
#else
	shim_mutex_lock(m);
#endif
}

void shim_mutex_unlock_unseen(struct shim_mutex *m)
{
#ifdef __SANITIZE_THREAD__
	__atomic_store_n(&m->word, 0, __ATOMIC_RELEASE);
	AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
	AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
#else
	shim_mutex_unlock(m);
#endif
}

/* --- threads -------------------------------------------------------------- */

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };

/* A thread's own faults are its oopses: never blocked (traps). */
static void unblock_faults(void)
{
	sigset_t set;
	unsigned int i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(fault_signals); i++)
		sigaddset(&set, fault_signals[i]);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/*
 * The thread's last act on the shim: it is the joiner's now, or freed.  In
 * a controlled run it hands the CPU on for good (a fiber never returns).
 */
static void thread_end(struct shim_thread *t)
{
	int joinable = t->joinable;

	self = NULL;
	__atomic_store_n(&t->ended, 1, __ATOMIC_RELEASE);
	if (unlikely(shim_controlled)) {
		if (joinable)
			shim_ctl_wake(&t->ended, INT_MAX);
		else
			free(t);
		shim_ctl_exit();
		return;
	}
	if (!joinable)
		free(t);
}

/* A thread of a controlled run that runs as a fiber: no host thread. */
static void fiber_main(void *p)
{
	struct shim_thread *t = p;

	self = t;
	t->fn(t->arg);
	thread_end(t);
}

static void *thread_main(void *p)
{
	struct shim_thread *t = p;

	t->thread = pthread_self();
	self = t;
	unblock_faults();
	shim_thread_set_name(t->name);
	/*
	 * The creator returns once the thread has its host identity.  The
	 * word is on its stack: a wake that comes after it has seen the store
	 * and gone is spurious, which every waiter allows for.
	 */
	__atomic_store_n(t->started, 1, __ATOMIC_RELEASE);
	shim_host_raw_wake(t->started, 1);
	if (t->ctl)
		shim_ctl_begin(t->ctl);

	t->fn(t->arg);
	thread_end(t);
	return NULL;
}

int shim_thread_create(struct shim_thread **threadp, const char *name,
		       void (*fn)(void *), void *arg, int joinable)
{
	struct shim_thread *t = calloc(1, sizeof(*t));
	unsigned int started = 0;
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t thread;
	int err;

	if (threadp)
		*threadp = t;
	if (!t)
		return -ENOMEM;
	t->fn = fn;
	t->arg = arg;
	t->joinable = joinable;
	t->started = &started;
	snprintf(t->name, sizeof(t->name), "%s", name);
	if (unlikely(shim_controlled)) {
		t->ctl = shim_ctl_register(t->name);
		/* one host thread runs them all, one at a time: no thread at all */
		if (shim_ctl_fibers()) {
			err = shim_ctl_start_fiber(t->ctl, fiber_main, t);
			if (err) {
				if (threadp)
					*threadp = NULL;
				free(t);
				return err;
			}
			shim_point(SHIM_POINT_KTHREAD);
			return 0;
		}
	}

	/*
	 * Threads of the shim take no host signals: a SIGCHLD or SIGINT is
	 * the host program's (the seed's keventd reaped children on SIGCHLD;
	 * here that would steal the program's own).
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_attr_init(&attr);
	if (err)
		shim_host_bug("pthread_attr_init", err);
	pthread_attr_setdetachstate(&attr, joinable ? PTHREAD_CREATE_JOINABLE :
						      PTHREAD_CREATE_DETACHED);
	err = pthread_create(&thread, &attr, thread_main, t);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		if (threadp)
			*threadp = NULL;
		free(t);
		return -err;
	}
	/* t is the thread's now, freed by it at its end if detached */
	while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		shim_host_raw_wait(&started, 0, -1);
	shim_point(SHIM_POINT_KTHREAD);
	return 0;
}

void shim_thread_join(struct shim_thread *t)
{
	int err;

	/* in a controlled run the joiner waits its turn, not in the host */
	while (shim_controlled && !__atomic_load_n(&t->ended, __ATOMIC_ACQUIRE))
		shim_host_wait(&t->ended, 0, -1);
	if (shim_controlled && shim_ctl_fibers()) {
		free(t);
		return;
	}
	err = pthread_join(t->thread, NULL);

	if (err)
		shim_host_bug("pthread_join", err);
	free(t);
}

struct shim_thread *shim_thread_start(const char *name, void (*fn)(void *),
				      void *arg)
{
	struct shim_thread *t;
	int err = shim_thread_create(&t, name, fn, arg, 1);

	if (err)
		shim_host_bug("pthread_create", -err);
	return t;
}

void shim_thread_exit(void)
{
	if (self)
		thread_end(self);
	else if (shim_controlled)
		shim_ctl_exit();
	pthread_exit(NULL);
}

struct shim_thread *shim_thread_self(void)
{
	return self;
}

void shim_thread_set_self(struct shim_thread *t)
{
	self = t;
}

static void adopted_thread_end(void *p)
{
	struct shim_thread *t = p;

	t->at_exit(t->arg);
	if (shim_controlled)
		shim_ctl_exit();
	free(t);
}

static void make_adopted_key(void)
{
	int err = pthread_key_create(&adopted_key, adopted_thread_end);

	if (err)
		shim_host_bug("pthread_key_create", err);
}

struct shim_thread *shim_thread_adopt(void (*at_exit)(void *), void *arg)
{
	struct shim_thread *t = calloc(1, sizeof(*t));
	int err;

	if (!t)
		shim_host_bug("calloc", ENOMEM);
	pthread_once(&adopted_once, make_adopted_key);
	t->thread = pthread_self();
	t->at_exit = at_exit;
	t->arg = arg;
	t->joinable = 1; /* the host joins it, if anyone: never freed here */
	pthread_getname_np(t->thread, t->name, sizeof(t->name));
	/* in a controlled run, a thread from outside joins the run here */
	shim_ctl_adopt(t->name);
	err = pthread_setspecific(adopted_key, t);
	if (err)
		shim_host_bug("pthread_setspecific", err);
	self = t;
	return t;
}

void shim_thread_set_name(const char *name)
{
	char buf[16];

	/* the host keeps 15 characters; the kernel's comm has 16 with NUL */
	snprintf(buf, sizeof(buf), "%.15s", name);
	if (unlikely(shim_controlled)) {
		shim_ctl_set_name(buf);
		if (shim_ctl_fibers())
			return; /* fibers share the one host thread */
	}
	pthread_setname_np(pthread_self(), buf);
}

void shim_thread_get_name(char *buf, size_t len)
{
	if (pthread_getname_np(pthread_self(), buf, len))
		snprintf(buf, len, "host");
}

int shim_thread_set_cpus(struct shim_thread *t, unsigned long mask)
{
	cpu_set_t set;
	int cpu;

	if (unlikely(shim_controlled)) {
		shim_ctl_set_cpus(t ? t->ctl : NULL, mask);
		return 0;
	}
	CPU_ZERO(&set);
	for (cpu = 0; cpu < (int) (8 * sizeof(mask)); cpu++)
		if (mask & (1UL << cpu))
			CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(t->thread, sizeof(set), &set);
}

unsigned long shim_host_cpus(void)
{
	unsigned long mask = 0;
	cpu_set_t set;
	int cpu;

	/* a controlled run has the CPUs it was given, whatever the machine */
	if (unlikely(shim_controlled))
		return shim_ctl_cpus();

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < (int) (8 * sizeof(mask)); cpu++)
		if (CPU_ISSET(cpu, &set))
			mask |= 1UL << cpu;
	return mask;
}

int shim_host_cpu(void)
{
	if (unlikely(shim_controlled))
		return shim_ctl_cpu();
	return sched_getcpu();
}

int shim_gettid(void)
{
	/* in a controlled run, the task's number: the same in every replay */
	if (unlikely(shim_controlled))
		return shim_ctl_task_id() + 1;
	return (int) syscall(SYS_gettid);
}

/* --- time ----------------------------------------------------------------- */

u64 shim_clock_ns(void)
{
	struct timespec ts;

	if (unlikely(shim_controlled))
		return shim_ctl_clock_ns();
	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		shim_host_bug("clock_gettime", errno);
	return (u64) ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void shim_sleep_ns(u64 ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	if (unlikely(shim_controlled)) {
		shim_ctl_wait(NULL, 0, ns);
		return;
	}
	while (nanosleep(&ts, &ts))
		if (errno != EINTR)
			shim_host_bug("nanosleep", errno);
}

/* --- memory, console, settings -------------------------------------------- */

void *shim_host_alloc(size_t size, size_t align)
{
	void *p;

	if (align <= sizeof(void *))
		return malloc(size);
	return posix_memalign(&p, align, size) ? NULL : p;
}

void *shim_host_zalloc(size_t size)
{
	return calloc(1, size);
}

void shim_host_free(void *p)
{
	free(p);
}

void *shim_host_realloc(void *p, size_t size)
{
	return realloc(p, size);
}

void shim_console_write(const char *text, size_t len)
{
	while (len) {
		ssize_t n = write(STDERR_FILENO, text, len);

		if (n <= 0)
			return;
		text += n;
		len -= n;
	}
}

const char *shim_getenv(const char *name)
{
	return getenv(name);
}

/* --- fibers ------------------------------------------------------------------ */

/*
 * Tasks of a controlled run as fibers: each has its own stack, and they
 * all run on the host thread that booted, one at a time, switching where
 * the scheduler says.  A switch is a register save and restore
 * (_setjmp/_longjmp, no signal mask to change); a fiber's first start
 * goes through its ucontext.  Far cheaper than handing a CPU from one host
 * thread to another, which is what lets exploration try many schedules.
 */
#define FIBER_STACK (1UL << 20) /* reserved; the host backs what is used */

struct shim_fiber {
	jmp_buf regs;
	ucontext_t start;
	int started;
	void *stack;
	void (*fn)(void *);
	void *arg;
};

static struct shim_fiber *fiber_starting;

static void fiber_trampoline(void)
{
	struct shim_fiber *f = fiber_starting;

	f->fn(f->arg);
	/* a fiber's end switches away for good: never back here */
	shim_host_bug("fiber returned", EINVAL);
}

struct shim_fiber *shim_host_fiber_self(void)
{
	struct shim_fiber *f = calloc(1, sizeof(*f));

	if (!f)
		shim_host_bug("calloc", ENOMEM);
	f->started = 1; /* it runs: the thread that asked */
	return f;
}

int shim_host_fiber_create(struct shim_fiber **fp, void (*fn)(void *),
			   void *arg)
{
	struct shim_fiber *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	/*
	 * A batch's run reuses the stacks of the run before: no new pages,
	 * and their guard is there already (shim_host_batch_stack()).
	 */
	f->stack = shim_host_batch_stack(FIBER_STACK);
	if (!f->stack) {
		f->stack = mmap(NULL, FIBER_STACK, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
					MAP_STACK,
				-1, 0);
		if (f->stack == MAP_FAILED) {
			free(f);
			return -ENOMEM;
		}
		/* the lowest page is a guard: an overflow faults, not corrupts */
		mprotect(f->stack, 4096, PROT_NONE);
	}
	f->fn = fn;
	f->arg = arg;
	if (getcontext(&f->start))
		shim_host_bug("getcontext", errno);
	f->start.uc_stack.ss_sp = f->stack;
	f->start.uc_stack.ss_size = FIBER_STACK;
	f->start.uc_link = NULL;
	makecontext(&f->start, fiber_trampoline, 0);
	*fp = f;
	return 0;
}

/* Run @to; come back here when something switches to @from again. */
void shim_host_fiber_switch(struct shim_fiber *from, struct shim_fiber *to)
{
	if (from && _setjmp(from->regs))
		return;
	if (!to->started) {
		to->started = 1;
		fiber_starting = to;
		setcontext(&to->start);
		shim_host_bug("setcontext", errno);
	}
	_longjmp(to->regs, 1);
}

/* Let a fiber that has ended go; not the one running. */
void shim_host_fiber_free(struct shim_fiber *f)
{
	if (f->stack && !shim_host_batch_owns(f->stack))
		munmap(f->stack, FIBER_STACK);
	free(f);
}

/* --- files and the process ------------------------------------------------- */

char *shim_host_read_file(const char *path, size_t *len)
{
	size_t cap = 1 << 16, used = 0;
	char *buf = malloc(cap + 1), *bigger;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf)
		goto fail;
	while ((n = read(fd, buf + used, cap - used)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		used += n;
		if (used == cap) {
			cap *= 2;
			bigger = realloc(buf, cap + 1);
			if (!bigger)
				goto fail;
			buf = bigger;
		}
	}
	close(fd);
	buf[used] = '\0';
	*len = used;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* The whole of file @path mapped read-only, never unmapped; NULL if not. */
const char *shim_host_map_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p = MAP_FAILED;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0)
		p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*len = st.st_size;
	return p;
}

int shim_host_create_file(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

void shim_host_fd_write(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= n;
	}
}

void shim_host_fd_close(int fd)
{
	close(fd);
}

/* Quote a word for a shell if it needs it. */
static size_t quote(char *out, size_t len, const char *word)
{
	size_t n = 0;
	const char *p;

	if (word[0] && !word[strcspn(word, " \t\n'\"\\$`|&;<>()*?[]#~!{}")])
		return snprintf(out, len, "%s", word);
	n += snprintf(out + n, len > n ? len - n : 0, "'");
	for (p = word; *p; p++) {
		if (*p == '\'')
			n += snprintf(out + n, len > n ? len - n : 0, "'\\''");
		else
			n += snprintf(out + n, len > n ? len - n : 0, "%c", *p);
	}
	n += snprintf(out + n, len > n ? len - n : 0, "'");
	return n;
}

void shim_host_cmdline(char *buf, size_t len)
{
	size_t n, used = 0, i;
	char *text = shim_host_read_file("/proc/self/cmdline", &n);

	buf[0] = '\0';
	if (!text)
		return;
	for (i = 0; i < n && used < len; i += strlen(text + i) + 1) {
		if (used)
			used += snprintf(buf + used, len - used, " ");
		if (used < len)
			used += quote(buf + used, len - used, text + i);
	}
	free(text);
}

int shim_host_backtrace(void **trace, int depth)
{
	return backtrace(trace, depth);
}

/* --- batches: many schedules, one exec --------------------------------------- */

/*
 * SHIM_SCHED_BATCH="SPEC SPEC ...": many schedules, one program start.
 * Before the shim boots (nothing of it has run, no thread exists), the
 * program sets a checkpoint; each SPEC in turn then goes on from there as
 * a program started afresh with SHIM_SCHED=SPEC would: it boots, runs main
 * and exits.  Any later point would not be exact: the boot's own decisions
 * (which task runs first, each one's pct priority) depend on the seed.
 *
 * A controlled run (its tasks are fibers on this one thread) ends by
 * going back to the checkpoint in this process: every writable page the
 * program had there is copied back, the descriptors, the break and the
 * signal mask are as they were, and the fiber stacks are kept for the
 * next run.  A run with host threads (SHIM_SCHED=free, SHIM_SCHED_THREADS=1,
 * a sanitizer build) is a child forked at the checkpoint instead.  Either
 * way the exec, the dynamic linking and the page faults of a fresh
 * process are paid once: in a virtual machine a page fault alone costs
 * tens of microseconds.
 *
 * On stdout and on stderr alike, each run's output is framed by
 *   "# batch N SHIM_SCHED=SPEC\n" and "# batch N exit STATUS\n"
 * (or "# batch N signal SIG\n": an abort, a fault, or the time limit,
 * SHIM_SCHED_BATCH_TIMEOUT seconds, default 120, as SIGALRM).
 * A run's result and replay line are those of the same setting alone
 * (tests/replay/run checks it).  Limits of the in-process reset: memory
 * a run maps itself past malloc (whose mmap threshold is raised to 32
 * MiB) is not given back, and host threads cannot be reset.
 *
 * SHIM_SCHED_BATCH_FILE=FILE instead: a run a line, "SPEC" then any
 * "\tNAME=VALUE" settings of the environment that run starts with (the
 * device search's runs, each with its own SHIM_DEVICE); they are set
 * after the reset, so each run sees the checkpoint's environment and its
 * own settings only.
 */
#define BATCH_MAX_SPECS 65536
#define BATCH_MAX_REGIONS 64
#define BATCH_MAX_RUNS 4096
#define BATCH_MAX_STACKS 1024
#define BATCH_STACK (1UL << 16)	 /* where a reset runs */
#define BATCH_HEAP (1UL << 20)	 /* the heap's top, grown once */
#define BATCH_TOP_PAD (64 << 20) /* malloc's sbrk: at least this much more */
#define BATCH_RESIDENT (1 << 20) /* pages mincore answers for at once */
#define BATCH_STACK_MARGIN 16384 /* below the checkpoint's frame */

struct batch_region {
	char *addr;
	size_t len;
	int anon; /* no file behind it: a page never touched is zeros */
};

/*
 * What a reset writes back: runs of pages, each copied or, where the
 * page was all zeros at the checkpoint, cleared, and only if the run
 * touched it (mincore): most of the program's zeroed arrays never are.
 */
struct batch_run {
	char *addr, *copy; /* copy NULL: zeros */
	size_t len;
};

/* Outside all that a reset copies back: it must outlive each run. */
struct batch {
	jmp_buf checkpoint;
	ucontext_t back;
	char *list;
	int count, next, run; /* run: the one under way */
	int reset;   /* runs go back to the checkpoint, in this process */
	int running; /* a run in this process is under way */
	unsigned int timeout;
	int nfd;
	char *heap_top; /* the heap's free top chunk starts here */
	sigset_t mask;
	struct batch_run run_of[BATCH_MAX_RUNS];
	int nrun;
	unsigned char *resident;       /* mincore's answer, page by page */
	void *stack[BATCH_MAX_STACKS]; /* fiber stacks, kept across runs */
	int nstack, used;
	char *spec[BATCH_MAX_SPECS]; /* each with its settings, from a file */
};

static struct batch *batch;

static void batch_say(const char *fmt, ...)
{
	char line[512];
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	if (n >= (int) sizeof(line))
		n = sizeof(line) - 1;
	if (write(STDOUT_FILENO, line, n) < 0 ||
	    write(STDERR_FILENO, line, n) < 0)
		_exit(2);
}

/* Zero the pages of [@addr, @addr + @len) a run has touched since. */
static void batch_clear(struct batch *b, char *addr, size_t len)
{
	size_t p, n = -(uintptr_t) addr & 4095;

	/* mincore takes whole pages: the head of a page, cleared as it is */
	if (n) {
		n = n < len ? n : len;
		memset(addr, 0, n);
		addr += n;
		len -= n;
	}

	for (; len; addr += n, len -= n) {
		n = len < BATCH_RESIDENT * 4096UL ? len :
						    BATCH_RESIDENT * 4096UL;
		if (mincore(addr, n, b->resident)) {
			memset(addr, 0, n);
			continue;
		}
		for (p = 0; p < (n + 4095) / 4096; p++)
			if (b->resident[p] & 1)
				memset(addr + p * 4096, 0,
				       n - p * 4096 < 4096 ? n - p * 4096 :
							     4096);
	}
}

/* On the batch's own stack: everything as it was at the checkpoint. */
static void batch_restore(void)
{
	struct batch *b = batch;
	char *brk_now = (char *) syscall(SYS_brk, 0);
	int i;

	for (i = 0; i < b->nrun; i++) {
		struct batch_run *r = &b->run_of[i];

		if (r->copy)
			memcpy(r->addr, r->copy, r->len);
		else
			batch_clear(b, r->addr, r->len);
	}
	/*
	 * Past the heap's top: zeros, as a fresh process has there (and
	 * calloc expects of what the break gives it).  Cleared rather than
	 * given back, which would cost a page fault a page in the next run:
	 * malloc asks for BATCH_TOP_PAD more than it needs, so the next
	 * run's first sbrk leaves them mapped.
	 */
	if (brk_now > b->heap_top)
		batch_clear(b, b->heap_top, brk_now - b->heap_top);
	if (syscall(SYS_close_range, b->nfd, ~0U, 0))
		for (i = b->nfd; i < 1024; i++)
			close(i);
	alarm(0);
	sigprocmask(SIG_SETMASK, &b->mask, NULL);
	b->used = 0;
	b->running = 0;
	longjmp(b->checkpoint, 1);
}

/* The run in this process is over: say how, and go back. */
static void __attribute__((noreturn)) batch_end(const char *how, int val)
{
	struct batch *b = batch;
	char *stack = (char *) b + sizeof(*b);

	batch_say("# batch %d %s %d\n", b->run, how, val);
	if (getcontext(&b->back))
		_exit(2);
	b->back.uc_stack.ss_sp = stack;
	b->back.uc_stack.ss_size = BATCH_STACK;
	b->back.uc_link = NULL;
	makecontext(&b->back, batch_restore, 0);
	setcontext(&b->back);
	_exit(2);
}

extern void (*__fini_array_start[])(void) __attribute__((weak));
extern void (*__fini_array_end[])(void) __attribute__((weak));

/*
 * Last of the exit handlers (the first registered): what exit() would do
 * next for the program itself, its destructors (the leak report) and its
 * output, then back to the checkpoint instead.
 */
static void batch_exit(int status, void *arg)
{
	void (**fn)(void);

	if (!batch->running)
		return;
	for (fn = __fini_array_end; fn && fn > __fini_array_start;)
		(*--fn)();
	fflush(NULL);
	batch_end("exit", status & 0xff);
}

static int batch_running(void)
{
	return batch && batch->running;
}

/* An abort (a BUG), a fault (after its oops) or the time limit. */
void shim_host_batch_died(int sig)
{
	if (batch && batch->running)
		batch_end("signal", sig);
}

static volatile sig_atomic_t batch_dying;

/*
 * The end, with no more words: a signal that came while the last words
 * ran (gcov's dump, which allocates, meeting the heap the driver had
 * corrupted aborts again; the time limit comes) would otherwise wait for
 * ever on the lock gcov's first dump holds.
 */
static void batch_die_now(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void batch_signal(int sig)
{
	if (batch_dying)
		batch_die_now(sig);
	batch_dying = 1;
	if (batch->running)
		batch_last_words();
	shim_host_batch_died(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Fibers' stacks: the same ones, in the same order, run after run. */
void *shim_host_batch_stack(size_t size)
{
	struct batch *b = batch;
	void *p;

	if (!b || !b->running)
		return NULL;
	if (b->used < b->nstack)
		return b->stack[b->used++];
	if (b->nstack == BATCH_MAX_STACKS)
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1,
		 0);
	if (p == MAP_FAILED)
		return NULL;
	/* a fiber's guard page (shim_host_fiber_create()), set once */
	mprotect(p, 4096, PROT_NONE);
	b->stack[b->nstack++] = p;
	b->used++;
	return p;
}

int shim_host_batch_owns(void *stack)
{
	int i;

	for (i = 0; batch && i < batch->nstack; i++)
		if (batch->stack[i] == stack)
			return 1;
	return 0;
}

/*
 * A run's settings: SHIM_SCHED=@spec's first word, then each tab-separated
 * NAME=VALUE after it (a batch file's line).  0, or -1 if out of memory.
 */
static int batch_setenv(const char *spec)
{
	const char *p = spec, *end;
	char *word;
	int err = 0;

	for (; !err && *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "\t");
		word = strndup(p, end - p);
		if (!word)
			return -1;
		if (p == spec) {
			err = setenv("SHIM_SCHED", word, 1);
		} else if (strchr(word, '=')) {
			*strchr(word, '=') = 0;
			err = setenv(word, word + strlen(word) + 1, 1);
		}
		free(word);
	}
	return err;
}

/* The SHIM_SCHED of a run: its line's first word. */
static int batch_spec_is(const char *spec, const char *what)
{
	size_t n = strcspn(spec, "\t");

	return strlen(what) == n && !strncmp(spec, what, n);
}

/* Whether a run of @spec can go back to the checkpoint in this process. */
static int batch_in_process(const char *spec)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return 0;
#else
	const char *t = getenv("SHIM_SCHED_THREADS");

	return !batch_spec_is(spec, "free") && !(t && !strcmp(t, "1")) &&
	       !getenv("SHIM_SCHED_BATCH_FORK");
#endif
}

static int batch_add(struct batch_region *r, int *n, unsigned long lo,
		     unsigned long hi, int anon)
{
	if (lo >= hi)
		return 1;
	if (*n == BATCH_MAX_REGIONS)
		return 0;
	r[*n].addr = (char *) lo;
	r[*n].len = hi - lo;
	r[*n].anon = anon;
	(*n)++;
	return 1;
}

/*
 * Every private writable mapping, to copy back at each reset: the heap up
 * to its free top, the stack from just below the checkpoint's frame, and
 * none of the batch's own memory (@own, @own_len).
 */
static size_t batch_regions(struct batch_region *r, int *n, uintptr_t heap_top,
			    uintptr_t sp, uintptr_t own, size_t own_len)
{
	size_t len, total = 0;
	char *text, *p;
	int i, ok = 1, valgrind = RUNNING_ON_VALGRIND, after_valgrind = 0;

	text = shim_host_read_file("/proc/self/maps", &len);
	if (!text)
		return 0;
	*n = 0;
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long lo, hi, inode;
		char perms[8], path[256] = "";
		int anon;

		if (sscanf(p, "%lx-%lx %7s %*x %*s %lu %255[^\n]", &lo, &hi,
			   perms, &inode, path) < 4)
			continue;
		/*
		 * Under valgrind (callgrind counts a batch's instructions):
		 * its own memory is listed too, and is not the program's;
		 * nor is its host stack; and the program's stack ends where
		 * it is mapped, for it does not grow on a read below.
		 */
		if (valgrind) {
			int own = strstr(path, "/valgrind/") != NULL;

			if (own || (after_valgrind && !inode) ||
			    (!strcmp(path, "[stack]") &&
			     !(lo <= sp && sp < hi))) {
				after_valgrind = own;
				continue;
			}
			after_valgrind = 0;
		}
		/* valgrind's break is rwx */
		if (strcmp(perms, "rw-p") &&
		    !(valgrind && lo <= heap_top && heap_top < hi))
			continue;
		anon = !inode;
		if (lo <= heap_top && heap_top < hi)
			hi = heap_top; /* the rest is free */
		if (lo <= sp && sp < hi && valgrind)
			lo = lo > sp - BATCH_STACK_MARGIN ?
				     lo :
				     (sp - BATCH_STACK_MARGIN) & ~4095UL;
		else if (lo <= sp && sp < hi)
			lo = (sp - BATCH_STACK_MARGIN) & ~4095UL;
		if (lo <= own && own < hi)
			ok &= batch_add(r, n, lo, own, anon) &&
			      batch_add(r, n, own + own_len, hi, anon);
		else
			ok &= batch_add(r, n, lo, hi, anon);
	}
	for (i = 0; i < *n; i++)
		total += r[i].len;
	free(text);
	return ok ? total : 0;
}

/*
 * A region's pages as runs: copied, or, for the pages of an anonymous
 * region that nothing had touched at the checkpoint, zeros (and not
 * read now, which would map them).
 */
static void batch_runs(struct batch *b, struct batch_region *g, char *copy)
{
	size_t page, pages = g->len / 4096, end;

	if (!g->anon || (g->len & 4095) ||
	    mincore(g->addr, g->len, b->resident))
		memset(b->resident, 1, pages + 1);
	for (page = 0; page < pages + !!(g->len & 4095); page = end) {
		struct batch_run *r = &b->run_of[b->nrun];
		int zero = page < pages && !(b->resident[page] & 1);

		for (end = page + 1; end < pages + !!(g->len & 4095); end++)
			if ((end < pages && !(b->resident[end] & 1)) != zero)
				break;
		/* the last run slot takes the rest, copied */
		if (b->nrun == BATCH_MAX_RUNS - 1) {
			zero = 0;
			end = pages + !!(g->len & 4095);
		}
		r->addr = g->addr + page * 4096;
		r->len = (end * 4096 > g->len ? g->len : end * 4096) -
			 page * 4096;
		r->copy = zero ? NULL : copy + page * 4096;
		if (r->copy)
			memcpy(r->copy, r->addr, r->len);
		b->nrun++;
	}
}

/*
 * The checkpoint: the program's memory as it is now, in a mapping of its
 * own that no reset touches.  0 if it cannot be taken (the batch forks).
 */
static int batch_snapshot(struct batch *b)
{
	struct batch_region r[BATCH_MAX_REGIONS];
	void *warm[1], *top;
	char sym[64];
	uintptr_t heap_top;
	size_t total;
	char *copy;
	int i, n;

	/*
	 * What the boot would load or map on first use, once for all runs:
	 * libgcc (backtrace), the program's symbols (read-only, not copied)
	 */
	backtrace(warm, 1);
	shim_symbol((unsigned long) batch_snapshot, sym, sizeof(sym));
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
	top = malloc(BATCH_HEAP);
	if (!top)
		return 0;
	b->heap_top = top;
	heap_top = (uintptr_t) top;
	free(top);
	/*
	 * Only now: the top the checkpoint has stays small, for calloc
	 * clears the part of a block that was top already, and a run's
	 * large block is fresh memory from the break (which a reset clears).
	 */
	if (!RUNNING_ON_VALGRIND)
		mallopt(M_TOP_PAD, BATCH_TOP_PAD);
	total = batch_regions(r, &n, heap_top, (uintptr_t) &warm, (uintptr_t) b,
			      sizeof(*b) + BATCH_STACK);
	if (!total)
		return 0;
	copy = mmap(NULL, total, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	b->resident = mmap(NULL, BATCH_RESIDENT, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (copy == MAP_FAILED || b->resident == MAP_FAILED)
		return 0;
	for (b->nfd = 3; fcntl(b->nfd, F_GETFD) >= 0 || errno != EBADF;)
		b->nfd++;
	sigprocmask(SIG_SETMASK, NULL, &b->mask);
	signal(SIGABRT, batch_signal);
	signal(SIGALRM, batch_signal);
	if (on_exit(batch_exit, NULL))
		return 0;
	/* from here on, no local variable changes: a reset comes back here */
	if (setjmp(b->checkpoint))
		return 1;
	for (i = 0; i < n; i++) {
		batch_runs(b, &r[i], copy);
		copy += r[i].len;
	}
	return 1;
}

/* One run in a child: 1 in the child, 0 in the parent once it has ended. */
static int batch_fork(struct batch *b, int n, const char *spec)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		batch_say("# batch %d fork failed: %s\n", n, strerror(errno));
		_exit(2);
	}
	if (!pid) {
		signal(SIGABRT, SIG_DFL);
		signal(SIGALRM, SIG_DFL);
		if (batch_setenv(spec) || unsetenv("SHIM_SCHED_BATCH") ||
		    unsetenv("SHIM_SCHED_BATCH_FILE"))
			_exit(2);
		alarm(b->timeout);
		return 1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			_exit(2);
	if (WIFSIGNALED(status))
		batch_say("# batch %d signal %d\n", n, WTERMSIG(status));
	else
		batch_say("# batch %d exit %d\n", n, WEXITSTATUS(status));
	return 0;
}

/* Returns once per run, in the process or the child that makes it. */
void shim_host_batch(void)
{
	const char *list = getenv("SHIM_SCHED_BATCH");
	const char *file = getenv("SHIM_SCHED_BATCH_FILE");
	const char *t = getenv("SHIM_SCHED_BATCH_TIMEOUT");
	const char *sep = " \t\n";
	struct batch *b;
	size_t len;
	char *p;

	if (file && *file) {
		/* a run a line, each with its settings after a tab */
		list = shim_host_read_file(file, &len);
		sep = "\n";
		if (!list) {
			fprintf(stderr, "SHIM_SCHED_BATCH_FILE=%s: %s\n", file,
				strerror(errno));
			_exit(2);
		}
	} else if (!list || !*list) {
		return;
	}
	b = mmap(NULL, sizeof(*b) + BATCH_STACK, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		_exit(2);
	batch = b;
	b->timeout = t && *t ? strtoul(t, NULL, 10) : 120;
	b->list = strdup(list);
	if (!b->list)
		_exit(2);
	if (file && *file)
		free((char *) list);
	for (p = strtok(b->list, sep); p && b->count < BATCH_MAX_SPECS;
	     p = strtok(NULL, sep))
		b->spec[b->count++] = p;
	b->reset = batch_snapshot(b);
	for (;;) {
		const char *spec;

		if (b->next >= b->count)
			_exit(0);
		b->run = b->next++;
		spec = b->spec[b->run];
		batch_say("# batch %d SHIM_SCHED=%.*s\n", b->run,
			  (int) strcspn(spec, "\t"), spec);
		if (!b->reset || !batch_in_process(spec)) {
			if (batch_fork(b, b->run, spec))
				return;
			continue;
		}
		if (batch_setenv(spec))
			_exit(2);
		b->running = 1;
		alarm(b->timeout);
		return;
	}
}

/* --- faults --------------------------------------------------------------- */

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)

static void (*kernel_oops)(int sig, unsigned long addr, unsigned long ip);

/*
 * The boot thread's alternate stack, so that it can report its own stack
 * overflow; other threads run the handler on their own stack (an overflow
 * there dies unreported).
 */
static char oops_stack[1 << 16];

static void fault(int sig, siginfo_t *info, void *uctx)
{
	unsigned long ip = 0;
	void *trace[32];
	int depth;

#ifdef REG_RIP
	ip = ((ucontext_t *) uctx)->uc_mcontext.gregs[REG_RIP];
#endif
	kernel_oops(sig, (unsigned long) info->si_addr, ip);
	depth = backtrace(trace, 32);
	backtrace_symbols_fd(trace, depth, STDERR_FILENO);
	if (shim_fault_last_words)
		shim_fault_last_words();

	/* die of it: the default action, at once (SA_NODEFER) */
	shim_host_batch_died(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

void shim_host_traps_init(void (*oops)(int sig, unsigned long addr,
				       unsigned long ip))
{
	struct sigaction sa = { 0 };
	stack_t ss = { .ss_sp = oops_stack, .ss_size = sizeof(oops_stack) };
	void *warm[1];
	unsigned int i;

	kernel_oops = oops;
	/* backtrace() loads libgcc on first use: not inside a handler */
	backtrace(warm, 1);
	if (sigaltstack(&ss, NULL))
		shim_host_bug("sigaltstack", errno);
	sa.sa_sigaction = fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(fault_signals); i++)
		if (sigaction(fault_signals[i], &sa, NULL))
			shim_host_bug("sigaction", errno);
}

#else

void shim_host_traps_init(void (*oops)(int sig, unsigned long addr,
				       unsigned long ip))
{
}

#endif
