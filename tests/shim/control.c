/*
 * control.c - controlled scheduling (SHIM_SCHED): the same setting gives
 * the same run, replay repeats it, time is virtual, and a run that cannot
 * go on says why and how to see it again.
 *
 * The setting is read at boot, so each run is a child process of this
 * binary with SHIM_SCHED in its environment (../child.h).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sched.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/spinlock.h>
#include <asm/processor.h>
#include <shim/test.h>
#include "helpers.h"

/* --- what the children run ----------------------------------------------- */

#define WORKS 40

static struct work_struct works[2][WORKS];
static int ran[2][WORKS];
static spinlock_t tally_lock = SPIN_LOCK_UNLOCKED;
static int tally;

static void count_run(void *data)
{
	int *r = data;

	spin_lock(&tally_lock);
	tally++;
	spin_unlock(&tally_lock);
	(*r)++;
}

static void producer(void *arg)
{
	long t = (long) arg;
	int i;

	for (i = 0; i < WORKS; i++) {
		INIT_WORK(&works[t][i], count_run, &ran[t][i]);
		schedule_work(&works[t][i]);
		if (i % 8 == 7)
			shim_sleep_ns(1000000);
	}
}

/* two host threads queue works while main flushes: many choices to make */
CHILD_SCENARIO(two_producers)
{
	struct shim_thread *t[2];
	long i;

	for (i = 0; i < 2; i++)
		t[i] = shim_thread_start("producer", producer, (void *) i);
	for (i = 0; i < 2; i++)
		shim_thread_join(t[i]);
	flush_scheduled_work();
	child_check(tally == 2 * WORKS);
	printf("tally %d\n", tally);
	exit(0);
}

static DECLARE_COMPLETION(first);
static DECLARE_COMPLETION(second);

static int wait_first_then_second(void *unused)
{
	strcpy(current->comm, "waits_first");
	daemonize();
	wait_for_completion(&first);
	complete(&second);
	return 0;
}

/* main waits for second, the thread for first, which nobody completes */
CHILD_SCENARIO(deadlock)
{
	child_check(kernel_thread(wait_first_then_second, NULL, 0) > 0);
	wait_for_completion(&second);
	exit(0);
}

CHILD_SCENARIO(spin_forever)
{
	for (;;)
		cpu_relax();
}

/* ten minutes of jiffies go by while nothing else has anything to do */
CHILD_SCENARIO(long_sleep)
{
	unsigned long before = jiffies;

	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_timeout(600 * HZ);
	child_check(time_after_eq(jiffies, before + 600 * HZ));
	printf("slept %lu jiffies\n", jiffies - before);
	exit(0);
}

static int flag;

static int set_flag_later(void *unused)
{
	int i;

	for (i = 0; i < 100; i++)
		yield();
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	return 0;
}

/* a busy wait on another task ends however the tasks are ordered */
CHILD_SCENARIO(busy_wait)
{
	child_check(kernel_thread(set_flag_later, NULL, 0) > 0);
	while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
		cpu_relax();
	exit(0);
}

CHILD_SCENARIO(three_cpus)
{
	child_check(num_online_cpus() == 3);
	child_check(smp_processor_id() >= 0 && smp_processor_id() < 3);
	printf("cpus %d\n", num_online_cpus());
	exit(0);
}

CHILD_SCENARIO(bug)
{
	BUG();
}

/* --- the systematic strategies: eager, lazy, preempt:SITE ------------------ */

static int order_ran;

static void order_routine(void *unused)
{
	order_ran++;
}

static DECLARE_WORK(order_work, order_routine, NULL);

/* when did the work run: right after queueing, later, or only at the flush */
CHILD_SCENARIO(queue_then_flush)
{
	int after_queue, later, i;

	schedule_work(&order_work);
	after_queue = order_ran;
	for (i = 0; i < 20; i++) {
		spin_lock(&tally_lock);
		tally++;
		spin_unlock(&tally_lock);
	}
	later = order_ran;
	flush_scheduled_work();
	printf("after queue %d, later %d, flushed %d\n", after_queue, later,
	       order_ran);
	exit(0);
}

static int stage, bystander_saw = -1;
static DECLARE_COMPLETION(bystander_done);
static DECLARE_WORK(first_work, order_routine, NULL);
static DECLARE_WORK(second_work, order_routine, NULL);

static int bystander(void *unused)
{
	strcpy(current->comm, "bystander");
	daemonize();
	bystander_saw = stage;
	complete(&bystander_done);
	return 0;
}

/*
 * A task that can run all along, and two queueing sites: when the task
 * first runs says after which step of main's the CPU changed hands.
 */
