/*
 * quiesce.c - waiting for the sandbox to be idle (shim_quiesce()), virtual
 * time one timer at a time (shim_clock_step()), and busy waits on jiffies
 * seeing time move (shim_jiffies_polled()).
 */
#include <criterion/criterion.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/timer.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <shim/test.h>
#include "helpers.h"

extern unsigned long shim_jiffies_polled(const char *site);
extern void __global_cli(void);
extern void __global_sti(void);

TestSuite(quiesce, .timeout = SUITE_TIMEOUT);

static int done;

static int busy_then_sleep(void *unused)
{
	volatile unsigned long n;
	DECLARE_COMPLETION(never);

	daemonize();
	for (n = 0; n < 50000000; n++)
		;
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	wait_for_completion(&never);
	return 0;
}

Test(quiesce, waits_until_every_other_task_sleeps)
{
	start_kthread(busy_then_sleep, NULL);
	shim_quiesce();
	cr_assert(__atomic_load_n(&done, __ATOMIC_ACQUIRE),
		  "returned while a task could still run");
}

static int bh_ran;

static void slow_bh(void)
{
	volatile unsigned long n;

	for (n = 0; n < 20000000; n++)
		;
	__atomic_store_n(&bh_ran, 1, __ATOMIC_RELEASE);
}

Test(quiesce, waits_for_a_marked_bottom_half)
{
	init_bh(IMMEDIATE_BH, slow_bh);
	mark_bh(IMMEDIATE_BH);
	shim_quiesce();
	cr_assert(__atomic_load_n(&bh_ran, __ATOMIC_ACQUIRE));
	remove_bh(IMMEDIATE_BH);
}

static int fired[4];

static void fire(unsigned long i)
{
	fired[i]++;
}

static void arm(struct timer_list *t, unsigned long i, unsigned long expires)
{
	init_timer(t);
	t->function = fire;
	t->data = i;
	t->expires = expires;
	add_timer(t);
}

Test(quiesce, runs_timers_due_within_a_tick_in_virtual_time)
{
	struct timer_list soon, later;
	unsigned long start;

	shim_clock_virtual();
	start = jiffies;
	arm(&soon, 0, start + 1);
	arm(&later, 1, start + 5);
	cr_assert_eq(shim_quiesce(), 1, "one timer was due within a tick");
	cr_assert_eq(fired[0], 1);
	cr_assert_eq(fired[1], 0, "a timer five ticks away is not idle's");
	cr_assert_eq(jiffies, start + 1);
	cr_assert_eq(shim_quiesce(), 0);
	cr_assert_eq(jiffies, start + 1, "nothing due: time stands");
	del_timer_sync(&later);
}

/* the first timer wakes a task that writes; the second writes too */
static char order[8];
static int norder;
static DECLARE_WAIT_QUEUE_HEAD(order_wait);
static int order_go;

static void note(char c)
{
	order[__atomic_fetch_add(&norder, 1, __ATOMIC_SEQ_CST)] = c;
}

static int woken_writer(void *unused)
{
	volatile unsigned long n;

	daemonize();
	wait_event(order_wait, __atomic_load_n(&order_go, __ATOMIC_ACQUIRE));
	for (n = 0; n < 20000000; n++)
		;
	note('T');
	return 0;
}

static void wake_writer(unsigned long unused)
{
	__atomic_store_n(&order_go, 1, __ATOMIC_RELEASE);
	wake_up(&order_wait);
}

static void write_two(unsigned long unused)
{
	note('2');
}

Test(quiesce, runs_timers_one_at_a_time_each_followed_by_an_idle)
{
	struct timer_list first, second;
	unsigned long now;

	shim_clock_virtual();
	start_kthread(woken_writer, NULL);
	shim_quiesce();
	now = jiffies;
	init_timer(&first);
	first.function = wake_writer;
	first.expires = now + 1;
	add_timer(&first);
	init_timer(&second);
	second.function = write_two;
	second.expires = now + 1;
	add_timer(&second);
	shim_quiesce();
	cr_assert_eq(norder, 2);
	cr_assert_eq(
		memcmp(order, "T2", 2), 0,
		"what the first timer woke finishes before the second: %.2s",
		order);
}

static int polled;

static int sleep_zero_until(void *until)
{
	daemonize();
	/* 2.4 drivers poll with schedule_timeout(0) in a loop */
	while (time_before(jiffies, (unsigned long) until)) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_timeout(0);
		polled++;
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	return 0;
}

Test(quiesce, a_timer_due_now_runs_at_the_next_tick)
{
	int i;

	shim_clock_virtual();
	start_kthread(sleep_zero_until, (void *) (jiffies + 3));
	for (i = 0; i < 10 && !__atomic_load_n(&done, __ATOMIC_ACQUIRE); i++)
		shim_quiesce();
	cr_assert(__atomic_load_n(&done, __ATOMIC_ACQUIRE),
		  "time never moved past a timer re-armed for now");
	cr_assert_eq(polled, 3, "one tick a sleep: %d sleeps", polled);
}

