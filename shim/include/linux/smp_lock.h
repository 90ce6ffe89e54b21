#ifndef _LINUX_SMP_LOCK_H
#define _LINUX_SMP_LOCK_H

#include <linux/sched.h>

/*
 * The big kernel lock, as 2.5 had it: one lock for the whole kernel, taken
 * recursively by a task (current->lock_depth counts the nesting, -1 when
 * the task does not hold it), and let go while its holder sleeps:
 * schedule() drops it and takes it back before the task runs on.  It is
 * no spinlock to the rest of the kernel: its holder may sleep.
 */
extern void lock_kernel(void);
/* unlock_kernel() by a task that does not hold it is a BUG. */
extern void unlock_kernel(void);

/*
 * Does the caller hold it?  (2.5.39 asked whether anyone held it, which on
 * SMP says nothing about the caller; later kernels asked this.)
 */
#define kernel_locked() (current->lock_depth >= 0)

#endif /* _LINUX_SMP_LOCK_H */
