/*
 * context.c - the old stack, as legacy drivers rely on it: schedule_task()
 * on the one keventd thread, flush_scheduled_tasks(), private task queues
 * run with run_task_queue(), tq_immediate in bottom-half context and
 * tq_timer at the next tick.
 */
#include "../workqueue/helpers.h"

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/tqueue.h>
#include <shim/trace.h>

TestSuite(context, .timeout = SUITE_TIMEOUT, .init = quiet_console);

struct counted_task {
	struct tq_struct tq;
	atomic_t runs;
	/* what the last run saw */
	char comm[16];
	unsigned long preempt;
	int in_interrupt, in_softirq, keventd;
	struct task_struct *task;
	struct completion done;		/* completed by each run */
};

static void counted_task_fn(void *data)
{
	struct counted_task *ct = data;

	memcpy(ct->comm, current->comm, sizeof(ct->comm));
	ct->preempt = preempt_count();
	ct->in_interrupt = in_interrupt();
	ct->in_softirq = in_softirq();
	ct->keventd = current_is_keventd();
	ct->task = current;
	atomic_inc_return(&ct->runs);
	complete(&ct->done);
}

static void counted_task_init(struct counted_task *ct)
{
	memset(ct, 0, sizeof(*ct));
	INIT_TQUEUE(&ct->tq, counted_task_fn, ct);
	init_completion(&ct->done);
}

static int runs(struct counted_task *ct)
{
	return atomic_add_return(0, &ct->runs);
}

/* A task that keeps keventd busy until released. */
struct blocker {
	struct tq_struct tq;
	struct completion started, release;
};

static void blocker_fn(void *data)
{
	struct blocker *b = data;

	complete(&b->started);
	wait_for_completion(&b->release);
}

static void block_keventd(struct blocker *b)
{
	INIT_TQUEUE(&b->tq, blocker_fn, b);
	init_completion(&b->started);
	init_completion(&b->release);
	cr_assert_eq(schedule_task(&b->tq), 1);
	wait_for_completion(&b->started);
}

static void noop_fn(void *data)
{
}

/* --- keventd ------------------------------------------------------------ */

Test(context, keventd_and_ksoftirqd_exist_before_main)
{
	cr_assert_geq(shim_kthreads_running(), 2);
	cr_assert(thread_named("keventd"));
	cr_assert(thread_named("ksoftirqd/0"));
	cr_assert_eq(current_is_keventd(), 0);
}

Test(context, start_context_thread_is_a_harmless_noop)
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

Test(context, schedule_task_returns_1_then_0_while_queued_and_the_task_runs_once)
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

Test(context, scheduled_task_runs_on_keventd_in_process_context)
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

Test(context, flush_scheduled_tasks_waits_for_the_tasks_scheduled_before_it)
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

Test(context, task_may_schedule_itself_again_and_runs_again)
{
	struct rescheduler r = { .times = 0 };

	INIT_TQUEUE(&r.tq, reschedule_fn, &r);
	init_completion(&r.last);
	cr_assert_eq(schedule_task(&r.tq), 1);
	wait_for_completion(&r.last);
	cr_assert_eq(r.times, 100);
	cr_assert_eq(r.refused, 0, "a running task is not queued");
}

/* --- flushing ------------------------------------------------------------ */

static struct {
	struct counted_task before;
	atomic_t entering;
	int runs_seen[2];
} flushers;

static void *flusher(void *arg)
{
	long i = (long) arg;

	atomic_inc_return(&flushers.entering);
	flush_scheduled_tasks();
	flushers.runs_seen[i] = runs(&flushers.before);
	return NULL;
}

