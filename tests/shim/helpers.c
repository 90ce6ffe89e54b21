/*
 * helpers.c - child scenarios, /proc probes and kernel-thread helpers for
 * the shim's suites.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sched.h>
#include <shim/test.h>
#include "helpers.h"

/* --- child scenarios ---------------------------------------------------- */

extern const struct child_scenario __start_shimtest_children[]
	__attribute__((weak));
extern const struct child_scenario __stop_shimtest_children[]
	__attribute__((weak));

/*
 * In a child started by run_child(): run the scenario and exit before
 * Criterion's main().  The shim has booted by now (its constructors run at
 * priorities 102 to 120), so the child sees what a program's main() sees.
 */
__attribute__((constructor(1000)))
static void child_dispatch(void)
{
	const char *name = getenv("SHIM_TEST_CHILD");
	const struct child_scenario *s;

	if (!name)
		return;
	/* a child that hangs must not outlive the test */
	alarm(SUITE_TIMEOUT - 5);
	for (s = __start_shimtest_children; s && s < __stop_shimtest_children; s++) {
		if (strcmp(s->name, name))
			continue;
		s->fn();
		fflush(stdout);
		exit(0);
	}
	fprintf(stderr, "no child scenario named %s\n", name);
	_exit(126);
}

void run_child(const char *name, const char *env, struct child_result *res)
{
	char exe[PATH_MAX], var[128], scratch[4096];
	char *argv[2], *envp[3];
	size_t len = 0;
	int fds[2], n = 0;
	ssize_t r;
	pid_t pid;
	/* memcheck cannot re-execute the test under itself */
	if (getenv("SHIM_TEST_NO_CHILD"))
		cr_skip_test("a diagnostic checked in a child process: skipped here");

	r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	cr_assert_gt(r, 0, "readlink /proc/self/exe: %m");
	exe[r] = '\0';
	snprintf(var, sizeof(var), "SHIM_TEST_CHILD=%s", name);
	argv[0] = exe;
	argv[1] = NULL;
	envp[n++] = var;
	if (env)
		envp[n++] = (char *) env;
	envp[n] = NULL;

	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0, "pipe2: %m");
	pid = fork();
	cr_assert_geq(pid, 0, "fork: %m");
	if (pid == 0) {
		/* only async-signal-safe calls until execve() */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execve(exe, argv, envp);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		if (len < sizeof(res->out) - 1)
			r = read(fds[0], res->out + len, sizeof(res->out) - 1 - len);
		else
			r = read(fds[0], scratch, sizeof(scratch));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (len < sizeof(res->out) - 1)
			len += r;
	}
	res->out[len] = '\0';
	close(fds[0]);
	while (waitpid(pid, &res->status, 0) < 0)
		cr_assert_eq(errno, EINTR, "waitpid: %m");
}

void assert_child_bug(const struct child_result *res, const char *needle)
{
	cr_assert(WIFSIGNALED(res->status) && WTERMSIG(res->status) == SIGABRT,
		  "the child should die of SIGABRT (status 0x%x); it said:\n%s",
		  res->status, res->out);
	assert_child_said(res, needle);
}

void assert_child_said(const struct child_result *res, const char *needle)
{
	cr_assert(strstr(res->out, needle), "expected \"%s\" from the child; "
		  "it said:\n%s", needle, res->out);
}

/* --- host threads, seen through /proc ---------------------------------- */

pid_t host_tid(void)
{
	return gettid();
}

static int read_task_file(pid_t tid, const char *file, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", (int) tid, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

void host_comm(pid_t tid, char *buf, size_t len)
{
	if (read_task_file(tid, "comm", buf, len)) {
		snprintf(buf, len, "(gone)");
		return;
	}
	buf[strcspn(buf, "\n")] = '\0';
}

void wait_host_comm(pid_t tid, const char *name)
{
	char comm[32];

	for (;;) {
		host_comm(tid, comm, sizeof(comm));
		if (!strcmp(comm, name))
			return;
		sched_yield();
	}
}

char host_state(pid_t tid)
{
	char stat[1024], *p;

	if (read_task_file(tid, "stat", stat, sizeof(stat)))
		return '?';
	/* "tid (comm) S ...": comm may hold anything, even ") " */
	p = strrchr(stat, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* --- kernel threads ----------------------------------------------------- */

int start_kthread(int (*fn)(void *), void *arg)
{
	int pid = kernel_thread(fn, arg, CLONE_FS | CLONE_FILES | CLONE_SIGHAND);

	cr_assert_gt(pid, 0, "kernel_thread failed: %d", pid);
	return pid;
}

void wait_kthreads_running(int count)
{
	while (shim_kthreads_running() > count)
		sched_yield();
	cr_assert_eq(shim_kthreads_running(), count);
}

void meet(int *arrived, int n)
{
	__atomic_add_fetch(arrived, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(arrived, __ATOMIC_SEQ_CST) < n)
		sched_yield();
}

void quiet_console(void)
{
	shim_printk_set_console_level(0);
}
