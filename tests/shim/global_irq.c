/*
 * global_irq.c - 2.4's global interrupt lock (shim/global_irq.c): what
 * cli() takes and waits for, what interrupt entry, bottom halves and
 * timers wait for, what schedule() does with it, and what save_flags()
 * and restore_flags() say and do.  Each rule is 2.4.0's (arch/i386/
 * kernel/irq.c, include/asm-i386/hardirq.h and smplock.h, kernel/
 * softirq.c); each test fails without its rule.
 *
 * A test of who waits for whom runs in a child under a controlled
 * schedule (SHIM_SCHED=random:SEED): one task at a time, chosen at every
 * scheduling point, the same choices every run; the tasks busy-wait with
 * cpu_relax(), a point, so the waiter gets the CPU and blocks.
 */
#include <criterion/criterion.h>
#include <sys/wait.h>

#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/timer.h>
#include <linux/slab.h>
#include <asm/processor.h>
#include <shim/test.h>
#include "helpers.h"

/* 2.4's interface, as a module declares it (shim/include-2.4/asm/system.h) */
extern void __global_cli(void);
extern void __global_sti(void);
extern unsigned long __global_save_flags(void);
extern void __global_restore_flags(unsigned long flags);
extern int shim_global_irq_held(void);

#define cli() __global_cli()
#define sti() __global_sti()
#define save_flags(x) ((x) = __global_save_flags())
#define restore_flags(x) __global_restore_flags(x)

TestSuite(global_irq, .timeout = SUITE_TIMEOUT);

Test(global_irq, cli_takes_the_lock_and_sti_lets_it_go)
{
	unsigned long flags;

	save_flags(flags);
	cr_assert_eq(flags, 1, "interrupts on, lock free: 1, not %lu", flags);
	cli();
	cr_assert(shim_global_irq_held());
	cr_assert(irqs_disabled(), "cli() disables interrupts locally too");
	save_flags(flags);
	cr_assert_eq(flags, 0, "the holder's flags are 0, not %lu", flags);
	sti();
	cr_assert_not(shim_global_irq_held());
	cr_assert_not(irqs_disabled());
}

Test(global_irq, the_holder_may_take_it_again_and_one_sti_ends_it)
{
	cli();
	cli();
	cr_assert(shim_global_irq_held());
	sti();
	cr_assert_not(shim_global_irq_held(), "2.4 kept no depth");
}

Test(global_irq, cli_with_interrupts_already_off_stays_local)
{
	unsigned long local, flags;

	local_irq_save(local);
	cli();
	cr_assert_not(shim_global_irq_held(),
		      "a local disable must not become a global one");
	save_flags(flags);
	cr_assert_eq(flags, 2, "local cli: 2, not %lu", flags);
	local_irq_restore(local);
}

Test(global_irq, cli_in_an_interrupt_handler_is_local)
{
	unsigned long flags;

	irq_enter();
	save_flags(flags);
	cr_assert_eq(flags, 3, "in a handler, interrupts on: 3, not %lu",
		     flags);
	cli();
	cr_assert_not(shim_global_irq_held());
	save_flags(flags);
	cr_assert_eq(flags, 2, "in a handler, interrupts off: 2, not %lu",
		     flags);
	sti();
	irq_exit();
}

Test(global_irq, restore_flags_does_what_each_value_says)
{
	restore_flags(0UL);
	cr_assert(shim_global_irq_held(), "0: the global lock");
	restore_flags(1UL);
	cr_assert_not(shim_global_irq_held(), "1: global sti");
	cr_assert_not(irqs_disabled());
	restore_flags(2UL);
	cr_assert(irqs_disabled(), "2: local cli");
	cr_assert_not(shim_global_irq_held());
	restore_flags(3UL);
	cr_assert_not(irqs_disabled(), "3: local sti");
}

Test(global_irq, save_cli_restore_nests)
{
	unsigned long outer, inner;

	save_flags(outer);
	cli();
	save_flags(inner);
	cli();
	restore_flags(inner);
	cr_assert(shim_global_irq_held(), "the inner restore keeps it");
	restore_flags(outer);
	cr_assert_not(shim_global_irq_held());
	cr_assert_not(irqs_disabled());
}

Test(global_irq, schedule_lets_the_lock_go_and_it_is_not_taken_back)
{
	cli();
	/* release_kernel_lock(): the lock goes, interrupts come on */
	schedule();
	cr_assert_not(shim_global_irq_held());
	cr_assert_not(irqs_disabled());
}

