/*
 * host.h - the boundary between the sandbox's kernel and the host it runs on.
 *
 * Nothing in the shim but host.c calls the C library's threads, the host
 * kernel's wait words, clocks, signals or the allocator, and nothing in the
 * stacks or the drivers
 * does: they ask for what they need here, as LKL's host_ops and NetBSD's
 * rumpuser ask their hosts.  Every place a task can start, block, be woken,
 * give up the CPU or end passes through this file, so it is also where the
 * controlled scheduler (SHIM_SCHED, control.c) takes over.
 *
 * A host call that fails where the kernel call it serves could not fail is
 * a BUG naming the call and its errno (shim_host_fail), never ignored.
 *
 *  the kernel side needs          host call                     a failure means
 *  -----------------------------  ----------------------------  ---------------------------
 *  the kernel side needs          host call (POSIX, Linux)       a failure means
 *  -----------------------------  -----------------------------  ---------------------------
 *  a thread per task              pthread create, all host       kernel_thread() returns
 *  (kernel_thread, host threads)  signals masked but faults      -errno: the kernel could fail
 *  a thread's end                 pthread exit and join          cannot fail
 *  current for a thread the       a pthread key with a           BUG
 *  host started (main, a test's)  destructor
 *  thread names (ps -L)           pthread setname                ignored: cosmetic only
 *  CPUs: online set, placement,   sched getaffinity, pthread     boot: uniprocessor;
 *  the caller's CPU               setaffinity, sched getcpu      set_cpus_allowed: -EINVAL
 *  sleep while a word holds a     FUTEX_WAIT, private            EAGAIN, EINTR, ETIMEDOUT
 *  value (schedule, spinlocks)                                   are answers; else BUG
 *  wake the sleepers of a word    FUTEX_WAKE, private            BUG
 *  give up the CPU                sched yield                    cannot fail
 *  host-side locks (log, slab,    a word, as above               as above
 *  softirq serialisation)
 *  monotonic time (jiffies)       the CLOCK_MONOTONIC clock      BUG
 *  memory the kernel side keeps   posix memalign, free           NULL: the caller's -ENOMEM
 *  (kmalloc, tasks, registry)
 *  the console (printk)           write(2) on stderr             ignored: nowhere to say it
 *  a fault is an oops             signal handlers on an          boot: BUG
 *                                 alternate stack, raise
 *  BUG ends the program           abort                          cannot fail
 *  settings                       getenv                         unset
 *
 * The names are the shim's (shim_ prefix): kernel code never sees this
 * header; host programs see the part they need through <shim/test.h>.
 */
#ifndef _SHIM_HOST_H
#define _SHIM_HOST_H

#include <linux/types.h>
#include <shim/point.h>

/* --- failure -------------------------------------------------------------- */

/* A host call failed where the kernel could not: say which, and BUG. */
extern void shim_host_fail(const char *call, int err, const char *func)
	__attribute__((noreturn));
#define shim_host_bug(call, err) shim_host_fail((call), (err), __func__)

/* The end of a BUG or panic. */
extern void shim_host_abort(void) __attribute__((noreturn));

/* --- threads -------------------------------------------------------------- */

/*
 * A host thread the shim started or adopted.  Kernel threads keep theirs in
 * task_struct->shim_host; host programs hold the ones they start and join.
 */
struct shim_thread;

/*
 * Start a thread running @fn(@arg) and named @name; it takes no host
 * signals but its own faults.  A joinable thread must be joined with
 * shim_thread_join(); the other kind frees itself when it ends.  0 or a
 * negative errno.
 */
extern int shim_thread_create(struct shim_thread **threadp, const char *name,
			      void (*fn)(void *), void *arg, int joinable);
/* End the calling thread now (complete_and_exit). */
extern void shim_thread_exit(void) __attribute__((noreturn));
/* The caller's thread, or NULL for one the host started (main, a test's). */
extern struct shim_thread *shim_thread_self(void);
/*
 * Give a thread the host started a record; @at_exit(@arg) runs when the
 * thread ends, so that its task can be let go.
 */
extern struct shim_thread *shim_thread_adopt(void (*at_exit)(void *),
					     void *arg);

/* Name the calling thread as the host shows it (15 characters). */
extern void shim_thread_set_name(const char *name);
extern void shim_thread_get_name(char *buf, size_t len);

/* Run @thread on the CPUs of @mask only; 0 or a negative errno. */
extern int shim_thread_set_cpus(struct shim_thread *thread, unsigned long mask);
/* The CPUs this process may run on when it starts (bit n: CPU n). */
extern unsigned long shim_host_cpus(void);
/* The CPU the caller runs on now, as the host numbers it. */
extern int shim_host_cpu(void);
/* The host's id of the calling thread, as ps -L shows it. */
extern int shim_gettid(void);

/* --- blocking ------------------------------------------------------------- */

/*
 * Sleep while *@word == @val, at most @timeout_ns (negative: no limit);
 * returns early, spuriously or on a wake-up: callers test their condition
 * again.
 */
extern void shim_host_wait(volatile void *word, u32 val, s64 timeout_ns);
/* Wake up to @nr sleepers on @word. */
extern void shim_host_wake(volatile void *word, int nr);
/* Give the CPU to another runnable thread, if there is one. */
extern void shim_yield(void);

/*
 * ThreadSanitizer cannot see a host wait: tell it what a lock orders.  And
 * what it must not take for an order: the atomics of the sandbox's own
 * bookkeeping, between shim_tsan_unseen_begin() and _end() in one thread.
 */
