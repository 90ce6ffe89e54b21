#ifndef _SHIM_TEST_H
#define _SHIM_TEST_H

/*
 * The shim's test API: for tests and host programs, never for kernel code.
 * What the shim and the stacks set up before main() (keventd, the events
 * queue, ksoftirqd) is not counted by the allocation count or the fault
 * injection.
 */
#include <stddef.h>

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

/* Make the n-th counted kmalloc (or kernel_thread) from now fail; 0 turns
 * it off.  SHIM_FAIL_KMALLOC=N and SHIM_FAIL_KTHREAD=N do the same counted
 * from the start of main(). */
void shim_fail_kmalloc_nth(unsigned long n);
void shim_fail_kthread_nth(unsigned long n);

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

#endif /* _SHIM_TEST_H */
