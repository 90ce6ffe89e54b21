/*
 * keventd.c - schedule_task() on the one keventd thread: a task runs once,
 * in process context, and every task waits behind one that sleeps.
 */
#include "tasks.h"

TestSuite(taskqueue, .timeout = SUITE_TIMEOUT, .init = quiet_console);

/* --- keventd ------------------------------------------------------------ */

Test(taskqueue, keventd_and_ksoftirqd_exist_before_main)
{
	cr_assert_geq(shim_kthreads_running(), 2);
	cr_assert(thread_named("keventd"));
	cr_assert(thread_named("ksoftirqd/0"));
	cr_assert_eq(current_is_keventd(), 0);
}

Test(taskqueue, start_context_thread_is_a_harmless_noop)
{
	int threads = shim_kthreads_running();
	struct counted_task ct;

	cr_assert_eq(start_context_thread(), 0);
	cr_assert_eq(start_context_thread(), 0);
	cr_assert_eq(shim_kthreads_running(), threads, "it started a thread");
	counted_task_init(&ct);
	cr_assert_eq(schedule_task(&ct.tq), 1);
	flush_scheduled_tasks();
	cr_assert_eq(runs(&ct), 1);
}

Test(taskqueue,
     schedule_task_returns_1_then_0_while_queued_and_the_task_runs_once)
{
	struct counted_task ct;
	struct blocker b;

	block_keventd(&b);
	counted_task_init(&ct);
	cr_assert_eq(schedule_task(&ct.tq), 1);
	cr_assert_eq(schedule_task(&ct.tq), 0);
	cr_assert_eq(schedule_task(&ct.tq), 0);
	cr_assert_eq(runs(&ct), 0);
	complete(&b.release);
	flush_scheduled_tasks();
	cr_assert_eq(runs(&ct), 1);

	/* it ran: no longer queued, scheduled and run again */
	cr_assert_eq(schedule_task(&ct.tq), 1);
	flush_scheduled_tasks();
	cr_assert_eq(runs(&ct), 2);
}

Test(taskqueue, scheduled_task_runs_on_keventd_in_process_context)
{
	struct counted_task ct;

	counted_task_init(&ct);
	cr_assert_eq(schedule_task(&ct.tq), 1);
	wait_for_completion(&ct.done);
	cr_assert_str_eq(ct.comm, "keventd");
	cr_assert_eq(ct.keventd, 1, "current_is_keventd() on keventd");
	cr_assert_eq(ct.in_interrupt, 0);
	cr_assert_eq(ct.preempt, 0, "preempt_count 0x%lx", ct.preempt);
	cr_assert_neq(ct.task, current);
	cr_assert_eq(current_is_keventd(), 0);
}

struct slow_task {
	struct tq_struct tq;
	atomic_t runs;
};

static void slow_task_fn(void *data)
{
	struct slow_task *s = data;

	udelay(100);
	atomic_inc_return(&s->runs);
}

Test(taskqueue, flush_scheduled_tasks_waits_for_the_tasks_scheduled_before_it)
{
	struct slow_task tasks[64];
	int i;

	for (i = 0; i < 64; i++) {
		INIT_TQUEUE(&tasks[i].tq, slow_task_fn, &tasks[i]);
		atomic_set(&tasks[i].runs, 0);
		cr_assert_eq(schedule_task(&tasks[i].tq), 1);
	}
	flush_scheduled_tasks();
	for (i = 0; i < 64; i++)
		cr_assert_eq(atomic_add_return(0, &tasks[i].runs), 1,
			     "task %d had not run when flush returned", i);
}

struct rescheduler {
	struct tq_struct tq;
	int times, refused;
	struct completion last;
};

static void reschedule_fn(void *data)
{
	struct rescheduler *r = data;

	if (++r->times < 100)
		r->refused += !schedule_task(&r->tq);
	else
		complete(&r->last);
}