#ifdef __SANITIZE_THREAD__
extern void __tsan_acquire(void *addr);
extern void __tsan_release(void *addr);
extern void AnnotateIgnoreSyncBegin(const char *file, int line);
extern void AnnotateIgnoreSyncEnd(const char *file, int line);
#define shim_tsan_acquire(a) __tsan_acquire(a)
#define shim_tsan_release(a) __tsan_release(a)
#define shim_tsan_unseen_begin() AnnotateIgnoreSyncBegin(__FILE__, __LINE__)
#define shim_tsan_unseen_end() AnnotateIgnoreSyncEnd(__FILE__, __LINE__)
#else
#define shim_tsan_acquire(a) \
	do {                 \
	} while (0)
#define shim_tsan_release(a) \
	do {                 \
	} while (0)
#define shim_tsan_unseen_begin() \
	do {                     \
	} while (0)
#define shim_tsan_unseen_end() \
	do {                   \
	} while (0)
#endif

/* --- time ----------------------------------------------------------------- */

/* Monotonic nanoseconds. */
extern u64 shim_clock_ns(void);
/* Sleep for @ns nanoseconds (not a kernel sleep: no task state changes). */
extern void shim_sleep_ns(u64 ns);

/* --- memory, console, settings -------------------------------------------- */

/* @size bytes aligned to @align (a power of two), or NULL. */
extern void *shim_host_alloc(size_t size, size_t align);
extern void *shim_host_zalloc(size_t size);
extern void shim_host_free(void *p);

/* Write @len bytes to the console (stderr) at once. */
extern void shim_console_write(const char *text, size_t len);

/* An environment variable, or NULL. */
extern const char *shim_getenv(const char *name);

/* --- faults --------------------------------------------------------------- */

/*
 * From boot on, a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL) in any thread
 * calls @oops(signal, faulting address, instruction pointer), which prints
 * the kernel's words; then the host prints a call trace and the process
 * dies of the signal's default action.  Nothing under a sanitizer, whose
 * own report is better.
 */
extern void shim_host_traps_init(void (*oops)(int sig, unsigned long addr,
					      unsigned long ip));

/* --- files and the process ---------------------------------------------- */

/* The whole of file @path, NUL terminated, in host memory; NULL if unreadable. */
extern char *shim_host_read_file(const char *path, size_t *len);
/* The whole of file @path mapped read-only for good; NULL if it cannot be. */
extern const char *shim_host_map_file(const char *path, size_t *len);
/* A new file for writing (truncated), or -1. */
extern int shim_host_create_file(const char *path);
extern void shim_host_fd_write(int fd, const char *buf, size_t len);
extern void shim_host_fd_close(int fd);
extern void *shim_host_realloc(void *p, size_t size);
/* The program's command line, its words shell-quoted where they need it. */
extern void shim_host_cmdline(char *buf, size_t len);
/* The return addresses of the caller's stack, innermost first. */
extern int shim_host_backtrace(void **trace, int depth);
extern void shim_host_atexit(void (*fn)(void));
extern void shim_host_exit(int status) __attribute__((noreturn));
/* SHIM_SCHED_BATCH: returns once per schedule of the batch (see host.c). */
extern void shim_host_batch(void);
/* A run of a batch dies of @sig: the batch goes on with the next one. */
extern void shim_host_batch_died(int sig);
/* A fiber stack a batch keeps across its runs, or NULL. */
extern void *shim_host_batch_stack(size_t size);
extern int shim_host_batch_owns(void *stack);

/* --- controlled scheduling (control.c) -------------------------------------- */

/*
 * Under SHIM_SCHED=random:SEED or pct:SEED the functions above that start,
 * end, block or wake a thread, give up the CPU, read the clock or sleep
 * hand over to control.c, which runs one task at a time.  These raw forms
 * never do: they are the scheduler's own means.
 */
extern void shim_host_raw_wait(volatile void *word, u32 val, s64 timeout_ns);
extern void shim_host_raw_wake(volatile void *word, int nr);

/* Fibers: a controlled run's tasks on one host thread (host.c). */
struct shim_fiber;
extern struct shim_fiber *shim_host_fiber_self(void);
extern int shim_host_fiber_create(struct shim_fiber **fp, void (*fn)(void *),
				  void *arg);
extern void shim_host_fiber_switch(struct shim_fiber *from,
				   struct shim_fiber *to);
extern void shim_host_fiber_free(struct shim_fiber *f);
extern void shim_thread_set_self(struct shim_thread *t);

struct shim_ctl_task;
extern void shim_ctl_init(void);
extern int shim_ctl_fibers(void);
extern int shim_ctl_start_fiber(struct shim_ctl_task *t, void (*fn)(void *),
				void *arg);
extern int shim_ctl_task_id(void);
extern struct shim_ctl_task *shim_ctl_register(const char *name);
extern void shim_ctl_begin(struct shim_ctl_task *t);
extern void shim_ctl_adopt(const char *name);
extern void shim_ctl_exit(void);
extern void shim_ctl_wait(volatile void *word, u32 val, s64 timeout_ns);
extern void shim_ctl_wake(volatile void *word, int nr);
extern u64 shim_ctl_clock_ns(void);
extern void shim_ctl_delay(u64 ns);
extern void shim_ctl_timed_sleep(int timed);
extern int shim_ctl_cpu(void);
extern unsigned long shim_ctl_cpus(void);
extern void shim_ctl_set_cpus(struct shim_ctl_task *t, unsigned long mask);
/* control.c: an interrupt arrives on the running task's CPU (stall: maybe another) */
extern void shim_ctl_irq_enter(void);
extern void shim_ctl_set_task(struct task_struct *tsk);
extern void shim_ctl_set_name(const char *name);
extern void shim_ctl_crash(void);
extern void shim_ctl_print_replay(void);

#endif /* _SHIM_HOST_H */