Test(context, two_concurrent_flushers_both_return)
{
	struct blocker b;
	pthread_t t[2];
	long i;

	block_keventd(&b);
	counted_task_init(&flushers.before);
	cr_assert_eq(schedule_task(&flushers.before.tq), 1);
	for (i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, flusher, (void *) i), 0);
	spin_until(atomic_add_return(0, &flushers.entering) == 2);
	complete(&b.release);
	for (i = 0; i < 2; i++) {
		join(t[i]);	/* a hang here is the failure */
		cr_assert_eq(flushers.runs_seen[i], 1,
			     "flusher %ld returned before the task ran", i);
	}
}

struct keventd_flusher {
	struct tq_struct tq;
	int returned;
};

static void keventd_flush_fn(void *data)
{
	struct keventd_flusher *f = data;

	flush_scheduled_tasks();
	f->returned = 1;
}

Test(context, flush_scheduled_tasks_from_keventd_warns_and_returns)
{
	struct keventd_flusher f = { .returned = 0 };

	INIT_TQUEUE(&f.tq, keventd_flush_fn, &f);
	shim_printk_clear();
	cr_assert_eq(schedule_task(&f.tq), 1);
	flush_scheduled_tasks();
	cr_assert_eq(f.returned, 1);
	cr_assert_printk("<4>WARNING: flush_scheduled_tasks() called from keventd");
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

Test(context, a_sleeping_task_delays_the_task_scheduled_after_it)
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
	cr_assert_eq(s.next_had_run, 0, "the next task ran while keventd slept");
	cr_assert_lt(s.order, next_order);
	cr_assert_eq(runs(&next), 1);
}

/* --- many producers ------------------------------------------------------ */

#define PER_PRODUCER	50000

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

