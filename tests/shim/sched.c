/*
 * sched.c - the sleep/wake protocol: set_current_state(), schedule(),
 * wake_up_process() and schedule_timeout().
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/completion.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(sched, .timeout = SUITE_TIMEOUT);

Test(sched, wake_before_schedule_is_not_lost)
{
	set_current_state(TASK_INTERRUPTIBLE);
	cr_assert_eq(wake_up_process(current), 1);
	cr_assert_eq(current->state, TASK_RUNNING);
	/* the wake-up came first: schedule() must not sleep */
	schedule();
	cr_assert_eq(current->state, TASK_RUNNING);
}

Test(sched, wake_up_process_of_running_task_returns_0)
{
	cr_assert_eq(current->state, TASK_RUNNING);
	cr_assert_eq(wake_up_process(current), 0);
	set_current_state(TASK_UNINTERRUPTIBLE);
	cr_assert_eq(wake_up_process(current), 1);
	cr_assert_eq(wake_up_process(current), 0);
}

/*
 * The lost wake-up race: each side marks itself sleeping, hands the turn
 * over and wakes the other, then calls schedule().  The other side often
 * hands the turn back, and wakes us, before we reach schedule(): that
 * wake-up must make schedule() return, or the ping-pong hangs.
 */
#define PINGPONG_ROUNDS 100000

struct pingpong {
	struct task_struct *task[2];
	int turn;
	int stop;
	long handed[2];
	struct completion started, exited;
};

static void wait_turn(struct pingpong *pp, int me)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (__atomic_load_n(&pp->turn, __ATOMIC_SEQ_CST) == me)
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

static void hand_over(struct pingpong *pp, int me)
{
	set_current_state(TASK_INTERRUPTIBLE);
	__atomic_store_n(&pp->turn, !me, __ATOMIC_SEQ_CST);
	wake_up_process(pp->task[!me]);
	pp->handed[me]++;
	schedule();
	__set_current_state(TASK_RUNNING);
}

static int pingpong_thread(void *arg)
{
	struct pingpong *pp = arg;

	pp->task[1] = current;
	complete(&pp->started);
	for (;;) {
		wait_turn(pp, 1);
		if (__atomic_load_n(&pp->stop, __ATOMIC_SEQ_CST))
			break;
		hand_over(pp, 1);
	}
	complete(&pp->exited);
	return 0;
}

Test(sched, no_lost_wakeup_in_100000_rounds)
{
	struct pingpong pp = { .turn = 0 };
	long i;

	init_completion(&pp.started);
	init_completion(&pp.exited);
	pp.task[0] = current;
	start_kthread(pingpong_thread, &pp);
	wait_for_completion(&pp.started);

	for (i = 0; i < PINGPONG_ROUNDS; i++) {
		hand_over(&pp, 0);
		wait_turn(&pp, 0);
	}
	__atomic_store_n(&pp.stop, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&pp.turn, 1, __ATOMIC_SEQ_CST);
	wake_up_process(pp.task[1]);
	wait_for_completion(&pp.exited);

	cr_assert_eq(pp.handed[0], PINGPONG_ROUNDS);
	cr_assert_eq(pp.handed[1], PINGPONG_ROUNDS);
}

/*
 * schedule_timeout() in virtual time.  The sleeper renames itself before
 * it sleeps: the name reaches the host at schedule(), after the timeout's
 * timer is armed, so the test knows when to move the clock.
 */
struct sleeper {
	long timeout;
	long ret;
	pid_t tid;
	struct task_struct *task;
	struct completion ready, done;
};

static int sleeper_thread(void *arg)
{
	struct sleeper *s = arg;

	s->task = current;
	s->tid = host_tid();
	complete(&s->ready);
	strcpy(current->comm, "sleeping");
	set_current_state(TASK_INTERRUPTIBLE);
	s->ret = schedule_timeout(s->timeout);
	complete(&s->done);
	return 0;
}

static void start_sleeper(struct sleeper *s, long timeout)
{
	s->timeout = timeout;
	s->ret = -1;
	init_completion(&s->ready);
	init_completion(&s->done);
	start_kthread(sleeper_thread, s);
	wait_for_completion(&s->ready);
	wait_host_comm(s->tid, "sleeping");
}

Test(sched, schedule_timeout_returns_jiffies_left_when_woken)
{
	struct sleeper s;

	shim_clock_virtual();
	start_sleeper(&s, 50);
	shim_clock_advance(20);
	cr_assert_eq(s.task->state, TASK_INTERRUPTIBLE,
		     "woken before its time");
	wake_up_process(s.task);
	wait_for_completion(&s.done);
	cr_assert_eq(s.ret, 30);
}

Test(sched, schedule_timeout_returns_0_when_it_expires)
{
	struct sleeper s;

	shim_clock_virtual();
	start_sleeper(&s, 50);
	shim_clock_advance(49);
	cr_assert_eq(s.task->state, TASK_INTERRUPTIBLE,
		     "woken before its time");
	shim_clock_advance(1);
	wait_for_completion(&s.done);
	cr_assert_eq(s.ret, 0);
}

Test(sched, schedule_timeout_in_real_time_waits_its_jiffies)
{
	unsigned long start = jiffies;
	long left;

	set_current_state(TASK_UNINTERRUPTIBLE);
	left = schedule_timeout(5);
	cr_assert_eq(left, 0);
	cr_assert(time_after_eq(jiffies, start + 5), "woke after %ld jiffies",
		  (long) (jiffies - start));
	cr_assert_eq(current->state, TASK_RUNNING);
}

Test(sched, schedule_timeout_rejects_negative_timeout, .init = quiet_console)
{
	char log[512];

	shim_printk_clear();
	set_current_state(TASK_INTERRUPTIBLE);
	cr_assert_eq(schedule_timeout(-5), 0);
	cr_assert_eq(current->state, TASK_RUNNING);
	shim_printk_read(log, sizeof(log));
	cr_assert(strstr(log, "schedule_timeout: wrong timeout value"),
		  "log: %s", log);
}

Test(sched, schedule_timeout_max_sleeps_until_woken)
{
	struct sleeper s;

	shim_clock_virtual();
	start_sleeper(&s, MAX_SCHEDULE_TIMEOUT);
	shim_clock_advance(1000 * HZ);
	cr_assert_eq(s.task->state, TASK_INTERRUPTIBLE, "a timeout fired");
	wake_up_process(s.task);
	wait_for_completion(&s.done);
	cr_assert_eq(s.ret, MAX_SCHEDULE_TIMEOUT);
}

Test(sched, yield_leaves_task_running)
{
	set_current_state(TASK_INTERRUPTIBLE);
	yield();
	cr_assert_eq(current->state, TASK_RUNNING);
}

CHILD_SCENARIO(yield_under_spinlock)
{
	DEFINE_SPINLOCK(lock);

	strcpy(current->comm, "yielder");
	spin_lock(&lock);
	yield(); /* sys_sched_yield() is schedule() */
	spin_unlock(&lock);
	exit(0);
}

Test(sched, yield_in_atomic_context_is_a_bug)
{
	struct child_result res;

	run_child("yield_under_spinlock", NULL, &res);
	assert_child_bug(&res, "BUG: sleeping function called from invalid "
			       "context: yield() in yielder/");
}
