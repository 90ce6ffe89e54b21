/*
 * fault.c - fault injection: the n-th kmalloc or kernel_thread fails, from
 * the test API and from the environment.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/completion.h>
#include <shim/test.h>
#include "helpers.h"

static void no_faults(void)
{
	shim_fail_kmalloc_nth(0);
	shim_fail_kthread_nth(0);
}

TestSuite(fault, .timeout = SUITE_TIMEOUT, .fini = no_faults);

Test(fault, second_kmalloc_fails_when_asked)
{
	long base = shim_kmalloc_outstanding();
	void *a, *b, *c;

	shim_fail_kmalloc_nth(2);
	a = kmalloc(10, GFP_KERNEL);
	b = kmalloc(10, GFP_KERNEL);
	c = kmalloc(10, GFP_KERNEL);
	cr_assert_not_null(a);
	cr_assert_null(b);
	cr_assert_not_null(c);
	cr_assert_eq(shim_kmalloc_outstanding(), base + 2,
		     "the failed one is not counted");
	kfree(a);
	kfree(c);
	cr_assert_eq(shim_kmalloc_outstanding(), base);
}

Test(fault, injected_failure_is_logged)
{
	char log[1024];

	shim_printk_clear();
	shim_fail_kmalloc_nth(1);
	cr_assert_null(kmalloc(33, GFP_KERNEL));
	shim_printk_read(log, sizeof(log));
	cr_assert(strstr(log, "FAULT_INJECTION: kmalloc(33)"), "log: %s", log);
}

Test(fault, zero_turns_injection_off)
{
	void *p[3];
	int i;

	shim_fail_kmalloc_nth(2);
	shim_fail_kmalloc_nth(0);
	for (i = 0; i < 3; i++) {
		p[i] = kmalloc(8, GFP_KERNEL);
		cr_assert_not_null(p[i]);
	}
	for (i = 0; i < 3; i++)
		kfree(p[i]);
}

Test(fault, kmem_cache_alloc_fails_too)
{
	kmem_cache_t *cache = kmem_cache_create("fault", 16, 0, 0, NULL, NULL);

	cr_assert_not_null(cache);
	shim_fail_kmalloc_nth(1);
	cr_assert_null(kmem_cache_alloc(cache, GFP_KERNEL));
	kmem_cache_destroy(cache);
}

static int started;

static int must_not_run(void *arg)
{
	__atomic_store_n(&started, 1, __ATOMIC_SEQ_CST);
	complete(arg);
	return 0;
}

Test(fault, failed_kernel_thread_starts_nothing)
{
	int base = shim_kthreads_running();
	DECLARE_COMPLETION(done);
	int pid;

	shim_fail_kthread_nth(1);
	pid = kernel_thread(must_not_run, &done, 0);
	cr_assert_lt(pid, 0, "kernel_thread returned %d", pid);
	cr_assert_eq(shim_kthreads_running(), base);

	/* the next one works, and is the only one that ever ran */
	pid = kernel_thread(must_not_run, &done, 0);
	cr_assert_gt(pid, 0);
	wait_for_completion(&done);
	cr_assert_eq(done.done, 0, "the failed thread ran too");
	wait_kthreads_running(base);
}

Test(fault, second_kernel_thread_fails_when_asked)
{
	DECLARE_COMPLETION(done);

	shim_fail_kthread_nth(2);
	cr_assert_gt(kernel_thread(must_not_run, &done, 0), 0);
	cr_assert_lt(kernel_thread(must_not_run, &done, 0), 0);
	wait_for_completion(&done);
}

/* the environment: counted from the start of the program */

CHILD_SCENARIO(kmalloc_from_env)
{
	void *a = kmalloc(1, GFP_KERNEL);
	void *b = kmalloc(1, GFP_KERNEL);
	void *c = kmalloc(1, GFP_KERNEL);

	printf("kmalloc: %s %s %s\n", a ? "ok" : "NULL", b ? "ok" : "NULL",
	       c ? "ok" : "NULL");
	kfree(a);
	kfree(b);
	kfree(c);
}

Test(fault, env_shim_fail_kmalloc)
{
	struct child_result res;

	run_child("kmalloc_from_env", "SHIM_FAIL_KMALLOC=2", &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "status 0x%x: %s", res.status, res.out);
	assert_child_said(&res, "kmalloc: ok NULL ok\n");

	run_child("kmalloc_from_env", NULL, &res);
	assert_child_said(&res, "kmalloc: ok ok ok\n");
}

static int noop_thread(void *arg)
{
	complete(arg);
	return 0;
}

CHILD_SCENARIO(kthread_from_env)
{
	DECLARE_COMPLETION(done);
	int a = kernel_thread(noop_thread, &done, 0);
	int b = kernel_thread(noop_thread, &done, 0);

	if (a > 0)
		wait_for_completion(&done);
	if (b > 0)
		wait_for_completion(&done);
	printf("kernel_thread: %s %s\n", a > 0 ? "ok" : "failed",
	       b > 0 ? "ok" : "failed");
}

Test(fault, env_shim_fail_kthread)
{
	struct child_result res;

	run_child("kthread_from_env", "SHIM_FAIL_KTHREAD=1", &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "status 0x%x: %s", res.status, res.out);
	assert_child_said(&res, "kernel_thread: failed ok");
}

Test(fault, env_value_that_is_not_a_number_is_ignored)
{
	struct child_result res;

	run_child("kmalloc_from_env", "SHIM_FAIL_KMALLOC=two", &res);
	assert_child_said(&res,
			  "SHIM_FAIL_KMALLOC=two is not a number; ignored");
	assert_child_said(&res, "kmalloc: ok ok ok\n");
}
