#ifndef _SHIM_TEST_H
#define _SHIM_TEST_H

/*
 * The shim's test API: for tests and host programs, never for kernel code.
 * What the shim and the stacks set up before main() (keventd, the events
 * queue, ksoftirqd) is not counted by the allocation count or the fault
 * injection.
 */
#include <stddef.h>
#include <stdint.h>

/* Switch to virtual time (call before any timer is armed): jiffies stand
 * at INITIAL_JIFFIES and move only by shim_clock_advance(). */
void shim_clock_virtual(void);
int shim_clock_is_virtual(void);
/* Move virtual jiffies on; every timer that falls due fires, in expiry
 * order (arming order among equals), in this thread, before it returns. */
void shim_clock_advance(unsigned long ticks);

/* Counted allocations not yet freed, and counted allocations ever made. */
long shim_kmalloc_outstanding(void);
unsigned long shim_kmalloc_calls(void);
/* Those not freed made after call number @mark, each named into @buf. */
long shim_kmalloc_since(unsigned long mark, char *buf, size_t len);

/*
 * 1 if @addr lies in memory kfree() took back lately (freed memory is
 * poisoned and kept a while under the debug checks), with what it was in
 * @why ("byte N of M allocated by f() and freed by g()").
 */
int shim_kmem_freed(const void *addr, char *why, size_t len);

/* Make the n-th counted kmalloc (or kernel_thread) from now fail; 0 turns
 * it off.  SHIM_FAIL_KMALLOC=N and SHIM_FAIL_KTHREAD=N do the same counted
 * from the start of main(). */
void shim_fail_kmalloc_nth(unsigned long n);
void shim_fail_kthread_nth(unsigned long n);

/*
 * Make the n-th request of a resource from now fail, whatever its kind
 * (shim/fault.c): memory (kmalloc and all that goes through it), an I/O
 * or memory region (request_region, check_region), an interrupt line, a
 * character major or misc minor, a DMA channel, a kernel thread, a PCI
 * function enabled; 0 turns it off.  Each fails as 2.4 failed it: NULL,
 * -EBUSY for a region, line, major or channel taken, -EAGAIN for a
 * thread, -EINVAL for pci_enable_device().  SHIM_FAIL_RESOURCE=N does the
 * same counted from the start of main().  shim_resource_requests():
 * requests counted so far; shim_resource_failed(): what the one made to
 * fail since the last shim_fail_resource_nth() was ("request_irq(5,
 * \"zbox\") from zbox_init()"), "" if none was.
 */
void shim_fail_resource_nth(unsigned long n);
unsigned long shim_resource_requests(void);
/*
 * Of those, the ones create_workqueue() made (shim/fault.h): numbered
 * apart, so that shim_fail_resource_nth(n) refuses the n-th request of
 * the caller's own whatever queues it creates, and
 * shim_fail_queue_request_nth(k) the k-th of create_workqueue()'s.
 */
unsigned long shim_queue_requests(void);
void shim_fail_queue_request_nth(unsigned long k);
size_t shim_resource_failed(char *buf, size_t len);

/* Wait until no bottom half is marked or running (process context). */
void shim_softirq_sync(void);

/*
 * Wait until the sandbox is idle: no task but the caller can run, no
 * bottom half is marked, and the timers due within a tick have run (in
 * virtual time the caller runs them, one at a time, each followed by an
 * idle, and the clock moves that tick).  For a scenario between two
 * steps; process context.  Returns the timers run, or -EBUSY if timers
 * kept falling due (one re-armed for now, for ever).
 */
int shim_quiesce(void);
/*
 * The expiry of the first pending timer in *expires; 0 if none is pending.
 * Here and in shim_clock_step(), jiffies are the shim's (shim_jiffies()),
 * to 2.4 code too, whose own count is SHIM_INITIAL_JIFFIES less.
 */
int shim_timer_next(unsigned long *expires);
/*
 * Virtual time, one timer at a time: run the first pending timer if it
 * expires by jiffies value @until (time moving to its expiry) and return
 * 1; else move time to @until and return 0.
 */
