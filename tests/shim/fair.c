/*
 * fair.c - fair controlled schedules: a task that polls gives way to every
 * task that can run, under every strategy, so that a hang or a livelock
 * is reported only where the kernel would have one too (shim/control.c,
 * "Fairness").
 *
 * Each run is a child process under a SHIM_SCHED setting (../child.h).
 * The task polled for arms the count before its last scheduling point
 * ahead of what the pollers wait for: from then on it can run, and
 * one step ends their wait, so the bound says how many polls each may
 * make until it has run (one round: a poller gives way once, and then
 * runs only after it).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <linux/completion.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <asm/processor.h>
#include <asm/bitops.h>
#include <asm/io.h>
#include <shim/test.h>
#include "helpers.h"

extern unsigned long shim_jiffies_polled(const char *site);

/*
 * Polls a task may make between two of its yields: control.c's
 * CTL_POLLS for a bit or a lock tested with no scheduling point between,
 * time.c's JIFFY_POLLS reads of jiffies per tick.  A loop whose only
 * points are its lock's (a trylock that succeeds, and the unlock) gives
 * way at the end of its slice: CTL_SLICE points, and the one that ends
 * it, and the round under way when the count was armed.
 */
#define BIT_POLLS 1000
/* device accesses in a row (control.c's CTL_POLLS), and the one that
 * gave way, its test of the flag made before it */
#define IO_POLLS (1000 + 1)
#define SLICE_POLLS (1000 + 2)
#define JIFFY_POLLS 10000

TestSuite(fair, .timeout = SUITE_TIMEOUT);

/* --- what the children run ------------------------------------------------- */

static unsigned long flag; /* bit 0: what the pollers wait for */
static spinlock_t flag_lock = SPIN_LOCK_UNLOCKED;
static int armed; /* one step from the flag: count polls from here */
static int polls[4];

static void count_poll(int who)
{
	if (__atomic_load_n(&armed, __ATOMIC_RELAXED))
		polls[who]++;
}

/* Arm, then a scheduling point (the unlock), then the flag. */
static void arm_and_set_flag(void)
{
	spin_lock(&flag_lock);
	armed = 1;
	spin_unlock(&flag_lock);
	set_bit(0, &flag);
}

static int flag_set(void)
{
	return test_bit(0, &flag);
}

/*
 * Poll, as getenv("POLL") says, until bit 0 of flag is set; count each
 * round in polls[@who].  "bit" tests it with nothing else in the loop,
 * no scheduling point at all; "trylock" spins on spin_trylock().
 */
static void poll_flag(int who)
{
	const char *how = getenv("POLL");

	if (!how)
		how = "relax";
	if (!strcmp(how, "bit")) {
		while (!test_bit(0, &flag))
			count_poll(who);
		return;
	}
	if (!strcmp(how, "io")) {
		/* a status register polled: the port's reads, nothing else */
		while (!(__atomic_load_n(&flag, __ATOMIC_RELAXED) & 1)) {
			(void) inb(0x80);
			count_poll(who);
		}
		return;
	}
	for (;;) {
		if (!strcmp(how, "trylock")) {
			if (spin_trylock(&flag_lock)) {
				int done = flag_set();

				spin_unlock(&flag_lock);
				if (done)
					return;
			}
		} else if (flag_set()) {
			return;
		}
		count_poll(who);
		if (!strcmp(how, "yield")) {
			yield();
		} else if (!strcmp(how, "jiffies")) {
			shim_jiffies_polled("fair.c:poll");
		} else if (!strcmp(how, "timeout")) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			schedule_timeout(1);
		} else if (!strcmp(how, "relax")) {
			cpu_relax();
		}
	}
}

static int poller(void *arg)
{
	strcpy(current->comm, "poller");
	daemonize();
	poll_flag((long) arg);
	return 0;
}

static void set_flag(void *unused)
{
	arm_and_set_flag();
}

static DECLARE_WORK(flag_work, set_flag, NULL);

static void report_polls(void)
{
	printf("polls %d %d %d\n", polls[0], polls[1], polls[2]);
	exit(0);
}

/*
 * main and a kernel thread poll for what a queued work does.  lazy puts
 * workers last: two pollers that only gave way to each other kept the
 * worker off the CPU for ever.
 */
CHILD_SCENARIO(fair_poll_for_a_work)
{
	child_check(kernel_thread(poller, (void *) 1L, 0) > 0);
	schedule_work(&flag_work);
	poll_flag(0);
	report_polls();
}

/*
 * Two works, each on a queue of its own, poll for what main does once it
 * has queued them.  eager runs a queued work first: two workers that
 * only gave way to each other kept main off the CPU for ever.
 */
static void poll_in_work(void *who)
{
	poll_flag((long) who);
}

static DECLARE_WORK(poll_work1, poll_in_work, (void *) 1L);
static DECLARE_WORK(poll_work2, poll_in_work, (void *) 2L);

