/*
 * helpers.h - what the deferred-work suites share (tests/workqueue on the
 * new stack, tests/context on the old one): nothing here names either
 * stack's API, only the shim's.
 *
 * Criterion runs each test in a process of its own, so each starts with a
 * fresh shim: real clock, nothing allocated, the boot threads (ksoftirqd,
 * and keventd or the events workers) idle.
 *
 * A diagnostic whose text matters is checked in a child: run_child(name)
 * forks and runs this binary again with WQTEST_CHILD=<name>; a constructor
 * there, after the shim and the stack have booted, runs the scenario
 * declared with CHILD_SCENARIO(name) and exits.  The parent gets the exit
 * status and all the child wrote on stdout and stderr, through a pipe.
 * Re-running the binary (rather than only forking) gives the child the
 * boot threads a forked copy would lack.
 */
#ifndef _TESTS_WORKQUEUE_HELPERS_H
#define _TESTS_WORKQUEUE_HELPERS_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/smp.h>
#include <shim/test.h>

#define SUITE_TIMEOUT		30	/* seconds: a hang is the failure */
#define CHILD_TIMEOUT		15	/* a child that neither BUGs nor exits */
#define CHILD_ENV		"WQTEST_CHILD"

#define __unused_helper		__attribute__((unused))

/* Wait for a condition another thread makes true; a hang is a timeout. */
#define spin_until(cond)						\
	do {								\
		while (!(cond))						\
			sched_yield();					\
	} while (0)

/* --- child scenarios ---------------------------------------------------- */

struct child_scenario {
	const char *name;
	void (*fn)(void);
} __attribute__((aligned(16)));

#define CHILD_SCENARIO(name)						\
	static void child_##name(void);					\
	static const struct child_scenario __child_scenario_##name	\
	__attribute__((section("wqtest_children"), used, aligned(16))) = \
		{ #name, child_##name };				\
	static void child_##name(void)

extern const struct child_scenario __start_wqtest_children[]
	__attribute__((weak));
extern const struct child_scenario __stop_wqtest_children[]
	__attribute__((weak));

/* In a child: run the scenario named by the environment, then exit. */
__attribute__((constructor(200), unused))
static void child_scenario_runner(void)
{
	const struct child_scenario *s;
	const char *name = getenv(CHILD_ENV);

	if (!name)
		return;
	for (s = __start_wqtest_children; s && s < __stop_wqtest_children; s++) {
		if (strcmp(s->name, name))
			continue;
		s->fn();
		fflush(NULL);
		_exit(0);
	}
	fprintf(stderr, "no child scenario \"%s\"\n", name);
	_exit(126);
}

/* In a child, where Criterion's asserts do not work: exit 3 if @cond fails. */
#define child_check(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "child check failed: %s\n", #cond); \
			_exit(3);					\
		}							\
	} while (0)

/* In a child: say where an object lives, for the parent to look for. */
static __unused_helper void child_note(const char *tag, const void *p)
{
	fprintf(stderr, "note: %s=%p\n", tag, p);
	fflush(stderr);
}

struct child_result {
	int status;		/* as waitpid() reports it */
	char out[16384];	/* the child's stdout and stderr, NUL terminated */
};

/* The environment of a child: ours, less Criterion's and the shim's knobs. */
static char **child_environment(const char *name)
{
	extern char **environ;
	static char scenario[128];
	char **envp;
	int n = 0, i;

	for (i = 0; environ[i]; i++)
		;
	envp = calloc(i + 3, sizeof(*envp));
	cr_assert_not_null(envp);
	for (i = 0; environ[i]; i++) {
		if (!strncmp(environ[i], "BXFI_", 5) ||
		    !strncmp(environ[i], "SHIM_", 5) ||
		    !strncmp(environ[i], CHILD_ENV "=", sizeof(CHILD_ENV)))
			continue;
		envp[n++] = environ[i];
	}
	snprintf(scenario, sizeof(scenario), CHILD_ENV "=%s", name);
	envp[n++] = scenario;
	envp[n++] = "SHIM_LOGLEVEL=8";	/* every printk on stderr */
	envp[n] = NULL;
	return envp;
}

/* Run scenario @name in a fresh process of this binary; wait for it. */
static __unused_helper void run_child(const char *name, struct child_result *res)
{
	char **envp = child_environment(name);
	size_t len = 0;
	ssize_t n;
	int fds[2];
	pid_t pid;
	/* memcheck cannot re-execute the test under itself */
	if (getenv("SHIM_TEST_NO_CHILD"))
		cr_skip_test("a diagnostic checked in a child process: skipped here");

	cr_assert_eq(pipe(fds), 0, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };

		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		setrlimit(RLIMIT_CORE, &no_core);	/* a BUG is expected */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(CHILD_TIMEOUT);
		execve("/proc/self/exe", (char *[]) { "wqtest-child", NULL }, envp);
		_exit(127);
	}
	free(envp);
	close(fds[1]);
	for (;;) {
		char sink[512];

		if (len < sizeof(res->out) - 1)
			n = read(fds[0], res->out + len, sizeof(res->out) - 1 - len);
		else
			n = read(fds[0], sink, sizeof(sink));	/* keep the head */
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len < sizeof(res->out) - 1)
			len += n;
	}
	res->out[len] = '\0';
	close(fds[0]);
	while (waitpid(pid, &res->status, 0) < 0)
		cr_assert_eq(errno, EINTR, "waitpid: %s", strerror(errno));
}

