/*
 * kthread.c - kernel_thread(), daemonize(), comm and current.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(kthread, .timeout = SUITE_TIMEOUT);

struct kt {
	struct task_struct *task;
	struct task_struct *parent;
	int pid;
	unsigned long flags;
	char comm[16];
	char host_before[32];
	char host_after[32];
	pid_t tid;
	int sigs_blocked;
	struct completion named, release, done;
};

static void kt_init(struct kt *k)
{
	memset(k, 0, sizeof(*k));
	init_completion(&k->named);
	init_completion(&k->release);
	init_completion(&k->done);
}

static int report_self(void *arg)
{
	struct kt *k = arg;

	k->task = current;
	k->pid = current->pid;
	k->flags = current->flags;
	memcpy(k->comm, current->comm, sizeof(k->comm));
	complete(&k->done);
	return 0;
}

Test(kthread, returns_positive_pid_and_runs_as_another_task)
{
	struct kt k;
	int pid;

	kt_init(&k);
	pid = kernel_thread(report_self, &k,
			    CLONE_FS | CLONE_FILES | CLONE_SIGHAND);
	cr_assert_gt(pid, 0);
	wait_for_completion(&k.done);
	cr_assert_neq(k.task, current);
	cr_assert_eq(k.pid, pid, "current->pid %d in the thread, %d returned",
		     k.pid, pid);
	cr_assert(k.flags & PF_KTHREAD);
	cr_assert_str_eq(k.comm, current->comm,
			 "comm is inherited until daemonize()");
}

Test(kthread, pids_are_distinct)
{
	struct kt a, b;
	int pa, pb;

	kt_init(&a);
	kt_init(&b);
	pa = start_kthread(report_self, &a);
	pb = start_kthread(report_self, &b);
	wait_for_completion(&a.done);
	wait_for_completion(&b.done);
	cr_assert_neq(pa, pb);
	cr_assert_neq(pa, current->pid);
	cr_assert_neq(pb, current->pid);
}

static int named_thread(void *arg)
{
	struct kt *k = arg;

	strcpy(current->comm, "shimtest/0");
	daemonize();
	k->tid = host_tid();
	complete(&k->named);
	wait_for_completion(&k->release);
	complete(&k->done);
	return 0;
}

Test(kthread, daemonize_names_the_host_thread)
{
	char comm[32];
	struct kt k;

	kt_init(&k);
	start_kthread(named_thread, &k);
	wait_for_completion(&k.named);
	host_comm(k.tid, comm, sizeof(comm));
	cr_assert_str_eq(comm, "shimtest/0");
	complete(&k.release);
	wait_for_completion(&k.done);
}

static int renaming_thread(void *arg)
{
	struct kt *k = arg;

	strcpy(current->comm, "before");
	daemonize();
	k->tid = host_tid();
	strcpy(current->comm, "after/1");
	host_comm(k->tid, k->host_before, sizeof(k->host_before));
	set_current_state(TASK_RUNNING);
	schedule();
	host_comm(k->tid, k->host_after, sizeof(k->host_after));
	complete(&k->named);
	wait_for_completion(&k->release);
	complete(&k->done);
	return 0;
}

Test(kthread, comm_written_later_shows_at_next_schedule)
{
	char comm[32];
	struct kt k;

	kt_init(&k);
	start_kthread(renaming_thread, &k);
	wait_for_completion(&k.named);
	cr_assert_str_eq(k.host_before, "before", "renamed before schedule()");
	cr_assert_str_eq(k.host_after, "after/1", "not renamed at schedule()");
	host_comm(k.tid, comm, sizeof(comm));
	cr_assert_str_eq(comm, "after/1");
	complete(&k.release);
	wait_for_completion(&k.done);
}

static int long_name_thread(void *arg)
{
	struct kt *k = arg;

	/* all 16 bytes used, no NUL: more than the host's 15 characters */
	memcpy(current->comm, "0123456789abcdef", sizeof(current->comm));
	daemonize();
	k->tid = host_tid();
	complete(&k->named);
	wait_for_completion(&k->release);
	complete(&k->done);
	return 0;
}

Test(kthread, long_comm_is_truncated_for_the_host)
{
	char comm[32];
	struct kt k;

	kt_init(&k);
	start_kthread(long_name_thread, &k);
	wait_for_completion(&k.named);
	host_comm(k.tid, comm, sizeof(comm));
	cr_assert_str_eq(comm, "0123456789abcde");
	complete(&k.release);
	wait_for_completion(&k.done);
}

