/*
 * timer.c - kernel timers, in virtual time (deterministic) and real time.
 */
#include <criterion/criterion.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/timer.h>
#include <linux/slab.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <asm/processor.h>
#include <shim/test.h>
#include "helpers.h"

#define NR_TIMERS 6

static struct timer_list timers[NR_TIMERS];
static int order[16];
static int fired;

static void record(unsigned long data)
{
	order[fired++] = (int) data;
}

static void arm(int i, unsigned long expires)
{
	init_timer(&timers[i]);
	timers[i].function = record;
	timers[i].data = i;
	timers[i].expires = expires;
	add_timer(&timers[i]);
}

/* every test leaves no timer behind */
static void stop_timers(void)
{
	int i;

	for (i = 0; i < NR_TIMERS; i++)
		if (timers[i].function)
			del_timer_sync(&timers[i]);
}

static void virtual_clock(void)
{
	shim_clock_virtual();
}

TestSuite(timer, .timeout = SUITE_TIMEOUT, .init = virtual_clock,
	  .fini = stop_timers);

Test(timer, fires_in_expiry_order_then_arming_order)
{
	unsigned long now = jiffies;

	arm(0, now + 30);
	arm(1, now + 10);
	arm(2, now + 20);
	arm(3, now + 10);
	arm(4, now + 40);
	shim_clock_advance(35);
	cr_assert_eq(fired, 4);
	cr_assert_eq(order[0], 1);
	cr_assert_eq(order[1], 3, "equal expiries fire in arming order");
	cr_assert_eq(order[2], 2);
	cr_assert_eq(order[3], 0);
	cr_assert(timer_pending(&timers[4]));
	cr_assert_not(timer_pending(&timers[0]));
}

Test(timer, does_not_fire_before_its_jiffy)
{
	arm(0, jiffies + 10);
	shim_clock_advance(9);
	cr_assert_eq(fired, 0);
	cr_assert(timer_pending(&timers[0]));
	shim_clock_advance(1);
	cr_assert_eq(fired, 1);
	cr_assert_not(timer_pending(&timers[0]));
}

static struct {
	struct task_struct *task;
	unsigned long at;
	int in_interrupt, in_softirq, in_irq;
} ctx;

static void look_around(unsigned long data)
{
	ctx.task = current;
	ctx.at = jiffies;
	ctx.in_interrupt = in_interrupt();
	ctx.in_softirq = in_softirq();
	ctx.in_irq = in_irq();
}

Test(timer, fires_in_timer_context_before_advance_returns)
{
	unsigned long expires = jiffies + 7;

	init_timer(&timers[0]);
	timers[0].function = look_around;
	timers[0].expires = expires;
	add_timer(&timers[0]);
	shim_clock_advance(100);
	cr_assert_eq(ctx.task, current,
		     "virtual time fires in the advancing thread");
	cr_assert(ctx.in_interrupt);
	cr_assert(ctx.in_softirq);
	cr_assert_not(ctx.in_irq);
	cr_assert_eq(ctx.at, expires,
		     "jiffies inside the handler: %lu, not %lu", ctx.at,
		     expires);
	cr_assert_eq(jiffies, expires - 7 + 100);
	cr_assert_not(in_interrupt());
}

Test(timer, fires_on_time_across_the_jiffies_wrap)
{
	unsigned long expires = jiffies + 400 * HZ;

	cr_assert_lt(expires, jiffies, "jiffies should wrap within 400 s");
	arm(0, expires);
	/* numerically larger, but due first */
	arm(1, jiffies + 200 * HZ);
	shim_clock_advance(200 * HZ);
	cr_assert_eq(fired, 1, "the timer before the wrap did not fire");
	cr_assert_eq(order[0], 1);
	shim_clock_advance(199 * HZ);
	cr_assert_eq(fired, 1, "fired %ld jiffies early",
		     (long) (expires - jiffies));
	shim_clock_advance(HZ);
	cr_assert_eq(fired, 2);
	cr_assert_eq(order[1], 0);
	cr_assert_eq(jiffies, expires);
}

Test(timer, mod_timer_on_pending_timer_returns_1_and_resorts)
{
	unsigned long now = jiffies;

	arm(0, now + 10);
	arm(1, now + 20);
	cr_assert_eq(mod_timer(&timers[0], now + 30), 1);
	shim_clock_advance(25);
	cr_assert_eq(fired, 1);
	cr_assert_eq(order[0], 1);
	shim_clock_advance(5);
	cr_assert_eq(fired, 2);
	cr_assert_eq(order[1], 0);
}