/* The address a child gave with child_note(@tag), as printk's %p shows it. */
static __unused_helper const char *child_noted(const struct child_result *res,
					       const char *tag, char *buf,
					       size_t len)
{
	char key[64];
	const char *p;
	size_t n = 0;

	snprintf(key, sizeof(key), "note: %s=", tag);
	p = strstr(res->out, key);
	cr_assert_not_null(p, "the child did not note %s:\n%s", tag, res->out);
	p += strlen(key);
	while (p[n] && p[n] != '\n' && n < len - 1) {
		buf[n] = p[n];
		n++;
	}
	buf[n] = '\0';
	return buf;
}

/* The child died of SIGABRT (a BUG) and said each of the NULL-ended needles. */
static __unused_helper void assert_child_bug(const struct child_result *res, ...)
{
	const char *needle;
	va_list ap;

	cr_assert(WIFSIGNALED(res->status) && WTERMSIG(res->status) == SIGABRT,
		  "the child did not BUG (status 0x%x); it said:\n%s",
		  res->status, res->out);
	va_start(ap, res);
	while ((needle = va_arg(ap, const char *)))
		cr_assert_not_null(strstr(res->out, needle),
				   "the diagnostic lacks \"%s\":\n%s", needle,
				   res->out);
	va_end(ap);
}

/* --- CPUs and host threads --------------------------------------------- */

/* The @n-th online CPU (0-based), or -1. */
static __unused_helper int nth_online_cpu(int n)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (!n--)
			return cpu;
	return -1;
}

static __unused_helper void skip_unless_smp(void)
{
	if (num_online_cpus() < 2)
		cr_skip_test("needs 2 online CPUs, has %d", num_online_cpus());
}

/* Pin the calling thread to @cpu; 0 or an errno (usable in a child). */
static __unused_helper int pin_thread(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return errno;
	return sched_getcpu() == cpu ? 0 : EINVAL;
}

static __unused_helper void pin_to_cpu(int cpu)
{
	int err = pin_thread(cpu);

	cr_assert_eq(err, 0, "cannot pin to cpu %d: %s", cpu, strerror(err));
}

/* A host thread pinned to @cpu from its first instruction. */
static __unused_helper void start_pinned(pthread_t *thread, int cpu,
					 void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	err = pthread_create(thread, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	cr_assert_eq(err, 0, "pthread_create: %s", strerror(err));
}

static __unused_helper void join(pthread_t thread)
{
	cr_assert_eq(pthread_join(thread, NULL), 0);
}

/* Is some thread of this process named @comm (as ps -L would show it)? */
static __unused_helper int thread_named(const char *comm)
{
	struct dirent *de;
	DIR *dir = opendir("/proc/self/task");
	int found = 0;

	cr_assert_not_null(dir);
	while (!found && (de = readdir(dir))) {
		char path[300], name[32] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;	/* the thread has just gone */
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
		found = !strcmp(name, comm);
	}
	closedir(dir);
	return found;
}

/*
 * Threads that were told to stop return from their function after
 * signalling their last completion; the count drops once they have.
 */
static __unused_helper void wait_kthreads_running(int count)
{
	spin_until(shim_kthreads_running() == count);
}

/* --- the kernel log ----------------------------------------------------- */

/*
 * Suite .init: expected warnings are read back from the log, so only BUG
 * lines (KERN_EMERG) reach the console, unless SHIM_LOGLEVEL says otherwise.
 */
static __unused_helper void quiet_console(void)
{
	if (!getenv("SHIM_LOGLEVEL"))
		shim_printk_set_console_level(1);
}

static char printk_text[1 << 16] __attribute__((unused));

/* Does the printk log hold @needle?  The text is left in printk_text. */
static __unused_helper int printk_contains(const char *needle)
{
	shim_printk_read(printk_text, sizeof(printk_text));
	return strstr(printk_text, needle) != NULL;
}

#define cr_assert_printk(needle)					\
	cr_assert(printk_contains(needle),				\
		  "the kernel log lacks \"%s\":\n%s", (needle), printk_text)
#define cr_assert_no_printk(needle)					\
	cr_assert(!printk_contains(needle),				\
		  "the kernel log has \"%s\":\n%s", (needle), printk_text)

#endif /* _TESTS_WORKQUEUE_HELPERS_H */
