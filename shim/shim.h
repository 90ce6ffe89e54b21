/*
 * shim.h - what the shim's files share.  Their host calls go through
 * host.h; this is the rest of what they tell each other.
 */
#ifndef _SHIM_SHIM_H
#define _SHIM_SHIM_H

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <shim/test.h>
#include <shim/fault.h>

#include "host.h"

extern struct task_struct *shim_current_or_null(void);
/* current, or NULL for a thread that has no task yet (sched.c) */
extern __thread struct task_struct *shim_current;
extern void shim_set_current(struct task_struct *tsk);
/* kallsyms.c: the function a return address is in, for a report */
extern const char *shim_symbol_caller(void *ip, char *buf, size_t len);
/* the function or variable starting at @addr, or NULL */
extern const char *shim_symbol_name(const void *addr);
/* kthread.c: a task for a thread the shim did not start */
extern struct task_struct *shim_adopt_current(void);
extern void shim_traps_init(void);

/*
 * Set while the shim and the stacks start up before main(): what they
 * allocate or start then is not counted and never made to fail.
 */
extern int shim_booting;

/* The calling thread's preempt count (linux/preempt.h). */
extern __thread unsigned long shim_preempt;

/*
 * global_irq.c: 2.4's cli() lock.  Its holder, tested by schedule(); let
 * go there (and interrupts enabled, as release_kernel_lock() did); may a
 * holder sleep (atomic only through its cli())?
 */
extern struct task_struct *shim_global_irq_holder;
/*
 * Does @t hold it?  Read while another task may take or let it go: an
 * atomic load, so that only the holder's own accesses order with it.
 */
static inline int shim_irqlock_held_by(struct task_struct *t)
{
	return __atomic_load_n(&shim_global_irq_holder, __ATOMIC_RELAXED) == t;
}
extern void shim_irqlock_schedule(struct task_struct *tsk);
extern int shim_irqlock_may_sleep(void);
/* a bottom half or a run of timers: not while cli()'s lock is held */
extern void shim_bh_enter(void);
extern void shim_bh_exit(void);

/* time.c: reads of jiffies in a row from one place (a busy wait?) */
extern __thread unsigned int shim_jiffy_polls;

/*
 * sched.c: tasks that can run (shim_quiesce()).  Born counted in, gone
 * counted out; shim_sleep_begin() counts @t out unless @still_runs(@arg)
 * (tested under @t's sleep lock), shim_sleep_end() counts it back in.
 */
extern void shim_task_born(void);
extern void shim_task_gone(void);
extern int shim_sleep_begin(struct task_struct *t, int (*still_runs)(void *),
			    void *arg);
extern void shim_sleep_end(struct task_struct *t);
extern void shim_wait_awake_alone(int (*idle)(void));

/* kernel_lock.c: schedule() for a holder of the big kernel lock */
extern void shim_schedule_kernel_locked(struct task_struct *tsk);

/* Wake @p if its state is in @mode; 1 if it was woken. */
extern int shim_try_to_wake_up(struct task_struct *p, long mode);

/*
 * sched.c: interrupt context the shim enters (a hard interrupt, a timer,
 * a bottom half): wake-ups made inside are carried out, and bottom halves
 * marked are let run (softirq.c), when the outermost one ends.
 */
extern void shim_defer_begin(void);
extern void shim_defer_end(void);
extern int shim_deferring(void);
/* softirq.c: the bottom halves and kicks of ksoftirqd put off until then */
extern void shim_softirq_undefer(void);

/*
 * Wake-ups decided under a lock and carried out after it is dropped
 * (sched.c): shim_wake_q_add() marks a task runnable, shim_wake_up_q()
 * wakes the tasks marked, as the kernel's later wake_q does.
 */
#define WAKE_Q_MAX 16
struct shim_wake_q {
	int nr;
	struct task_struct *tasks[WAKE_Q_MAX];
};
/* clang-format off */
#define SHIM_WAKE_Q_INIT	{ 0 }
/* clang-format on */
extern int shim_wake_q_add(struct shim_wake_q *q, struct task_struct *p,
			   long mode);
extern void shim_wake_up_q(struct shim_wake_q *q);

/* wait.c: with q->lock held, mark the waiters to wake in @wq */
#define TASK_NORMAL (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
extern void __wake_up_locked(wait_queue_head_t *q, unsigned int mode,
			     int nr_exclusive, struct shim_wake_q *wq);

/* quarantine.c: freed memory, poisoned and kept a while */
extern void shim_quarantine_add(void *p, size_t size, const char *alloc_caller,
				const char *free_caller, void *host);
extern int shim_kmem_freed(const void *addr, char *why, size_t len);

/* Counted allocation hooks used by slab.c and sched.c. */
extern int shim_fault_kmalloc(void);
extern int shim_fault_kthread(void);

/* timer.c: run the timers that are due (real clock), for ksoftirqd. */
extern long shim_run_timers(void);    /* ns until the next one, or -1 */
extern int shim_timers_due(long *ns); /* without timers_lock */
extern void shim_kick_ksoftirqd(void);

/* boot steps, run by init.c before main() */
extern void shim_clock_init(void);
extern void shim_softirq_init(void);
extern void shim_tasklet_init(void);

/* smp.c */
extern void shim_smp_init(void);

/* timer.c: serialises timer handlers and bottom halves (softirq.c) */
extern struct shim_mutex shim_softirq_mutex;

#endif /* _SHIM_SHIM_H */
