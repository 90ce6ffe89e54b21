/*
 * helpers.h - what the shim's Criterion suites share.
 *
 * Every test runs in its own process (Criterion execs the binary once per
 * test), so each starts with a fresh shim: real clock, jiffies near
 * INITIAL_JIFFIES, ksoftirqd running, nothing allocated.
 *
 * Diagnostics whose text matters are checked in a child (../child.h).
 */
#ifndef _TESTS_SHIM_HELPERS_H
#define _TESTS_SHIM_HELPERS_H

#include <sys/types.h>

#include "child.h"
#include "suite.h"

/* --- host threads, seen through /proc ---------------------------------- */

extern pid_t host_tid(void);
/* The name the host gives thread @tid (what ps -L shows). */
extern void host_comm(pid_t tid, char *buf, size_t len);
/* Yield until thread @tid is named @name (a kernel thread renamed at schedule()). */
extern void wait_host_comm(pid_t tid, const char *name);
/* The host's scheduler state of thread @tid: 'R', 'S', 'D'... */
extern char host_state(pid_t tid);

/* --- kernel threads ----------------------------------------------------- */

/* kernel_thread() that must succeed; returns the pid. */
extern int start_kthread(int (*fn)(void *), void *arg);
/* Yield until shim_kthreads_running() is back to @count: threads joined. */
extern void wait_kthreads_running(int count);

/*
 * Meet the other @n threads at @arrived (zero to start with): all of them
 * are then running, so their loops overlap.
 */
extern void meet(int *arrived, int n);

/* .init for a test that BUGs on purpose: keep its noise off the console. */
extern void quiet_console(void);

#endif /* _TESTS_SHIM_HELPERS_H */