Test(taskqueue, task_may_schedule_itself_again_and_runs_again)
{
	struct rescheduler r = { .times = 0 };

	INIT_TQUEUE(&r.tq, reschedule_fn, &r);
	init_completion(&r.last);
	cr_assert_eq(schedule_task(&r.tq), 1);
	wait_for_completion(&r.last);
	cr_assert_eq(r.times, 100);
	cr_assert_eq(r.refused, 0, "a running task is not queued");
}

static void keeps_bkl_fn(void *data)
{
	lock_kernel();
}

static struct tq_struct keeps_bkl_tq = { .routine = keeps_bkl_fn };

CHILD_SCENARIO(task_returns_holding_the_bkl)
{
	child_note("task", &keeps_bkl_tq);
	child_check(schedule_task(&keeps_bkl_tq) == 1);
	flush_scheduled_tasks();
}

Test(taskqueue, a_task_that_returns_holding_the_big_kernel_lock_is_a_bug)
{
	struct child_result res;
	char task[32];

	run_child("task_returns_holding_the_bkl", NULL, &res);
	assert_child_bug(&res, "BUG: keventd: task ",
			 child_noted(&res, "task", task, sizeof(task)),
			 "returned holding the big kernel lock: keventd/",
			 "lock_depth 0");
}

/* --- the cost of one shared thread -------------------------------------- */

static atomic_t order = ATOMIC_INIT(0);

struct sleeper {
	struct tq_struct tq;
	struct completion started, go;
	struct counted_task *next;
	int next_had_run;
	int order;
};

static void sleeper_fn(void *data)
{
	struct sleeper *s = data;

	complete(&s->started);
	wait_for_completion(&s->go);
	s->next_had_run = runs(s->next);
	s->order = atomic_inc_return(&order);
}

static int next_order;

static void next_fn(void *data)
{
	next_order = atomic_inc_return(&order);
	counted_task_fn(data);
}

Test(taskqueue, a_sleeping_task_delays_the_task_scheduled_after_it)
{
	struct counted_task next;
	struct sleeper s;

	counted_task_init(&next);
	PREPARE_TQUEUE(&next.tq, next_fn, &next);
	INIT_TQUEUE(&s.tq, sleeper_fn, &s);
	init_completion(&s.started);
	init_completion(&s.go);
	s.next = &next;
	cr_assert_eq(schedule_task(&s.tq), 1);
	wait_for_completion(&s.started);
	cr_assert_eq(schedule_task(&next.tq), 1);
	complete(&s.go);
	flush_scheduled_tasks();
	cr_assert_eq(s.next_had_run, 0,
		     "the next task ran while keventd slept");
	cr_assert_lt(s.order, next_order);
	cr_assert_eq(runs(&next), 1);
}

/* --- many producers ------------------------------------------------------ */

#define PER_PRODUCER 50000

static struct {
	struct tq_struct tasks[2][PER_PRODUCER];
	atomic_t runs[2][PER_PRODUCER];
	int refused[2];
} mass;

static void mass_fn(void *data)
{
	atomic_inc_return(data);
}

static void *mass_producer(void *arg)
{
	long p = (long) arg;
	int i;

	for (i = 0; i < PER_PRODUCER; i++)
		mass.refused[p] += !schedule_task(&mass.tasks[p][i]);
	return NULL;
}

Test(taskqueue,
     two_producers_schedule_50000_distinct_tasks_each_and_all_run_once)
{
	pthread_t t[2];
	long p;
	int i;

	for (p = 0; p < 2; p++)
		for (i = 0; i < PER_PRODUCER; i++)
			INIT_TQUEUE(&mass.tasks[p][i], mass_fn,
				    &mass.runs[p][i]);
	for (p = 0; p < 2; p++)
		start_pinned(&t[p], nth_online_cpu(p % num_online_cpus()),
			     mass_producer, (void *) p);
	for (p = 0; p < 2; p++) {
		join(t[p]);
		cr_assert_eq(mass.refused[p], 0);
	}
	flush_scheduled_tasks();
	for (p = 0; p < 2; p++)
		for (i = 0; i < PER_PRODUCER; i++)
			cr_assert_eq(atomic_read(&mass.runs[p][i]), 1,
				     "task %ld/%d ran %d times", p, i,
				     atomic_read(&mass.runs[p][i]));
}

