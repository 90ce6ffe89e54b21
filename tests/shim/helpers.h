/*
 * helpers.h - what the shim's Criterion suites share.
 *
 * Every test runs in its own process (Criterion execs the binary once per
 * test), so each starts with a fresh shim: real clock, jiffies near
 * INITIAL_JIFFIES, ksoftirqd running, nothing allocated.
 *
 * Diagnostics whose text matters are checked in a child: run_child() runs
 * the binary again with SHIM_TEST_CHILD=<name>, a constructor there runs
 * the scenario declared with CHILD_SCENARIO(name) and exits, and the parent
 * gets the exit status and everything the child wrote on stdout and stderr.
 */
#ifndef _TESTS_SHIM_HELPERS_H
#define _TESTS_SHIM_HELPERS_H

#include <sys/types.h>

#define SUITE_TIMEOUT		20	/* seconds: a hang is the failure */

/* --- child scenarios ---------------------------------------------------- */

struct child_scenario {
	const char *name;
	void (*fn)(void);
} __attribute__((aligned(16)));

#define CHILD_SCENARIO(name)						\
	static void child_##name(void);					\
	static const struct child_scenario __child_scenario_##name	\
	__attribute__((section("shimtest_children"), used, aligned(16))) = \
		{ #name, child_##name };				\
	static void child_##name(void)

struct child_result {
	int status;		/* as waitpid() reports it */
	char out[16384];	/* the child's stdout and stderr, NUL terminated */
};

/*
 * Run scenario @name in a fresh process of this binary, with @env
 * ("VAR=value", or NULL) added to its environment; wait for it.
 */
extern void run_child(const char *name, const char *env, struct child_result *res);

/* The child died of SIGABRT (a BUG) and said @needle. */
extern void assert_child_bug(const struct child_result *res, const char *needle);
/* The child said @needle (anywhere in its output). */
extern void assert_child_said(const struct child_result *res, const char *needle);

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