Test(timer, mod_timer_on_idle_timer_returns_0_and_arms_it)
{
	init_timer(&timers[0]);
	timers[0].function = record;
	timers[0].data = 0;
	cr_assert_eq(mod_timer(&timers[0], jiffies + 5), 0);
	cr_assert(timer_pending(&timers[0]));
	shim_clock_advance(5);
	cr_assert_eq(fired, 1);
}

Test(timer, mod_timer_can_bring_a_timer_forward)
{
	unsigned long now = jiffies;

	arm(0, now + 50);
	arm(1, now + 20);
	cr_assert_eq(mod_timer(&timers[0], now + 10), 1);
	shim_clock_advance(30);
	cr_assert_eq(fired, 2);
	cr_assert_eq(order[0], 0);
	cr_assert_eq(order[1], 1);
}

Test(timer, del_timer_returns_1_if_pending_and_the_timer_never_fires)
{
	arm(0, jiffies + 10);
	cr_assert_eq(del_timer(&timers[0]), 1);
	cr_assert_not(timer_pending(&timers[0]));
	cr_assert_eq(del_timer(&timers[0]), 0);
	shim_clock_advance(20);
	cr_assert_eq(fired, 0);
}

Test(timer, del_timer_of_fired_timer_returns_0)
{
	arm(0, jiffies + 1);
	shim_clock_advance(1);
	cr_assert_eq(fired, 1);
	cr_assert_eq(del_timer(&timers[0]), 0);
	cr_assert_eq(del_timer_sync(&timers[0]), 0);
}

static void rearm(unsigned long data)
{
	record(data);
	if (fired < 3)
		mod_timer(&timers[data], jiffies + 10);
}

Test(timer, handler_may_rearm_its_timer)
{
	init_timer(&timers[0]);
	timers[0].function = rearm;
	timers[0].data = 0;
	timers[0].expires = jiffies + 10;
	add_timer(&timers[0]);
	shim_clock_advance(25);
	cr_assert_eq(fired, 2);
	shim_clock_advance(1000);
	cr_assert_eq(fired, 3);
	cr_assert_not(timer_pending(&timers[0]));
}

static int static_fired;

static void static_handler(unsigned long data)
{
	static_fired = (int) data;
}

static struct timer_list static_timer =
	TIMER_INITIALIZER(static_handler, 0, 42);

static void stop_static_timer(void)
{
	del_timer_sync(&static_timer);
}

Test(timer, timer_initializer_makes_an_idle_timer, .fini = stop_static_timer)
{
	cr_assert_not(timer_pending(&static_timer));
	static_timer.expires = jiffies + 3;
	add_timer(&static_timer);
	shim_clock_advance(3);
	cr_assert_eq(static_fired, 42);
}

/* misuse, in children */

CHILD_SCENARIO(add_pending_timer)
{
	shim_clock_virtual();
	arm(0, jiffies + 10);
	add_timer(&timers[0]);
}

Test(timer, add_timer_of_pending_timer_is_a_bug)
{
	struct child_result res;

	run_child("add_pending_timer", NULL, &res);
	assert_child_bug(&res, "BUG: add_timer(");
	assert_child_said(&res, "is already pending");
}

static void sleeping_handler(unsigned long data)
{
	schedule();
}

CHILD_SCENARIO(sleep_in_timer)
{
	shim_clock_virtual();
	strcpy(current->comm, "advancer");
	init_timer(&timers[0]);
	timers[0].function = sleeping_handler;
	timers[0].expires = jiffies + 1;
	add_timer(&timers[0]);
	shim_clock_advance(1);
}

Test(timer, schedule_in_timer_context_is_a_bug)
{
	struct child_result res;

	run_child("sleep_in_timer", NULL, &res);
	assert_child_bug(&res, "BUG: scheduling while atomic: advancer/");
}

static void self_deleting_handler(unsigned long data)
{
	del_timer_sync(&timers[0]);
}

