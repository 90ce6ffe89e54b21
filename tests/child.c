/*
 * child.c - run a test scenario in a fresh process of the test binary and
 * collect what it said (see child.h).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

#define CHILD_ENV "TEST_CHILD"

extern const struct child_scenario __start_test_children[]
	__attribute__((weak));
extern const struct child_scenario __stop_test_children[] __attribute__((weak));

/* In a child started by run_child(): run the scenario, then exit. */
__attribute__((constructor(1000))) static void child_dispatch(void)
{
	const char *name = getenv(CHILD_ENV);
	const struct child_scenario *s;

	if (!name)
		return;
	for (s = __start_test_children; s && s < __stop_test_children; s++) {
		if (strcmp(s->name, name))
			continue;
		s->fn();
		/* as a program's main() returning: exit-time checks run */
		exit(0);
	}
	fprintf(stderr, "no child scenario named \"%s\"\n", name);
	_exit(126);
}

/*
 * Ours, less Criterion's and the shim's knobs, plus the scenario and @env
 * (assignments separated by spaces).
 */
static char **child_environment(const char *name, const char *env)
{
	extern char **environ;
	static char scenario[128], assignments[1024];
	char **envp, *save, *word;
	int n = 0, i;

	for (i = 0; environ[i]; i++)
		;
	envp = calloc(i + 2 + (env ? strlen(env) / 2 + 1 : 0), sizeof(*envp));
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
	if (env) {
		snprintf(assignments, sizeof(assignments), "%s", env);
		for (word = strtok_r(assignments, " ", &save); word;
		     word = strtok_r(NULL, " ", &save))
			envp[n++] = word;
	}
	envp[n] = NULL;
	return envp;
}

void run_child(const char *name, const char *env, struct child_result *res)
{
	char **envp;
	size_t len = 0;
	ssize_t n;
	int fds[2];
	pid_t pid;

	/* memcheck cannot re-execute the test under itself */
	if (getenv("SHIM_TEST_NO_CHILD"))
		cr_skip_test(
			"a diagnostic checked in a child process: skipped here");

	envp = child_environment(name, env);
	cr_assert_eq(pipe(fds), 0, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };

		/* only async-signal-safe calls until execve() */
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		setrlimit(RLIMIT_CORE, &no_core); /* a BUG is expected */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(CHILD_TIMEOUT);
		execve("/proc/self/exe", (char *[]){ "test-child", NULL },
		       envp);
		_exit(127);
	}
	free(envp);
	close(fds[1]);
	for (;;) {
		char sink[512];

		if (len < sizeof(res->out) - 1)
			n = read(fds[0], res->out + len,
				 sizeof(res->out) - 1 - len);
		else
			n = read(fds[0], sink,
				 sizeof(sink)); /* keep the head */
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

void __assert_child_bug(const struct child_result *res, ...)
{
	const char *needle;
	va_list ap;

	cr_assert(WIFSIGNALED(res->status) && WTERMSIG(res->status) == SIGABRT,
		  "the child did not BUG (status 0x%x); it said:\n%s",
		  res->status, res->out);
	va_start(ap, res);
	while ((needle = va_arg(ap, const char *)))
		assert_child_said(res, needle);
	va_end(ap);
}

void assert_child_said(const struct child_result *res, const char *needle)
{
	cr_assert_not_null(strstr(res->out, needle),
			   "expected \"%s\" from the "
			   "child; it said:\n%s",
			   needle, res->out);
}

void child_check_failed(const char *what)
{
	fprintf(stderr, "child check failed: %s\n", what);
	fflush(stderr);
	_exit(3);
}

void child_note(const char *tag, const void *p)
{
	fprintf(stderr, "note: %s=%p\n", tag, p);
	fflush(stderr);
}

const char *child_noted(const struct child_result *res, const char *tag,
			char *buf, size_t len)
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