CHILD_SCENARIO(two_sites)
{
	child_check(kernel_thread(bystander, NULL, 0) > 0);
	stage = 1;
	schedule_work(&first_work);
	stage = 2;
	schedule_work(&second_work);
	stage = 3;
	flush_scheduled_work();
	wait_for_completion(&bystander_done);
	printf("bystander saw stage %d, works ran %d\n", bystander_saw,
	       order_ran);
	exit(0);
}

static atomic_t overlap_running = ATOMIC_INIT(0);
static int overlap_most;

static void overlap_routine(void *unused)
{
	int n = atomic_inc_return(&overlap_running);

	if (n > overlap_most)
		overlap_most = n;
	spin_lock(&tally_lock); /* a point in the middle of the run */
	tally++;
	spin_unlock(&tally_lock);
	atomic_dec(&overlap_running);
}

static DECLARE_WORK(overlap_work, overlap_routine, NULL);

/* one task asks for the work again and again, a tick apart */
CHILD_SCENARIO(requeue_while_running)
{
	int i;

	for (i = 0; i < 4; i++) {
		schedule_work(&overlap_work);
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule_timeout(1);
	}
	flush_scheduled_work();
	printf("most at once %d\n", overlap_most);
	exit(0);
}

/* --- the parent's side ------------------------------------------------------- */

static char logdir[] = "/tmp/shim-control.XXXXXX";
static int have_logdir;

static void make_logdir(void)
{
	cr_assert_not_null(mkdtemp(logdir));
	have_logdir = 1;
}

/* The schedule logs a test wrote go with it. */
static void remove_logdir(void)
{
	struct dirent *d;
	char path[300];
	DIR *dir;

	if (have_logdir && (dir = opendir(logdir))) {
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", logdir,
					 d->d_name);
				unlink(path);
			}
		closedir(dir);
		rmdir(logdir);
	}
}

TestSuite(control, .timeout = SUITE_TIMEOUT, .fini = remove_logdir);

/* Run @scenario under @sched, its schedule log into @log; the result. */
static void run_logged(const char *scenario, const char *sched, const char *log,
		       struct child_result *res)
{
	char env[2048];

	snprintf(env, sizeof(env), "SHIM_SCHED=%s SHIM_SCHED_LOG=%s/%s", sched,
		 logdir, log);
	run_child(scenario, env, res);
}

static char *slurp(const char *name)
{
	char path[256];
	FILE *f;
	char *buf;
	long len;

	snprintf(path, sizeof(path), "%s/%s", logdir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "no schedule log %s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, len + 1);
	cr_assert_eq(fread(buf, 1, len, f), (size_t) len);
	fclose(f);
	return buf;
}

/* the log less its comment lines (they name the setting and the command) */
static char *events_of(const char *name)
{
	char *text = slurp(name), *out = calloc(1, strlen(text) + 1), *line,
	     *save;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		strcat(out, line);
		strcat(out, "\n");
	}
	free(text);
	return out;
}

static void assert_ran_cleanly(const struct child_result *res)
{
	cr_assert(WIFEXITED(res->status) && WEXITSTATUS(res->status) == 0,
		  "the controlled run failed (status 0x%x):\n%s", res->status,
		  res->out);
}

Test(control, the_same_setting_gives_the_same_log_byte_for_byte)
{
	const char *settings[] = { "pct:7", "pct:7:5:500", "random:7" };
	struct child_result a, b;
	unsigned int i;

	make_logdir();
	for (i = 0; i < ARRAY_SIZE(settings); i++) {
		char *la, *lb;

		run_logged("two_producers", settings[i], "a", &a);
		run_logged("two_producers", settings[i], "b", &b);
		assert_ran_cleanly(&a);
		assert_ran_cleanly(&b);
		la = slurp("a");
		lb = slurp("b");
		cr_assert(strstr(la, " D "), "%s made no decision at all:\n%s",
			  settings[i], la);
		cr_assert_str_eq(la, lb, "two runs of %s differ", settings[i]);
		free(la);
		free(lb);
	}
}

Test(control, different_seeds_choose_differently)
{
	struct child_result res;
	char *logs[6], name[8], setting[32];
	int i, j, distinct = 0;

	make_logdir();
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		snprintf(setting, sizeof(setting), "random:%d", i + 1);
		run_logged("two_producers", setting, name, &res);
		assert_ran_cleanly(&res);
		logs[i] = events_of(name);
	}
	for (i = 0; i < 6; i++) {
		for (j = 0; j < i && strcmp(logs[i], logs[j]); j++)
			;
		distinct += j == i;
	}
	cr_assert_geq(distinct, 4, "6 seeds gave only %d distinct schedules",
		      distinct);
	for (i = 0; i < 6; i++)
		free(logs[i]);
}

