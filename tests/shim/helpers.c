/*
 * helpers.c - /proc probes and kernel-thread helpers for
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
	int pid =
		kernel_thread(fn, arg, CLONE_FS | CLONE_FILES | CLONE_SIGHAND);

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
