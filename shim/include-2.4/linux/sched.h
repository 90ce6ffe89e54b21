/*
 * linux/sched.h - the task, sleeping and signals as 2.4 drivers see them.
 *
 * The task is the shim's, with the fields 2.4 drivers read (session,
 * pgrp, leader, tty, the ids: a task of the sandbox is root, the leader
 * of no session unless a scenario makes it one).  2.4's sched.h brought
 * in the tty, file and timer headers, and drivers rely on it.  Signals
 * are sent (counted, <shim/test.h>) but never delivered: no task here
 * has a signal pending.
 */
#ifndef _LINUX24_SCHED_H
#define _LINUX24_SCHED_H

#include <linux/config.h>
#include <asm/param.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include_next <linux/sched.h>
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/smp.h>
#include <linux/signal.h>
#include <linux/capability.h>
#include <asm/system.h>
#include <asm/semaphore.h>
#include <asm/page.h>
#include <asm/ptrace.h>
#include <asm/processor.h>
#include <linux/fs.h>
#include <linux/tty.h>

#define SCHED_OTHER 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define SCHED_YIELD 0x10

#define PF_SUPERPRIV 0x00000100

/*
 * Sleep on @q until woken (or @timeout jiffies pass, for the _timeout
 * forms, which return the jiffies left).  As 2.4's: the caller's local
 * interrupt state is restored on return; a holder of cli()'s lock has
 * lost it (schedule() let it go).
 */
extern void sleep_on(wait_queue_head_t *q);
extern long sleep_on_timeout(wait_queue_head_t *q, signed long timeout);
extern void interruptible_sleep_on(wait_queue_head_t *q);
extern long interruptible_sleep_on_timeout(wait_queue_head_t *q,
					   signed long timeout);

/* signals: counted per signal, never delivered (shim_signals_sent()) */
extern int kill_pg(pid_t pgrp, int sig, int priv);
extern int kill_sl(pid_t sess, int sig, int priv);
extern int kill_proc(pid_t pid, int sig, int priv);
extern int send_sig(int sig, struct task_struct *p, int priv);

static inline int suser(void)
{
	if (current->euid == 0) {
		current->flags |= PF_SUPERPRIV;
		return 1;
	}
	return 0;
}

static inline int fsuser(void)
{
	if (current->fsuid == 0) {
		current->flags |= PF_SUPERPRIV;
		return 1;
	}
	return 0;
}

/* every capability is root's, as a 2.4 kernel without capability tweaks */
static inline int capable(int cap)
{
	(void) cap;
	return suser();
}

#endif /* _LINUX24_SCHED_H */