int shim_clock_step(unsigned long until);

/*
 * What 2.4 code leaves behind, for a scenario to look at: signals sent to
 * processes (counted per signal, never delivered), I/O regions still
 * claimed (port space, or memory space with @mem; their names in @buf),
 * the file operations a driver registered for a character major.
 */
unsigned long shim_signals_sent(int sig);
int shim_regions_held(int mem, char *buf, size_t len);
struct file_operations;
struct file_operations *shim_chrdev_fops(unsigned int major);
/*
 * The majors (@majors) and misc minors (@minors) registered, in order,
 * at most @max: their count; the operations of a misc minor, or NULL.
 */
int shim_chrdev_majors(unsigned int *majors, int max);
int shim_misc_minors(int *minors, int max);
struct file_operations *shim_misc_fops(int minor);
/* Character majors and misc minors registered, DMA channels taken. */
int shim_chrdevs_held(char *buf, size_t len);
int shim_dma_held(char *buf, size_t len);
/* Timers pending, each named by its function. */
int shim_timers_pending(char *buf, size_t len);

/* Kernel threads started and not yet returned (the boot ones included). */
int shim_kthreads_running(void);

/* Copy the printk log (oldest first, levels kept as "<N>") into buf, NUL
 * terminated; returns the length copied.  shim_printk_clear() empties it. */
size_t shim_printk_read(char *buf, size_t len);
void shim_printk_clear(void);
/* Messages below this level go to stderr too (default 7; SHIM_LOGLEVEL). */
void shim_printk_set_console_level(int level);

/* Debug checks (pending-work registry, leak report): on unless SHIM_DEBUG=0. */
int shim_debug_enabled(void);

/*
 * Host services for host programs (a scenario runner, the demo's monitor, a
 * test): their threads, locks, clock and sleeps go through the shim like
 * the kernel's, so that a controlled run (SHIM_SCHED) schedules them too.
 */
/* Monotonic nanoseconds (virtual in a controlled run). */
uint64_t shim_clock_ns(void);
/* Sleep, host-wise: no task state changes (virtual time in a controlled run). */
void shim_sleep_ns(uint64_t ns);

/* A host lock, never a scheduling point; 0 free, 1 held, 2 held and slept on. */
struct shim_mutex {
	unsigned int word;
};
/* clang-format off */
#define SHIM_MUTEX_INIT		{ 0 }
/* clang-format on */
void shim_mutex_lock(struct shim_mutex *m);
int shim_mutex_trylock(struct shim_mutex *m); /* 1 if taken */
void shim_mutex_unlock(struct shim_mutex *m);
/*
 * The same, for bookkeeping (a log, a table of counts) that orders nothing
 * of the kernel's: ThreadSanitizer neither sees it order anything nor
 * checks what it guards, so that it hides no race of kernel code.
 */
void shim_mutex_lock_unseen(struct shim_mutex *m);
void shim_mutex_unlock_unseen(struct shim_mutex *m);

/* A host thread running fn(arg), named @name; join it to free it. */
struct shim_thread;
struct shim_thread *shim_thread_start(const char *name, void (*fn)(void *),
				      void *arg);
void shim_thread_join(struct shim_thread *thread);
/* The host's id of the calling thread (what ps -L shows). */
int shim_gettid(void);

/* Name the function of this program holding @addr ("name" at its start,
 * "name+0xoff/0xsize" inside it) in @buf; NULL if none does. */
char *shim_symbol(unsigned long addr, char *buf, size_t len);
/* @addr as the program's file has it (where it was linked), for addr2line. */
unsigned long shim_symbol_link_address(unsigned long addr);

/*
 * Controlled scheduling (SHIM_SCHED=random:SEED, pct:SEED[:DEPTH[:STEPS]],
 * replay:FILE): nonzero in a controlled run; print the line that replays
 * this run on stderr (nothing in a free run).
 */
int shim_sched_is_controlled(void);
void shim_sched_print_replay(void);

#endif /* _SHIM_TEST_H */