CHILD_SCENARIO(fair_works_poll_for_main)
{
	struct workqueue_struct *wq = create_workqueue("fair");

	child_check(wq != NULL);
	queue_work(wq, &poll_work1);
	schedule_work(&poll_work2);
	arm_and_set_flag();
	flush_workqueue(wq);
	flush_scheduled_work();
	destroy_workqueue(wq);
	report_polls();
}

/*
 * Two kernel threads poll for what main does after a queueing call, the
 * site preempt:SITE demotes main at: a demoted task ranked below pollers
 * that only gave way to each other.
 */
static void nothing(void *unused)
{
}

static DECLARE_WORK(nothing_work, nothing, NULL);

CHILD_SCENARIO(fair_poll_for_a_preempted_queuer)
{
	child_check(kernel_thread(poller, (void *) 1L, 0) > 0);
	child_check(kernel_thread(poller, (void *) 2L, 0) > 0);
	armed = 1;
	schedule_work(&nothing_work);
	set_bit(0, &flag);
	flush_scheduled_work();
	poll_flag(0);
	report_polls();
}

/*
 * main and a kernel thread poll for what a stalled routine does after a
 * point of its own: stall makes its worker give way at each point, and it
 * gave way to pollers that only gave way to each other.
 */
static void stalled_routine(void *unused)
{
	spin_lock(&flag_lock);
	spin_unlock(&flag_lock);
	arm_and_set_flag();
}

static DECLARE_WORK(stalled_work, stalled_routine, NULL);

CHILD_SCENARIO(fair_poll_for_a_stalled_routine)
{
	child_check(kernel_thread(poller, (void *) 1L, 0) > 0);
	schedule_work(&stalled_work);
	poll_flag(0);
	report_polls();
}

/*
 * A work spins on spin_trylock() for the lock its queuer holds while it
 * queues it: eager runs the work at once, and a failed trylock was no
 * scheduling point, so the holder never ran again.
 */
static void take_flag_lock(void *unused)
{
	while (!spin_trylock(&flag_lock))
		count_poll(1);
	set_bit(0, &flag);
	spin_unlock(&flag_lock);
}

static DECLARE_WORK(trylock_work, take_flag_lock, NULL);

CHILD_SCENARIO(fair_trylock_for_the_queuer)
{
	spin_lock(&flag_lock);
	schedule_work(&trylock_work);
	/* one point while it still holds the lock, then the unlock */
	armed = 1;
	test_and_set_bit(1, &flag);
	spin_unlock(&flag_lock);
	flush_scheduled_work();
	child_check(test_bit(0, &flag));
	report_polls();
}

/* Two tasks that wait for each other by polling: a livelock, for ever. */
static unsigned long mine, theirs;

static int wait_for_main(void *unused)
{
	strcpy(current->comm, "waits_for_main");
	daemonize();
	while (!test_bit(0, &mine))
		cpu_relax();
	set_bit(0, &theirs);
	return 0;
}

CHILD_SCENARIO(fair_livelock)
{
	child_check(kernel_thread(wait_for_main, NULL, 0) > 0);
	while (!test_bit(0, &theirs))
		cpu_relax();
	set_bit(0, &mine);
	exit(0);
}

static DECLARE_COMPLETION(never);

/* main waits for a completion nobody completes, a worker for main */
static void wait_never(void *unused)
{
	wait_for_completion(&never);
}

static DECLARE_WORK(never_work, wait_never, NULL);

CHILD_SCENARIO(fair_deadlock)
{
	schedule_work(&never_work);
	flush_scheduled_work();
	exit(0);
}

/*
 * A handler draining a FIFO whose status always says more: reads of the
 * device and nothing else, for ever.  No scheduling point at all: only
 * the count of its accesses can end it.
 */
CHILD_SCENARIO(fair_spin_on_the_device)
{
	for (;;)
		(void) inb(0x3fd);
}

/*
 * As many reads, each pair with a point between (a lock taken and let
 * go): no soft lockup, however many of them.
 */
CHILD_SCENARIO(fair_reads_between_points)
{
	int i;

	for (i = 0; i < 50000; i++) {
		(void) inb(0x3fd);
		(void) inb(0x3f8);
		spin_lock(&flag_lock);
		spin_unlock(&flag_lock);
	}
	exit(0);
}

/* --- the parent's side ----------------------------------------------------- */

static const char *const strategies[] = {
	"lazy", "eager", "pct:1", "pct:2", "pct:3", "random:1", "random:2",
};

static const char *const ways[] = {
	"relax", "yield", "jiffies", "timeout", "bit", "trylock", "io",
};

/* How many polls one task may make once what it waits for can run. */
static int bound_of(const char *how)
{
	if (!strcmp(how, "bit"))
		return BIT_POLLS;
	if (!strcmp(how, "io"))
		return IO_POLLS;
	if (!strcmp(how, "trylock"))
		return SLICE_POLLS;
	if (!strcmp(how, "jiffies"))
		return JIFFY_POLLS;
	return 1;
}

