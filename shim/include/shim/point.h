#ifndef _SHIM_POINT_H
#define _SHIM_POINT_H

/*
 * Scheduling points.  In a controlled run (SHIM_SCHED=random:SEED or
 * pct:SEED, shim/control.c) one task runs at a time, and at each point the
 * scheduler may hand the CPU to another: lock and unlock, wake-ups,
 * schedule(), timers, kernel_thread(), test_and_set_bit() and friends, and
 * where kernel code adds one itself: cpu_relax() in a busy wait,
 * cond_resched() in process context.  In a free run a point costs a load
 * and a branch.
 */
#include <linux/compiler.h>

enum shim_point {
	SHIM_POINT_LOCK,    /* before taking a spinlock */
	SHIM_POINT_UNLOCK,  /* after releasing one */
	SHIM_POINT_WAKE,    /* after waking a task */
	SHIM_POINT_YIELD,   /* schedule() while runnable, yield() */
	SHIM_POINT_TIMER,   /* a timer armed or about to fire */
	SHIM_POINT_KTHREAD, /* a thread started */
	SHIM_POINT_BITOP,   /* before an atomic test-and-modify */
	SHIM_POINT_RELAX,   /* cpu_relax() in a busy wait */
	SHIM_POINT_RESCHED, /* cond_resched() */
	SHIM_POINT_BLOCK,   /* a task waits (the scheduler's own) */
	SHIM_POINT_EXIT,    /* a task ends (the scheduler's own) */
	SHIM_POINT_QUEUED,  /* a queueing call returned (shim/site.h) */
	SHIM_NR_POINTS
};

extern int shim_controlled;
/*
 * A controlled run whose tasks are fibers on the one host thread that
 * booted (shim/control.c): nothing else runs kernel code meanwhile, so
 * a lock word needs no atomic instruction.
 */
extern int shim_fibers;
/*
 * Fibers: how many of the next points are quiet for sure (the running
 * task stays the pick, nothing falls due), counted by control.c, and
 * whether this thread is the one that runs the fibers.  Such a point only
 * counts down; control.c adds the steps and the time up when it next looks.
 */
extern long shim_ctl_quiet;
/* device accesses the running task may still make before its next point
 * before it gives way (shim/control.c's shim_ctl_io()): every point
 * starts the count again */
extern long shim_ctl_io_left;
#define SHIM_CTL_POLLS 1000
extern __thread int shim_ctl_host;
extern void shim_sched_point(enum shim_point why);

/*
 * Is anything watching the hot paths: the debug checks (SHIM_DEBUG), a
 * work probe (shim/trace.h), a controlled run?  One word, so that a hot
 * path with nothing watching pays one load and one branch for all of them
 * (queue_work(), the worker's batch).  Each bit is set where its switch is
 * turned: the boot (debug, controlled), shim_work_trace_register().
 */
#define SHIM_HOOK_DEBUG 0x1
#define SHIM_HOOK_PROBE 0x2
#define SHIM_HOOK_CONTROLLED 0x4
extern int shim_hooks;

static inline int shim_hooks_on(void)
{
	return __atomic_load_n(&shim_hooks, __ATOMIC_RELAXED);
}

static inline void shim_point(enum shim_point why)
{
	if (unlikely(shim_controlled)) {
		if (why != SHIM_POINT_YIELD && why != SHIM_POINT_RELAX &&
		    shim_ctl_quiet > 0 && shim_ctl_host) {
			shim_ctl_quiet--;
			shim_ctl_io_left = SHIM_CTL_POLLS;
			return;
		}
		shim_sched_point(why);
	}
}

/*
 * A test of @what (bit @bit of a word, a lock) that a busy wait may repeat
 * with no scheduling point between: test_bit(), a failed spin_trylock().
 * In a controlled run a long enough row of them is a busy wait's pause
 * (shim/control.c), so that the loop gives way to what it waits for.
 */
extern void shim_ctl_poll(const volatile void *what, int bit);

static inline void shim_poll(const volatile void *what, int bit)
{
	if (unlikely(shim_controlled))
		shim_ctl_poll(what, bit);
}

/*
 * A port or memory access of the device (shim/io.c): in a controlled run
 * a long enough row of them is a busy wait's pause, and a far longer one
 * a soft lockup (shim/control.c).
 */
extern void shim_ctl_io(void);

static inline void shim_io_point(void)
{
	if (unlikely(shim_controlled) && --shim_ctl_io_left <= 0)
		shim_ctl_io();
}

#endif /* _SHIM_POINT_H */