Test(control, replay_runs_the_logged_decisions_again)
{
	struct child_result res;
	char setting[300];
	char *orig, *again;

	make_logdir();
	run_logged("two_producers", "random:3", "orig", &res);
	assert_ran_cleanly(&res);
	snprintf(setting, sizeof(setting), "replay:%s/orig", logdir);
	run_logged("two_producers", setting, "again", &res);
	assert_ran_cleanly(&res);
	orig = events_of("orig");
	again = events_of("again");
	cr_assert_str_eq(orig, again, "the replay took other decisions");
	free(orig);
	free(again);
}

Test(control, a_deadlock_names_every_task_and_how_to_replay_it)
{
	struct child_result res;

	run_child("deadlock", "SHIM_SCHED=pct:1", &res);
	assert_child_bug(&res, "BUG: deadlock: no task can run", "waits_first",
			 "sleeps in schedule()", "wait_for_completion",
			 "TASK_UNINTERRUPTIBLE",
			 "replay: SHIM_SCHED=pct:1:3:20000 ");
}

Test(control, a_run_that_never_ends_is_reported)
{
	struct child_result res;

	run_child("spin_forever", "SHIM_SCHED=pct:1 SHIM_SCHED_MAX_STEPS=2000",
		  &res);
	assert_child_bug(&res, "no end after 2000 scheduling points",
			 "replay: SHIM_SCHED=pct:1");
}

Test(control, time_is_virtual_and_jumps_to_the_next_timer)
{
	struct child_result res;

	/* ten minutes of jiffies inside the suite's timeout: not real time */
	run_child("long_sleep", "SHIM_SCHED=pct:2", &res);
	assert_ran_cleanly(&res);
	assert_child_said(&res, "slept 600");
}

Test(control, a_busy_wait_on_another_task_ends_under_every_strategy)
{
	const char *settings[] = { "pct:1", "pct:2:1", "random:1", "random:2" };
	struct child_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(settings); i++) {
		char env[64];

		snprintf(env, sizeof(env), "SHIM_SCHED=%s", settings[i]);
		run_child("busy_wait", env, &res);
		assert_ran_cleanly(&res);
	}
}

Test(control, a_controlled_run_has_the_cpus_it_was_given)
{
	struct child_result res;

	run_child("three_cpus", "SHIM_SCHED=pct:1 SHIM_CPUS=3", &res);
	assert_ran_cleanly(&res);
	assert_child_said(&res, "cpus 3");
}

Test(control, a_bug_says_how_to_replay_it)
{
	struct child_result res;

	run_child("bug", "SHIM_SCHED=random:9", &res);
	assert_child_bug(&res, "kernel BUG at", "replay: SHIM_SCHED=random:9 ");
}

Test(control, a_bad_setting_is_refused_by_name)
{
	const char *bad[] = { "SHIM_SCHED=sometimes",
			      "SHIM_SCHED=pct:",
			      "SHIM_SCHED=pct:1:0",
			      "SHIM_SCHED=random:1x",
			      "SHIM_SCHED=replay:/nonexistent",
			      "SHIM_SCHED=pct:1 SHIM_CPUS=0",
			      "SHIM_SCHED=preempt:",
			      "SHIM_SCHED=eager:1" };
	struct child_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		run_child("two_producers", bad[i], &res);
		cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 2,
			  "%s: status 0x%x, wants exit 2:\n%s", bad[i],
			  res.status, res.out);
		assert_child_said(&res, "shim: SHIM_");
	}
}

/* --- the systematic strategies ----------------------------------------------- */

Test(control, eager_runs_a_work_before_the_queuer_takes_another_step)
{
	struct child_result res;

	run_child("queue_then_flush", "SHIM_SCHED=eager", &res);
	assert_ran_cleanly(&res);
	assert_child_said(&res, "after queue 1, later 1, flushed 1");
}

Test(control, lazy_defers_a_work_until_something_waits_for_it)
{
	struct child_result res;

	run_child("queue_then_flush", "SHIM_SCHED=lazy", &res);
	assert_ran_cleanly(&res);
	assert_child_said(&res, "after queue 0, later 0, flushed 1");
}

/* The sites a lazy run of two_sites passed, in its function, in order. */
static void sites_of_two_sites(char site[2][96])
{
	struct child_result res;
	char env[400], path[300], line[256], func[128];
	long calls;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sites", logdir);
	snprintf(env, sizeof(env), "SHIM_SCHED=lazy SHIM_SCHED_SITES=%s", path);
	run_child("two_sites", env, &res);
	assert_ran_cleanly(&res);
	f = fopen(path, "r");
	cr_assert_not_null(f, "no sites file %s", path);
	while (fgets(line, sizeof(line), f)) {
		char s[96];

		cr_assert_eq(sscanf(line, "%95s %127s %ld", s, func, &calls), 3,
			     "a bad line in the sites file: %s", line);
		if (strcmp(func, "child_two_sites"))
			continue;
		cr_assert_lt(n, 2, "more than two sites in two_sites");
		cr_assert_eq(calls, 1, "%s passed %ld times", s, calls);
		cr_assert(!strncmp(s, "control.c:", 10), "site %s", s);
		strcpy(site[n++], s);
	}
	fclose(f);
	cr_assert_eq(n, 2, "two_sites passed %d sites of its own", n);
	cr_assert_str_neq(site[0], site[1]);
}