/* --- SHIM_WQ_SPREAD: keventd where the events worker would be ------------ */

#define SPREAD_TASKS 8

struct tq_spreader {
	unsigned long pin;     /* set_cpus_allowed() first, if not 0 */
	int cpu[SPREAD_TASKS]; /* where each task ran */
	struct completion done;
};

static int tq_spreader_thread(void *arg)
{
	struct tq_spreader *s = arg;
	struct counted_task ct;
	int i;

	if (s->pin)
		child_check(set_cpus_allowed(current, s->pin) == 0);
	for (i = 0; i < SPREAD_TASKS; i++) {
		counted_task_init(&ct);
		child_check(schedule_task(&ct.tq) == 1);
		flush_scheduled_tasks();
		child_check(runs(&ct) == 1);
		s->cpu[i] = ct.cpu;
	}
	complete(&s->done);
	return 0;
}

/* "c0 c1 ...": where the tasks of a task pinned to @pin (0: free) ran */
static void print_tq_spread(const char *what, unsigned long pin)
{
	static struct tq_spreader s;
	int i;

	memset(&s, 0, sizeof(s));
	s.pin = pin;
	init_completion(&s.done);
	child_check(kernel_thread(tq_spreader_thread, &s, 0) > 0);
	wait_for_completion(&s.done);
	printf("%s", what);
	for (i = 0; i < SPREAD_TASKS; i++)
		printf(" %d", s.cpu[i]);
	printf("\n");
}

/*
 * Each task a task free to move schedules runs on the next CPU in turn,
 * as its work would on the events workers; one set_cpus_allowed() pinned
 * has its tasks run on its CPU.  (The host alone would mostly run keventd
 * on its waker's CPU, after the waker.)
 */
CHILD_SCENARIO(keventd_spread)
{
	print_tq_spread("free", 0);
	print_tq_spread("pinned", 1UL << nth_online_cpu(1));
	exit(0);
}

/* the CPU after @cpu among the online ones, round */
static int next_online_cpu(int cpu)
{
	do
		cpu = (cpu + 1) % NR_CPUS;
	while (!cpu_online(cpu));
	return cpu;
}

Test(taskqueue, spread_runs_keventd_on_each_cpu_in_turn_and_a_pinned_queuers)
{
	struct child_result res;
	int free_cpu[SPREAD_TASKS], pinned[SPREAD_TASKS], i;
	const char *at;

	skip_unless_smp();
	run_child("keventd_spread", "SHIM_WQ_SPREAD=1", &res);
	cr_assert(WIFEXITED(res.status) && !WEXITSTATUS(res.status),
		  "status 0x%x:\n%s", res.status, res.out);
	at = strstr(res.out, "free ");
	cr_assert(at, "%s", res.out);
	for (i = 0, at += 4; i < SPREAD_TASKS; i++)
		free_cpu[i] = (int) strtol(at, (char **) &at, 10);
	at = strstr(res.out, "pinned ");
	cr_assert(at, "%s", res.out);
	for (i = 0, at += 6; i < SPREAD_TASKS; i++)
		pinned[i] = (int) strtol(at, (char **) &at, 10);
	for (i = 1; i < SPREAD_TASKS; i++)
		cr_assert_eq(
			free_cpu[i], next_online_cpu(free_cpu[i - 1]),
			"task %d of a free task ran on CPU %d after one on "
			"CPU %d:\n%s",
			i, free_cpu[i], free_cpu[i - 1], res.out);
	for (i = 0; i < SPREAD_TASKS; i++)
		cr_assert_eq(pinned[i], nth_online_cpu(1),
			     "a task of a task pinned to CPU %d ran on %d:\n%s",
			     nth_online_cpu(1), pinned[i], res.out);
}