static int blocking_thread(void *arg)
{
	struct kt *k = arg;
	sigset_t set;

	pthread_sigmask(SIG_BLOCK, NULL, &set);
	k->sigs_blocked = sigismember(&set, SIGCHLD) &&
			  sigismember(&set, SIGINT) &&
			  sigismember(&set, SIGTERM);
	wait_for_completion(&k->release);
	complete(&k->done);
	return 0;
}

Test(kthread, running_count_follows_start_and_exit)
{
	int base = shim_kthreads_running();
	struct kt k;

	kt_init(&k);
	start_kthread(blocking_thread, &k);
	cr_assert_eq(shim_kthreads_running(), base + 1);
	complete(&k.release);
	wait_for_completion(&k.done);
	wait_kthreads_running(base);
}

Test(kthread, kernel_threads_take_no_host_signals)
{
	struct kt k;

	kt_init(&k);
	start_kthread(blocking_thread, &k);
	complete(&k.release);
	wait_for_completion(&k.done);
	cr_assert(k.sigs_blocked,
		  "SIGCHLD, SIGINT and SIGTERM belong to the host program");
}

/* current in threads the shim did not start */
struct plain {
	const char *name;
	struct task_struct *task;
	int stable;
	int pid;
	char comm[16];
	pthread_barrier_t *both_alive;
};

static void *plain_thread(void *arg)
{
	struct plain *p = arg;

	pthread_setname_np(pthread_self(), p->name);
	p->task = current;
	p->stable = current == p->task;
	p->pid = current->pid;
	memcpy(p->comm, current->comm, sizeof(p->comm));
	/* both tasks exist at once: their addresses cannot be reused */
	pthread_barrier_wait(p->both_alive);
	return NULL;
}

Test(kthread, current_works_in_plain_pthreads_and_differs)
{
	pthread_barrier_t barrier;
	struct plain p[2] = {
		{ .name = "plain-a", .both_alive = &barrier },
		{ .name = "plain-b", .both_alive = &barrier },
	};
	pthread_t t[2];
	int i;

	pthread_barrier_init(&barrier, NULL, 2);
	for (i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, plain_thread, &p[i]),
			     0);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&barrier);

	for (i = 0; i < 2; i++) {
		cr_assert_not_null(p[i].task);
		cr_assert(p[i].stable);
		cr_assert_neq(p[i].task, current);
		cr_assert_gt(p[i].pid, 0);
		cr_assert_str_eq(p[i].comm, p[i].name,
				 "named as the host names it");
	}
	cr_assert_neq(p[0].task, p[1].task);
	cr_assert_neq(p[0].pid, p[1].pid);
}

static int exiting_thread(void *arg)
{
	complete_and_exit(arg, 0);
}

Test(kthread, complete_and_exit_is_gone_when_the_completion_fires)
{
	int base = shim_kthreads_running();
	DECLARE_COMPLETION(done);
	int i;

	for (i = 0; i < 100; i++) {
		start_kthread(exiting_thread, &done);
		wait_for_completion(&done);
		cr_assert_eq(shim_kthreads_running(), base,
			     "still counted after its completion");
	}
}

CHILD_SCENARIO(complete_and_exit_from_main)
{
	DECLARE_COMPLETION(done);

	strcpy(current->comm, "notkthread");
	complete_and_exit(&done, 0);
}

Test(kthread, complete_and_exit_outside_a_kernel_thread_is_a_bug)
{
	struct child_result res;

	run_child("complete_and_exit_from_main", NULL, &res);
	assert_child_bug(&res, "BUG: complete_and_exit() from notkthread/");
	assert_child_said(&res, "not a kernel thread");
}

static int do_nothing(void *unused)
{
	return 0;
}

CHILD_SCENARIO(kernel_thread_in_interrupt)
{
	strcpy(current->comm, "irq");
	irq_enter();
	kernel_thread(do_nothing, NULL, 0); /* do_fork() sleeps to allocate */
	irq_exit();
	exit(0);
}

Test(kthread, kernel_thread_from_interrupt_context_is_a_bug)
{
	struct child_result res;

	run_child("kernel_thread_in_interrupt", NULL, &res);
	assert_child_bug(&res, "BUG: sleeping function called from invalid "
			       "context: kernel_thread() in irq/");
}