Test(quiesce, clock_step_runs_one_timer)
{
	struct timer_list a, b;
	unsigned long start;

	shim_clock_virtual();
	start = jiffies;
	arm(&a, 2, start + 3);
	arm(&b, 3, start + 3);
	cr_assert_eq(shim_clock_step(start + 10), 1);
	cr_assert_eq(fired[2] + fired[3], 1, "one timer, not both");
	cr_assert_eq(jiffies, start + 3, "time moved to its expiry");
	cr_assert_eq(shim_clock_step(start + 10), 1);
	cr_assert_eq(shim_clock_step(start + 10), 0);
	cr_assert_eq(jiffies, start + 10, "none left: time moved to the end");
}

Test(quiesce, timers_due_at_one_tick_run_in_that_tick)
{
	struct timer_list a, b;
	unsigned long start;

	shim_clock_virtual();
	start = jiffies;
	/* two flip pushes of one interrupt: each a timer for the next tick */
	arm(&a, 2, start + 1);
	arm(&b, 3, start + 1);
	cr_assert_eq(shim_quiesce(), 2);
	cr_assert_eq(fired[2] + fired[3], 2);
	cr_assert_eq(jiffies, start + 1,
		     "the second ran a tick late: %ld ticks went by",
		     (long) (jiffies - start));
}

Test(quiesce, a_busy_wait_on_jiffies_sees_time_move)
{
	unsigned long j;

	shim_clock_virtual();
	j = shim_jiffies_polled("here");
	while (shim_jiffies_polled("here") == j)
		;
	cr_assert_eq(jiffies, j + 1, "a tick went by, no more");
}

Test(quiesce, reads_from_elsewhere_are_no_busy_wait)
{
	unsigned long j;
	int i;

	shim_clock_virtual();
	j = jiffies;
	for (i = 0; i < 100000; i++) {
		shim_jiffies_polled("one");
		shim_jiffies_polled("other");
	}
	cr_assert_eq(jiffies, j, "reads from two places: time stood");
}

CHILD_SCENARIO(busy_wait_inside_cli)
{
	unsigned long j;

	shim_clock_virtual();
	__global_cli();
	j = shim_jiffies_polled("site.c:1");
	while (shim_jiffies_polled("site.c:1") == j)
		;
	__global_sti();
	exit(0);
}

Test(quiesce, a_busy_wait_on_jiffies_inside_cli_is_a_warning)
{
	struct child_result res;

	run_child("busy_wait_inside_cli", NULL, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0, "%s",
		  res.out);
	assert_child_said(&res, "WARNING: site.c:1: ");
	assert_child_said(&res, "busy-waits on jiffies holding the global "
				"interrupt lock");
}

/*
 * A worker leaves with complete_and_exit() while the task that stops it
 * sleeps in wait_for_completion(): between the two, one of them must be
 * counted awake, or a quiesce in between sees the sandbox idle with a
 * task about to run (the exerciser then reports a hang that is not one).
 * Under lazy, the worker's last point (the completion's lock) hands the
 * CPU to main, which is not a worker, so the window is always taken.
 */
static int destroyed;

static void nothing(void *unused)
{
}

static int create_then_destroy(void *unused)
{
	struct workqueue_struct *wq;
	DECLARE_WORK(work, nothing, NULL);

	daemonize();
	wq = create_workqueue("gone");
	child_check(wq != NULL);
	queue_work(wq, &work);
	destroy_workqueue(wq);
	__atomic_store_n(&destroyed, 1, __ATOMIC_RELEASE);
	return 0;
}

CHILD_SCENARIO(quiesce_while_workers_exit)
{
	child_check(kernel_thread(create_then_destroy, NULL, 0) > 0);
	shim_quiesce();
	child_check(__atomic_load_n(&destroyed, __ATOMIC_ACQUIRE));
	exit(0);
}

Test(quiesce, a_worker_leaving_with_complete_and_exit_is_no_idle)
{
	const char *settings[] = { "SHIM_SCHED=lazy",	 "SHIM_SCHED=eager",
				   "SHIM_SCHED=pct:1",	 "SHIM_SCHED=pct:2",
				   "SHIM_SCHED=pct:3",	 "SHIM_SCHED=random:1",
				   "SHIM_SCHED=random:2" };
	struct child_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(settings); i++) {
		run_child("quiesce_while_workers_exit", settings[i], &res);
		cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
			  "%s: quiesce returned before the destroyer was done "
			  "(status 0x%x):\n%s",
			  settings[i], res.status, res.out);
	}
}
