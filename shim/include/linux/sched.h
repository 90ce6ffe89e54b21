#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/timer.h>
#include <linux/jiffies.h>
#include <linux/smp.h>
#include <asm/param.h>
#include <asm/atomic.h>
#include <asm/bitops.h>
#include <asm/system.h>
#include <shim/point.h>

#define TASK_STOPPED 4
#define TASK_ZOMBIE 8

#define PF_STARTING 0x00000002
#define PF_EXITING 0x00000004
#define PF_KTHREAD 0x00000010 /* started by kernel_thread() */
#define PF_IOTHREAD 0x00020000

#ifndef CLONE_VM
#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#endif

#define MAX_SCHEDULE_TIMEOUT LONG_MAX

struct tty_struct;

/*
 * A task is a host thread.  Kernel code sees the kernel's fields; the
 * shim_ fields belong to the host side (sched.c).
 */
struct task_struct {
	volatile long state; /* TASK_* */
	unsigned long flags; /* PF_* */
	int pid;
	char comm[16];
	int lock_depth; /* big kernel lock nesting, -1: not held */

	/*
	 * What a 2.4 driver reads of the task that calls it (job control
	 * and the controlling tty, credentials, the reschedule hint): the
	 * shim leaves them as set; 2.5 code does not look.
	 */
	int session, pgrp, leader, tty_old_pgrp;
	struct tty_struct *tty;
	unsigned int uid, euid, suid, fsuid, gid, egid;
	long need_resched;
	unsigned long cpus_allowed; /* set_cpus_allowed()'s mask, all at first */

	atomic_t usage;
	unsigned int shim_wake_seq; /* wait word: bumped by each wake-up */
	/*
	 * Wake-ups of it made in interrupt context and not yet carried out
	 * (sched.c): marked runnable, it waits in schedule() for these to
	 * end, at the exit of the interrupt that woke it.
	 */
	unsigned int shim_wake_held;
	/*
	 * Asleep in schedule() (or ksoftirqd waiting for a kick): not
	 * counted among the tasks that can run (shim_quiesce()); set and
	 * cleared under shim_sleep_lock, by the task and by its wakers.
	 */
	unsigned int shim_asleep, shim_sleep_lock;
	char shim_comm_shown[16];	 /* the name the host thread carries */
	struct shim_thread *shim_thread; /* its host thread (host.h) */
};
typedef struct task_struct task_t;

extern struct task_struct *shim_get_current(void);
#define current shim_get_current()
#define get_current() shim_get_current()

#define __set_task_state(tsk, state_value) \
	__atomic_store_n(&(tsk)->state, (state_value), __ATOMIC_RELAXED)
#define set_task_state(tsk, state_value) \
	__atomic_store_n(&(tsk)->state, (state_value), __ATOMIC_SEQ_CST)
#define __set_current_state(state_value) __set_task_state(current, state_value)
#define set_current_state(state_value) set_task_state(current, state_value)

extern void schedule(void);
extern signed long schedule_timeout(signed long timeout);
extern void yield(void);

/*
 * A voluntary point in process context: the host preempts on its own, so
 * in a free run this only checks the context; in a controlled run another
 * task may be chosen here.
 */
#define cond_resched()                          \
	do {                                    \
		might_sleep();                  \
		shim_point(SHIM_POINT_RESCHED); \
	} while (0)
extern int wake_up_process(struct task_struct *tsk);

extern void get_task_struct(struct task_struct *tsk);
extern void put_task_struct(struct task_struct *tsk);

/* Start a kernel thread: returns its pid (> 0) or a negative errno. */
extern int kernel_thread(int (*fn)(void *), void *arg, unsigned long flags);
extern void daemonize(void);
extern int set_cpus_allowed(struct task_struct *p, unsigned long new_mask);
/*
 * The sandbox's: run @p on @cpu from now on, as the kernel's scheduler
 * might have put it there; its cpus_allowed stays as it was.
 */
extern void shim_task_run_on(struct task_struct *p, int cpu);

/* Signals are not delivered to kernel threads in the sandbox. */
static inline int signal_pending(struct task_struct *p)
{
	(void) p;
	return 0;
}

/* keventd, as 2.5.39 declared it here (the workqueue patch moved it). */
extern int start_context_thread(void);
extern int current_is_keventd(void);

#endif /* _LINUX_SCHED_H */