CHILD_SCENARIO(del_timer_sync_in_own_handler)
{
	shim_clock_virtual();
	init_timer(&timers[0]);
	timers[0].function = self_deleting_handler;
	timers[0].expires = jiffies + 1;
	add_timer(&timers[0]);
	shim_clock_advance(1);
}

Test(timer, del_timer_sync_from_own_handler_is_a_bug)
{
	struct child_result res;

	run_child("del_timer_sync_in_own_handler", NULL, &res);
	assert_child_bug(&res, "BUG: del_timer_sync(",
			 "): timer deleted from its own handler: it would wait "
			 "forever (function self_deleting_handler)");
}

/* debugobjects' checks: a timer init_timer() never saw, one freed pending */

CHILD_SCENARIO(mod_timer_uninitialised)
{
	struct timer_list *t = kmalloc(sizeof(*t), GFP_KERNEL);

	shim_clock_virtual();
	strcpy(current->comm, "arming");
	t->function = record; /* but no init_timer(): POISON_INUSE in entry */
	mod_timer(t, jiffies + 1);
	exit(0);
}

Test(timer, mod_timer_of_an_uninitialised_timer_is_a_bug)
{
	struct child_result res;

	run_child("mod_timer_uninitialised", NULL, &res);
	assert_child_bug(&res, "BUG: mod_timer(",
			 "): timer is not initialised (init_timer, "
			 "TIMER_INITIALIZER) (function record), by arming/");
}

CHILD_SCENARIO(del_timer_uninitialised)
{
	struct timer_list t;

	memset(&t, 0x33, sizeof(t)); /* what the stack held before */
	del_timer(&t);
	exit(0);
}

Test(timer, del_timer_of_an_uninitialised_timer_is_a_bug)
{
	struct child_result res;

	run_child("del_timer_uninitialised", NULL, &res);
	assert_child_bug(&res, "BUG: del_timer(",
			 "): timer is not initialised");
}

CHILD_SCENARIO(init_pending_timer)
{
	shim_clock_virtual();
	arm(0, jiffies + 10);
	init_timer(&timers[0]);
	exit(0);
}

Test(timer, init_timer_of_a_pending_timer_is_a_bug)
{
	struct child_result res;

	run_child("init_pending_timer", NULL, &res);
	assert_child_bug(&res, "BUG: init_timer(",
			 "): timer is pending: initialising it again corrupts "
			 "the timer list (function record)");
}

CHILD_SCENARIO(kfree_pending_timer)
{
	struct timer_list *t = kmalloc(sizeof(*t), GFP_KERNEL);

	shim_clock_virtual();
	init_timer(t);
	t->function = record;
	t->expires = jiffies + 10;
	add_timer(t);
	kfree(t);
	exit(0);
}

Test(timer, kfree_of_memory_holding_a_pending_timer_is_a_bug)
{
	struct child_result res;

	run_child("kfree_pending_timer", NULL, &res);
	assert_child_bug(&res, "BUG: kfree(",
			 "in child_kfree_pending_timer(): frees active "
			 "timer_list ",
			 " (record) (pending)");
}

static void other(unsigned long data)
{
}

/* a block larger than the objects registered: the registry is scanned */
CHILD_SCENARIO(kfree_big_block_with_pending_timers)
{
	struct timer_list *t = kmalloc(64 * sizeof(*t), GFP_KERNEL);
	int i;

	shim_clock_virtual();
	for (i = 40; i >= 30; i -= 10) {
		init_timer(&t[i]);
		t[i].function = i == 30 ? record : other;
		t[i].expires = jiffies + 10;
		add_timer(&t[i]);
	}
	kfree(t);
	exit(0);
}

Test(timer, kfree_of_a_big_block_names_its_first_pending_timer)
{
	struct child_result res;

	run_child("kfree_big_block_with_pending_timers", NULL, &res);
	assert_child_bug(&res, "BUG: kfree(",
			 "in child_kfree_big_block_with_pending_timers(): "
			 "frees active timer_list ",
			 " (record) (pending)");
}

Test(timer, zeroed_memory_is_an_idle_timer_as_in_2_5)
{
	static struct timer_list zeroed; /* no init_timer(): 2.5 allowed it */

	cr_assert_not(timer_pending(&zeroed));
	cr_assert_eq(del_timer(&zeroed), 0);
	zeroed.function = record;
	zeroed.data = 7;
	zeroed.expires = jiffies + 2;
	add_timer(&zeroed);
	cr_assert(timer_pending(&zeroed));
	shim_clock_advance(2);
	cr_assert_eq(fired, 1);
	cr_assert_eq(order[0], 7);
	init_timer(&zeroed); /* fired: idle again, may be initialised */
}

