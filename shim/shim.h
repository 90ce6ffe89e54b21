/*
 * shim.h - what the host side of the shim shares between its files.
 *
 * Every pthread, futex and clock call of the sandbox lives in the shim's .c files,
 * behind the kernel API of shim/include.  A host call failing where the
 * kernel could not fail is a BUG, with the errno.
 */
#ifndef _SHIM_SHIM_H
#define _SHIM_SHIM_H

#include <stdint.h>
#include <time.h>
#include <errno.h>
#include <string.h>
#include <urcu/futex.h>

#include <linux/kernel.h>
#include <linux/sched.h>

/*
 * Every futex word of the shim lives in this process: the private flag
 * spares the kernel the lookup a shared futex needs (mm and page) on every
 * wait and wake, which was about 1.5 us of each worker wake-up.
 */
#define SHIM_FUTEX_PRIVATE	128	/* FUTEX_PRIVATE_FLAG */

/* Wait while *word == val (or until timeout); spurious returns happen. */
static inline void shim_futex_wait(volatile void *word, uint32_t val,
				   const struct timespec *timeout)
{
	futex_noasync((int32_t *) word, FUTEX_WAIT | SHIM_FUTEX_PRIVATE,
		      (int32_t) val, timeout,
		      NULL, 0);
}

static inline void shim_futex_wake(volatile void *word, int nr)
{
	futex_noasync((int32_t *) word, FUTEX_WAKE | SHIM_FUTEX_PRIVATE, nr,
		      NULL, NULL, 0);
}

extern struct task_struct *shim_current_or_null(void);
extern void shim_traps_init(void);
extern void shim_traps_thread_init(void);

/* A host call failed where the kernel call cannot: say which, and abort. */
#define shim_host_bug(what, err)					\
	do {								\
		printk(KERN_EMERG "BUG: host call %s failed in %s: %s\n", \
		       (what), __func__, strerror(err));		\
		BUG();							\
	} while (0)

/*
 * Set while the shim and the stacks start up before main(): what they
 * allocate or start then is not counted and never made to fail.
 */
extern int shim_booting;

/* The calling thread's preempt count (linux/preempt.h). */
extern __thread unsigned long shim_preempt;

/* Wake @p if its state is in @mode; 1 if it was woken. */
extern int shim_try_to_wake_up(struct task_struct *p, long mode);

/*
 * Wake-ups decided under a lock and carried out after it is dropped
 * (sched.c): wake_q_add() marks a task runnable, wake_up_q() wakes them.
 */
#define WAKE_Q_MAX	16
struct wake_q_head {
	int nr;
	struct task_struct *tasks[WAKE_Q_MAX];
};
#define WAKE_Q_INIT	{ 0 }
extern int wake_q_add(struct wake_q_head *q, struct task_struct *p, long mode);
extern void wake_up_q(struct wake_q_head *q);

/* wait.c: with q->lock held, mark the waiters to wake in @wq */
#define TASK_NORMAL	(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
extern void __wake_up_locked(wait_queue_head_t *q, unsigned int mode,
			     int nr_exclusive, struct wake_q_head *wq);

/* Counted allocation hooks used by slab.c and sched.c. */
extern int shim_fault_kmalloc(void);
extern int shim_fault_kthread(void);

/* timer.c: run the timers that are due (real clock), for ksoftirqd. */
extern long shim_run_timers(void);	/* ns until the next one, or -1 */
extern void shim_kick_ksoftirqd(void);

/* time.c */
extern uint64_t shim_now_ns(void);

/* boot steps, run by init.c before main() */
extern void shim_clock_init(void);
extern void shim_softirq_init(void);

/* smp.c */
extern void shim_smp_init(void);

/* sched.c: name the calling host thread after @comm (15 chars at most). */
extern void shim_set_thread_name(const char *comm);

#endif /* _SHIM_SHIM_H */