/* Run @scenario under @sched with POLL=@how: it must end, its pollers within the bound. */
static void assert_ends(const char *scenario, const char *sched,
			const char *how)
{
	struct child_result res;
	char env[512];
	const char *at;
	int p[3], i;

	snprintf(env, sizeof(env), "SHIM_SCHED=%s POLL=%s", sched, how);
	run_child(scenario, env, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "%s: %s did not end (status 0x%x):\n%s", env, scenario,
		  res.status, res.out);
	at = strstr(res.out, "polls ");
	cr_assert_not_null(at, "%s: no poll count:\n%s", env, res.out);
	cr_assert_eq(sscanf(at, "polls %d %d %d", &p[0], &p[1], &p[2]), 3);
	for (i = 0; i < 3; i++)
		cr_assert_leq(p[i], bound_of(how),
			      "%s: %s: poller %d polled %d times, bound %d",
			      env, scenario, i, p[i], bound_of(how));
}

Test(fair, pollers_let_a_lazy_worker_run)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(ways); i++)
		for (j = 0; j < ARRAY_SIZE(strategies); j++)
			assert_ends("fair_poll_for_a_work", strategies[j],
				    ways[i]);
}

Test(fair, polling_works_let_their_queuer_run)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(ways); i++)
		for (j = 0; j < ARRAY_SIZE(strategies); j++)
			assert_ends("fair_works_poll_for_main", strategies[j],
				    ways[i]);
}

/* The queueing site of @scenario's own function, as a lazy run lists it. */
static void site_of(const char *scenario, char *site, size_t len)
{
	char env[400], path[] = "/tmp/shim-fair-sites.XXXXXX", line[256],
		       func[128], want[128], s[96];
	struct child_result res;
	long calls;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	snprintf(env, sizeof(env), "SHIM_SCHED=lazy SHIM_SCHED_SITES=%s", path);
	run_child(scenario, env, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0, "%s",
		  res.out);
	snprintf(want, sizeof(want), "child_%s", scenario);
	site[0] = 0;
	f = fopen(path, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%95s %127s %ld", s, func, &calls) == 3 &&
		    !strcmp(func, want) && !site[0])
			snprintf(site, len, "%s", s);
	fclose(f);
	unlink(path);
	cr_assert(site[0], "%s passed no site of its own", scenario);
}

Test(fair, pollers_let_a_preempted_queuer_run)
{
	char site[96], setting[128];
	unsigned int i;

	site_of("fair_poll_for_a_preempted_queuer", site, sizeof(site));
	snprintf(setting, sizeof(setting), "preempt:%s", site);
	for (i = 0; i < ARRAY_SIZE(ways); i++)
		assert_ends("fair_poll_for_a_preempted_queuer", setting,
			    ways[i]);
}

Test(fair, pollers_let_a_stalled_routine_run)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ways); i++)
		assert_ends("fair_poll_for_a_stalled_routine",
			    "stall:stalled_routine", ways[i]);
}

Test(fair, a_spin_on_spin_trylock_lets_the_holder_run)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(strategies); i++)
		assert_ends("fair_trylock_for_the_queuer", strategies[i],
			    "trylock");
}

Test(fair, a_livelock_of_pollers_is_still_reported)
{
	static const char *const all[] = { "lazy",    "eager",
					   "pct:1",   "random:1",
					   "stall:x", "preempt:x.c:1" };
	struct child_result res;
	char env[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		snprintf(env, sizeof(env),
			 "SHIM_SCHED=%s SHIM_SCHED_MAX_STEPS=20000", all[i]);
		run_child("fair_livelock", env, &res);
		assert_child_bug(&res, "no end after 20000 scheduling points",
				 "waits_for_main", "replay: SHIM_SCHED=");
	}
}

Test(fair, a_spin_on_the_device_is_a_soft_lockup)
{
	static const char *const all[] = { "lazy", "eager", "pct:1",
					   "random:1" };
	struct child_result res;
	char env[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		/* a count of accesses, not the steps: it gives way on the way */
		snprintf(env, sizeof(env),
			 "SHIM_SCHED=%s SHIM_SCHED_MAX_IO=20000 "
			 "SHIM_SCHED_MAX_STEPS=1000000",
			 all[i]);
		run_child("fair_spin_on_the_device", env, &res);
		assert_child_bug(&res,
				 "soft lockup: 20000 device accesses by task 0",
				 "child_fair_spin_on_the_device",
				 "replay: SHIM_SCHED=");
	}
}

Test(fair, reads_with_points_between_are_no_soft_lockup)
{
	struct child_result res;

	run_child("fair_reads_between_points",
		  "SHIM_SCHED=eager SHIM_SCHED_MAX_IO=2000", &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "100000 reads, a point after each two, were a soft lockup "
		  "(status 0x%x):\n%s",
		  res.status, res.out);
}

Test(fair, a_deadlock_is_still_reported)
{
	static const char *const all[] = { "lazy",    "eager",
					   "pct:1",   "random:1",
					   "stall:x", "preempt:x.c:1" };
	struct child_result res;
	char env[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		snprintf(env, sizeof(env), "SHIM_SCHED=%s", all[i]);
		run_child("fair_deadlock", env, &res);
		assert_child_bug(&res, "BUG: deadlock: no task can run",
				 "wait_for_completion", "flush_",
				 "replay: SHIM_SCHED=");
	}
}
