/*
 * stack.h - what the suites of the two stacks share (tests/workqueue and
 * tests/taskqueue): nothing here names either stack's API, only the
 * shim's.
 *
 * Criterion runs each test in a process of its own, so each starts with a
 * fresh shim: real clock, nothing allocated, the boot threads (ksoftirqd,
 * and keventd or the events workers) idle.
 *
 * A diagnostic whose text matters is checked in a child (../child.h).
 */
#ifndef _TESTS_STACK_H
#define _TESTS_STACK_H

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

#include "child.h"
#include "suite.h"

#define __unused_helper __attribute__((unused))

/* Wait for a condition another thread makes true; a hang is a timeout. */
#define spin_until(cond)               \
	do {                           \
		while (!(cond))        \
			sched_yield(); \
	} while (0)

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
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue; /* the thread has just gone */
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

#define cr_assert_printk(needle)                                               \
	cr_assert(printk_contains(needle), "the kernel log lacks \"%s\":\n%s", \
		  (needle), printk_text)
#define cr_assert_no_printk(needle)                                           \
	cr_assert(!printk_contains(needle), "the kernel log has \"%s\":\n%s", \
		  (needle), printk_text)

#endif /* _TESTS_STACK_H */