Test(control, preempt_gives_way_right_after_exactly_the_chosen_site)
{
	struct child_result res;
	char site[2][96], setting[256], *log;
	int i;

	make_logdir();
	sites_of_two_sites(site);
	/* with no preemption, the bystander runs once main waits */
	run_child("two_sites", "SHIM_SCHED=lazy", &res);
	assert_ran_cleanly(&res);
	assert_child_said(&res, "bystander saw stage 3, works ran 2");
	for (i = 0; i < 2; i++) {
		char want[256], *at;

		snprintf(setting, sizeof(setting), "preempt:%s", site[i]);
		run_logged("two_sites", setting, "p", &res);
		assert_ran_cleanly(&res);
		snprintf(want, sizeof(want), "bystander saw stage %d", i + 1);
		assert_child_said(&res, want);
		/* the queuer gave way there, and nowhere else */
		log = slurp("p");
		snprintf(want, sizeof(want), "queued %s by 0 preempt\n",
			 site[i]);
		at = strstr(log, want);
		cr_assert_not_null(at, "no preemption at %s:\n%s", site[i],
				   log);
		cr_assert_eq(strstr(log, " preempt\n"), at + strlen(want) - 9,
			     "a preemption elsewhere:\n%s", log);
		cr_assert_null(strstr(at + strlen(want), " preempt\n"),
			       "a second preemption:\n%s", log);
		cr_assert(strstr(log, "preempted 1 times at "),
			  "the run does not count one preemption:\n%s", log);
		free(log);
	}
}

/*
 * stall: the worker running the routine gives way at every point, its CPU
 * busy, so the queuer, woken a tick later, runs on the other CPU and its
 * request starts there while the first run is under way.
 */
Test(control, stall_runs_a_routine_beside_itself_when_it_can)
{
	struct child_result res;

	run_child("requeue_while_running", "SHIM_SCHED=eager", &res);
	assert_ran_cleanly(&res);
	assert_child_said(&res, "most at once 1");
	run_child("requeue_while_running",
		  "SHIM_SCHED=stall:overlap_routine SHIM_CPUS=2", &res);
	assert_ran_cleanly(&res);
	assert_child_said(&res, "most at once 2");
	/* with one CPU there is nowhere else to run it */
	run_child("requeue_while_running",
		  "SHIM_SCHED=stall:overlap_routine SHIM_CPUS=1", &res);
	assert_ran_cleanly(&res);
	assert_child_said(&res, "most at once 1");
}

Test(control, eager_lazy_preempt_and_stall_are_deterministic_and_replay)
{
	struct child_result res;
	char site[2][96], settings[4][256], replay[300];
	unsigned int i;

	make_logdir();
	sites_of_two_sites(site);
	strcpy(settings[0], "eager");
	strcpy(settings[1], "lazy");
	snprintf(settings[2], sizeof(settings[2]), "preempt:%s", site[0]);
	strcpy(settings[3], "stall:order_routine");
	for (i = 0; i < ARRAY_SIZE(settings); i++) {
		char *a, *b, *c;

		run_logged("two_sites", settings[i], "a", &res);
		assert_ran_cleanly(&res);
		run_logged("two_sites", settings[i], "b", &res);
		assert_ran_cleanly(&res);
		snprintf(replay, sizeof(replay), "replay:%s/a", logdir);
		run_logged("two_sites", replay, "c", &res);
		assert_ran_cleanly(&res);
		a = slurp("a");
		b = slurp("b");
		cr_assert(strstr(a, " D "), "%s made no decision:\n%s",
			  settings[i], a);
		cr_assert_str_eq(a, b, "two runs of %s differ", settings[i]);
		free(a);
		free(b);
		a = events_of("a");
		c = events_of("c");
		cr_assert_str_eq(a, c, "the replay of %s took other decisions",
				 settings[i]);
		free(a);
		free(c);
	}
}

Test(control, a_failure_under_a_systematic_strategy_says_how_to_replay_it)
{
	struct child_result res;

	run_child("bug", "SHIM_SCHED=preempt:x.c:1", &res);
	assert_child_bug(&res, "kernel BUG at",
			 "replay: SHIM_SCHED=preempt:x.c:1 ");
	run_child("bug", "SHIM_SCHED=lazy", &res);
	assert_child_bug(&res, "replay: SHIM_SCHED=lazy ");
}