Test(context, two_producers_schedule_50000_distinct_tasks_each_and_all_run_once)
{
	pthread_t t[2];
	long p;
	int i;

	for (p = 0; p < 2; p++)
		for (i = 0; i < PER_PRODUCER; i++)
			INIT_TQUEUE(&mass.tasks[p][i], mass_fn, &mass.runs[p][i]);
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

/* --- private task queues ------------------------------------------------- */

static int fifo[8], fifo_len;
static struct task_struct *fifo_task;

static void fifo_fn(void *data)
{
	fifo[fifo_len++] = (int) (long) data;
	fifo_task = current;
}

Test(context, run_task_queue_runs_a_private_queue_in_fifo_order_in_the_caller)
{
	DECLARE_TASK_QUEUE(tq_mine);
	struct tq_struct tasks[5];
	int i;

	for (i = 0; i < 5; i++) {
		INIT_TQUEUE(&tasks[i], fifo_fn, (void *) (long) i);
		cr_assert_eq(queue_task(&tasks[i], &tq_mine), 1);
	}
	cr_assert_eq(queue_task(&tasks[0], &tq_mine), 0, "already queued");
	cr_assert(TQ_ACTIVE(tq_mine));
	cr_assert_eq(fifo_len, 0, "a private queue runs only when run");
	run_task_queue(&tq_mine);
	cr_assert_eq(fifo_len, 5);
	for (i = 0; i < 5; i++)
		cr_assert_eq(fifo[i], i);
	cr_assert_eq(fifo_task, current, "ran in the caller's context");
	cr_assert(!TQ_ACTIVE(tq_mine));
	for (i = 0; i < 5; i++)
		cr_assert_eq(tasks[i].sync, 0);
	run_task_queue(&tq_mine);	/* empty: nothing happens */
	cr_assert_eq(fifo_len, 5);
}

static task_queue *readd_queue;
static int readd_runs;

static void readd_fn(void *data)
{
	readd_runs++;
	queue_task(data, readd_queue);
}

Test(context, task_readding_itself_runs_at_the_next_run_task_queue)
{
	DECLARE_TASK_QUEUE(tq_mine);
	struct tq_struct t;

	readd_queue = &tq_mine;
	INIT_TQUEUE(&t, readd_fn, &t);
	cr_assert_eq(queue_task(&t, &tq_mine), 1);
	run_task_queue(&tq_mine);
	cr_assert_eq(readd_runs, 1, "a task re-added while its queue runs waits");
	cr_assert(TQ_ACTIVE(tq_mine));
	run_task_queue(&tq_mine);
	cr_assert_eq(readd_runs, 2);
	PREPARE_TQUEUE(&t, noop_fn, NULL);	/* and now let it go */
	run_task_queue(&tq_mine);
	cr_assert(!TQ_ACTIVE(tq_mine));
}

static int payload = 7, other_payload = 8;

Test(context, init_tqueue_sets_all_and_prepare_tqueue_only_routine_and_data)
{
	struct tq_struct t;
	DECLARE_TASK_QUEUE(tq_mine);

	memset(&t, 0x5a, sizeof(t));
	INIT_TQUEUE(&t, noop_fn, &payload);
	cr_assert(list_empty(&t.list));
	cr_assert_eq(t.sync, 0);
	cr_assert_eq(t.routine, noop_fn);
	cr_assert_eq(t.data, &payload);

	cr_assert_eq(queue_task(&t, &tq_mine), 1);
	PREPARE_TQUEUE(&t, counted_task_fn, &other_payload);
	cr_assert_eq(t.routine, counted_task_fn);
	cr_assert_eq(t.data, &other_payload);
	cr_assert_eq(t.sync, 1, "PREPARE_TQUEUE left the queued state alone");
	cr_assert_eq(t.list.prev, &tq_mine);
	PREPARE_TQUEUE(&t, noop_fn, NULL);
	run_task_queue(&tq_mine);
	cr_assert_eq(t.sync, 0);
}

/* --- bottom halves and the timer tick ----------------------------------- */

Test(context, tq_immediate_runs_in_bottom_half_context_on_ksoftirqd)
{
	struct counted_task ct;

	counted_task_init(&ct);
	cr_assert_eq(queue_task(&ct.tq, &tq_immediate), 1);
	mark_bh(IMMEDIATE_BH);
	wait_for_completion(&ct.done);
	cr_assert_eq(runs(&ct), 1);
	cr_assert_eq(ct.in_interrupt, 1);
	cr_assert_eq(ct.in_softirq, 1);
	cr_assert_str_eq(ct.comm, "ksoftirqd/0");
	cr_assert_eq(ct.keventd, 0);
}

static void sleep_briefly_fn(void *data)
{
	set_current_state(TASK_INTERRUPTIBLE);
	schedule_timeout(1);
}

static void wait_forever_fn(void *data)
{
	wait_for_completion(data);
}

CHILD_SCENARIO(schedule_timeout_in_an_immediate_task)
{
	static struct tq_struct t;
	DECLARE_COMPLETION(never);

	INIT_TQUEUE(&t, sleep_briefly_fn, NULL);
	queue_task(&t, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	wait_for_completion(&never);	/* ksoftirqd BUGs meanwhile */
}

Test(context, sleeping_in_an_immediate_task_is_a_bug)
{
	struct child_result res;

	run_child("schedule_timeout_in_an_immediate_task", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: scheduling while atomic: ksoftirqd/0/");
}

CHILD_SCENARIO(wait_for_completion_in_an_immediate_task)
{
	static struct tq_struct t;
	static DECLARE_COMPLETION(never);

	INIT_TQUEUE(&t, wait_forever_fn, &never);
	queue_task(&t, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	wait_for_completion(&never);
}

Test(context, waiting_for_a_completion_in_an_immediate_task_is_a_bug)
{
	struct child_result res;

	run_child("wait_for_completion_in_an_immediate_task", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: sleeping function called from invalid "
			 "context: wait_for_completion() in ksoftirqd/0/");
}

Test(context, tq_timer_runs_at_the_next_tick_in_timer_context)
{
	struct counted_task ct;

	shim_clock_virtual();
	counted_task_init(&ct);
	cr_assert_eq(queue_task(&ct.tq, &tq_timer), 1);
	cr_assert_eq(queue_task(&ct.tq, &tq_timer), 0);
	cr_assert_eq(runs(&ct), 0);
	shim_clock_advance(1);	/* timers run in this thread, in virtual time */
	cr_assert_eq(runs(&ct), 1);
	cr_assert_eq(ct.in_interrupt, 1);
	cr_assert_eq(ct.task, current);

	/* and again at the tick after it is queued again */
	cr_assert_eq(queue_task(&ct.tq, &tq_timer), 1);
	shim_clock_advance(1);
	cr_assert_eq(runs(&ct), 2);
	shim_clock_advance(10);
	cr_assert_eq(runs(&ct), 2);
}

CHILD_SCENARIO(sleep_in_a_tq_timer_task)
{
	static struct tq_struct t;

	shim_clock_virtual();
	INIT_TQUEUE(&t, sleep_briefly_fn, NULL);
	queue_task(&t, &tq_timer);
	shim_clock_advance(1);
}

Test(context, sleeping_in_a_tq_timer_task_is_a_bug)
{
	struct child_result res;

	run_child("sleep_in_a_tq_timer_task", CHILD_ALL_PRINTK, &res);
	assert_child_bug(&res, "BUG: scheduling while atomic");
}

/* --- exports and tracepoints --------------------------------------------- */

extern const struct kernel_symbol __ksymtab_schedule_task;
extern const struct kernel_symbol __ksymtab_flush_scheduled_tasks;
extern const struct kernel_symbol __ksymtab_queue_task;
extern const struct kernel_symbol __ksymtab_run_task_queue;
extern const struct kernel_symbol __ksymtab_tq_immediate;

Test(context, the_task_queue_api_is_exported_to_all_modules)
{
	cr_assert_eq(__ksymtab_schedule_task.value, (unsigned long) schedule_task);
	cr_assert_str_eq(__ksymtab_schedule_task.name, "schedule_task");
	cr_assert_eq(__ksymtab_flush_scheduled_tasks.value,
		     (unsigned long) flush_scheduled_tasks);
	cr_assert_eq(__ksymtab_queue_task.value, (unsigned long) queue_task);
	cr_assert_eq(__ksymtab_run_task_queue.value, (unsigned long) run_task_queue);
	cr_assert_eq(__ksymtab_tq_immediate.value, (unsigned long) &tq_immediate);
}

#define NR_TRACED	8

static struct {
	struct tq_struct tasks[NR_TRACED];
	atomic_t seen[3][NR_TRACED];
} traced;

static void count_event(enum shim_work_event ev, const void *work,
			void (*routine)(void *), const char *queue)
{
	const struct tq_struct *t = work;

	if (!strcmp(queue, "keventd") && t >= traced.tasks &&
	    t < traced.tasks + NR_TRACED)
		atomic_inc_return(&traced.seen[ev][t - traced.tasks]);
}

Test(context, trace_probe_sees_queue_start_and_end_once_per_scheduled_task)
{
	struct blocker b;
	int i;

	block_keventd(&b);
	shim_work_trace_register(count_event);
	for (i = 0; i < NR_TRACED; i++) {
		INIT_TQUEUE(&traced.tasks[i], noop_fn, NULL);
		cr_assert_eq(schedule_task(&traced.tasks[i]), 1);
		cr_assert_eq(schedule_task(&traced.tasks[i]), 0);
	}
	complete(&b.release);
	flush_scheduled_tasks();
	shim_work_trace_unregister();
	for (i = 0; i < NR_TRACED; i++) {
		cr_assert_eq(atomic_read(&traced.seen[SHIM_WORK_QUEUE][i]), 1);
		cr_assert_eq(atomic_read(&traced.seen[SHIM_WORK_EXECUTE_START][i]), 1);
		cr_assert_eq(atomic_read(&traced.seen[SHIM_WORK_EXECUTE_END][i]), 1);
	}
}
