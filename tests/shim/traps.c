/*
 * traps.c - a fault in kernel code is an oops: what, where, which task.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include <linux/sched.h>
#include <linux/completion.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(traps, .timeout = SUITE_TIMEOUT);

/* A sanitizer reports faults itself, and the shim then leaves them to it. */
static void skip_under_sanitizer(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	cr_skip_test("the sanitizer's own handler reports faults here");
#endif
}

static void assert_child_died_of(const struct child_result *res, int sig)
{
	cr_assert(WIFSIGNALED(res->status) && WTERMSIG(res->status) == sig,
		  "the child should die of %s (status 0x%x); it said:\n%s",
		  strsignal(sig), res->status, res->out);
}

/* a driver's bad pointer: it comes from data, so the compiler cannot know */
static int deref_thread(void *data)
{
	strcpy(current->comm, "faulty");
	return *(volatile int *) data;
}

CHILD_SCENARIO(null_deref_in_kernel_thread)
{
	kernel_thread(deref_thread, NULL, 0);
	for (;;)
		pause();
}

Test(traps, a_null_dereference_in_a_kernel_thread_is_an_oops_naming_it)
{
	struct child_result res;

	skip_under_sanitizer();
	run_child("null_deref_in_kernel_thread", NULL, &res);
	assert_child_died_of(&res, SIGSEGV);
	assert_child_said(&res, "Unable to handle kernel NULL pointer "
				"dereference at virtual address 00000000");
	assert_child_said(&res, "Oops: Segmentation fault in faulty/");
	assert_child_said(&res, "Call Trace:");
}

CHILD_SCENARIO(bad_pointer_under_spinlock)
{
	static spinlock_t lock = SPIN_LOCK_UNLOCKED;
	volatile int *p = (volatile int *) (uintptr_t) 0xdead000UL;

	strcpy(current->comm, "locked");
	spin_lock(&lock);
	(void) *p;
	spin_unlock(&lock);
}

Test(traps, a_bad_pointer_is_a_paging_request_with_the_preempt_count)
{
	struct child_result res;

	skip_under_sanitizer();
	run_child("bad_pointer_under_spinlock", NULL, &res);
	assert_child_died_of(&res, SIGSEGV);
	assert_child_said(&res, "Unable to handle kernel paging request at "
				"virtual address 0dead000");
	assert_child_said(&res, "in locked/");
	assert_child_said(&res, "preempt_count 0x00000001");
}

static volatile int divisor;

CHILD_SCENARIO(divide_by_zero)
{
	strcpy(current->comm, "divider");
	/* not 1 / x: the compiler makes that a compare */
	printf("%d\n", 1000 / divisor);
}

Test(traps, a_division_by_zero_is_a_divide_error)
{
	struct child_result res;

	skip_under_sanitizer();
	run_child("divide_by_zero", NULL, &res);
	assert_child_died_of(&res, SIGFPE);
	assert_child_said(&res, "divide error");
	assert_child_said(&res, "Oops: Floating point exception in divider/");
}

/* a SIGSEGV sent, not taken: reported, and still the end of the process */
CHILD_SCENARIO(segv_sent)
{
	raise(SIGSEGV);
	printf("survived\n");
}

Test(traps, a_fault_signal_that_was_sent_still_ends_the_process)
{
	struct child_result res;

	skip_under_sanitizer();
	run_child("segv_sent", NULL, &res);
	assert_child_died_of(&res, SIGSEGV);
	cr_assert_null(strstr(res.out, "survived"), "it said:\n%s", res.out);
}