static void advancing_handler(unsigned long data)
{
	shim_clock_advance(1);
}

CHILD_SCENARIO(advance_in_timer)
{
	shim_clock_virtual();
	strcpy(current->comm, "advancer");
	init_timer(&timers[0]);
	timers[0].function = advancing_handler;
	timers[0].expires = jiffies + 1;
	add_timer(&timers[0]);
	shim_clock_advance(1);
}

/* it used to hang on the advance lock; the child's alarm would be the only end */
Test(timer, advancing_the_clock_from_a_timer_is_a_bug)
{
	struct child_result res;

	run_child("advance_in_timer", NULL, &res);
	assert_child_bug(&res, "BUG: shim_clock_advance() from a timer or "
			       "bottom half, in advancer/");
}

/* real time: ksoftirqd fires the timers */
TestSuite(timer_real, .timeout = SUITE_TIMEOUT, .fini = stop_timers);

static struct {
	unsigned long at;
	char comm[16];
	struct completion fired;
} real;

static void real_handler(unsigned long data)
{
	real.at = jiffies;
	memcpy(real.comm, current->comm, sizeof(real.comm));
	complete(&real.fired);
}

Test(timer_real, fires_after_its_jiffies_on_ksoftirqd)
{
	unsigned long start = jiffies;

	cr_assert_not(shim_clock_is_virtual());
	init_completion(&real.fired);
	init_timer(&timers[0]);
	timers[0].function = real_handler;
	timers[0].expires = start + 5;
	add_timer(&timers[0]);
	wait_for_completion(&real.fired);
	cr_assert(time_after_eq(real.at, start + 5),
		  "fired %ld jiffies after arming", (long) (real.at - start));
	cr_assert(time_after_eq(jiffies, start + 5));
	cr_assert_str_eq(real.comm, "ksoftirqd/0");
	cr_assert_not(timer_pending(&timers[0]));
}

/*
 * del_timer_sync() must wait for a handler that is running.  The handler
 * spins (it may not sleep) until released; the test releases it only once
 * the deleting thread is asleep in the host, waiting.
 */
static struct {
	struct completion entered, deleted;
	int release, handler_done;
	int deleter_saw_done, deleter_returned, ret;
	pid_t tid;
} sync;

static void spinning_handler(unsigned long data)
{
	complete(&sync.entered);
	while (!__atomic_load_n(&sync.release, __ATOMIC_SEQ_CST))
		cpu_relax();
	__atomic_store_n(&sync.handler_done, 1, __ATOMIC_SEQ_CST);
}

static int deleter_thread(void *arg)
{
	__atomic_store_n(&sync.tid, host_tid(), __ATOMIC_SEQ_CST);
	sync.ret = del_timer_sync(&timers[0]);
	sync.deleter_saw_done =
		__atomic_load_n(&sync.handler_done, __ATOMIC_SEQ_CST);
	__atomic_store_n(&sync.deleter_returned, 1, __ATOMIC_SEQ_CST);
	complete(&sync.deleted);
	return 0;
}

Test(timer_real, del_timer_sync_waits_for_running_handler)
{
	pid_t tid;

	init_completion(&sync.entered);
	init_completion(&sync.deleted);
	init_timer(&timers[0]);
	timers[0].function = spinning_handler;
	timers[0].expires = jiffies + 1;
	add_timer(&timers[0]);
	wait_for_completion(&sync.entered);

	start_kthread(deleter_thread, NULL);
	while (!(tid = __atomic_load_n(&sync.tid, __ATOMIC_SEQ_CST)))
		sched_yield();
	while (!__atomic_load_n(&sync.deleter_returned, __ATOMIC_SEQ_CST) &&
	       host_state(tid) != 'S')
		sched_yield();
	__atomic_store_n(&sync.release, 1, __ATOMIC_SEQ_CST);
	wait_for_completion(&sync.deleted);
	cr_assert(sync.deleter_saw_done,
		  "del_timer_sync() returned while the handler ran");
	cr_assert_eq(sync.ret, 0, "the timer was no longer pending");
}