Test(global_irq, a_holder_may_sleep)
{
	void *p;

	cli();
	might_sleep();
	p = kmalloc(32, GFP_KERNEL);
	cr_assert(shim_global_irq_held(), "no sleep yet: still held");
	kfree(p);
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_timeout(1);
	cr_assert_not(shim_global_irq_held(), "the sleep let it go");
}

CHILD_SCENARIO(sleep_with_interrupts_off_locally)
{
	local_irq_disable();
	cli(); /* local only: no lock to let go */
	might_sleep();
	exit(0);
}

Test(global_irq, sleeping_with_interrupts_off_locally_is_still_a_bug)
{
	struct child_result res;

	run_child("sleep_with_interrupts_off_locally", NULL, &res);
	assert_child_bug(&res, "sleeping function called from invalid context");
}

/* --- who waits for whom, under a controlled schedule ----------------------- */

/* run child scenario @name under SHIM_SCHED=@sched: it must exit 0 */
static void run_controlled(const char *name, const char *sched)
{
	struct child_result res;
	char env[64];

	snprintf(env, sizeof(env), "SHIM_SCHED=%s", sched);
	run_child(name, env, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "%s under %s:\n%s", name, env, res.out);
}

static int flag, go, entered;

static void spin_until(int *word)
{
	while (!__atomic_load_n(word, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void relax(int n)
{
	while (n--)
		cpu_relax();
}

static void interrupt_thread(void *unused)
{
	irq_enter();
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	irq_exit();
}

CHILD_SCENARIO(interrupt_waits_for_holder)
{
	struct shim_thread *t;

	cli();
	t = shim_thread_start("irq", interrupt_thread, NULL);
	relax(200); /* the thread gets the CPU and enters */
	child_check(!__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	sti();
	shim_thread_join(t);
	child_check(__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	exit(0);
}

Test(global_irq, an_interrupt_does_not_start_while_another_task_holds_it)
{
	run_controlled("interrupt_waits_for_holder", "random:1");
}

static void long_handler(void *unused)
{
	irq_enter();
	__atomic_store_n(&entered, 1, __ATOMIC_RELEASE);
	spin_until(&go);
	irq_exit();
}

static void cli_thread(void *unused)
{
	cli();
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	sti();
}

CHILD_SCENARIO(cli_waits_for_handler)
{
	struct shim_thread *h, *c;

	h = shim_thread_start("handler", long_handler, NULL);
	spin_until(&entered);
	c = shim_thread_start("cli", cli_thread, NULL);
	relax(200);
	child_check(!__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	shim_thread_join(h);
	shim_thread_join(c);
	child_check(__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	exit(0);
}

Test(global_irq, cli_waits_until_no_handler_runs)
{
	run_controlled("cli_waits_for_handler", "random:2");
}

static void flag_bh(void)
{
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
}

CHILD_SCENARIO(bh_waits_for_holder)
{
	init_bh(IMMEDIATE_BH, flag_bh);
	cli();
	mark_bh(IMMEDIATE_BH);
	relax(200); /* ksoftirqd gets the CPU */
	child_check(!__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	sti();
	shim_softirq_sync();
	child_check(__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	exit(0);
}

Test(global_irq, a_bottom_half_does_not_run_while_it_is_held)
{
	run_controlled("bh_waits_for_holder", "random:3");
}

static void long_bh(void)
{
	__atomic_store_n(&entered, 1, __ATOMIC_RELEASE);
	spin_until(&go);
}

CHILD_SCENARIO(cli_waits_for_bh)
{
	struct shim_thread *c;

	init_bh(IMMEDIATE_BH, long_bh);
	mark_bh(IMMEDIATE_BH);
	spin_until(&entered);
	c = shim_thread_start("cli", cli_thread, NULL);
	relax(200);
	child_check(!__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	shim_thread_join(c);
	child_check(__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	exit(0);
}

Test(global_irq, cli_waits_until_no_bottom_half_runs)
{
	run_controlled("cli_waits_for_bh", "random:4");
}

static void flag_timer(unsigned long unused)
{
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
}

static void advance_thread(void *unused)
{
	shim_clock_advance(2);
}

CHILD_SCENARIO(timer_waits_for_holder)
{
	struct timer_list timer;
	struct shim_thread *t;

	shim_clock_virtual();
	init_timer(&timer);
	timer.function = flag_timer;
	timer.expires = jiffies + 1;
	add_timer(&timer);
	cli();
	t = shim_thread_start("clock", advance_thread, NULL);
	relax(200);
	child_check(!__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	sti();
	shim_thread_join(t);
	child_check(__atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	exit(0);
}

Test(global_irq, timers_do_not_run_while_it_is_held)
{
	run_controlled("timer_waits_for_holder", "random:5");
}
