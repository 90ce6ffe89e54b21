/*
 * events.c - the shared "events" queue (schedule_work & co), the exports,
 * and the work tracepoints.
 */
#include "works.h"

#include <linux/module.h>
#include <shim/trace.h>

Test(workqueue, events_workers_exist_before_main)
{
	char comm[16];
	int cpu;

	/* ksoftirqd and one events worker per CPU, all from before main() */
	cr_assert_geq(shim_kthreads_running(), num_online_cpus() + 1);
	for_each_online_cpu(cpu)
		cr_assert(thread_named(worker_comm("events", cpu, comm,
						   sizeof(comm))),
			  "no thread named %s", comm);
	init_workqueues(); /* a harmless no-op now */
}

Test(workqueue, schedule_work_runs_on_an_events_worker_that_is_keventd)
{
	struct counted_work cw;
	char comm[16];
	int cpu = nth_online_cpu(0);

	pin_to_cpu(cpu);
	counted_work_init(&cw);
	cr_assert_eq(current_is_keventd(), 0);
	cr_assert_eq(schedule_work(&cw.work), 1);
	flush_scheduled_work();
	cr_assert_eq(runs(&cw), 1);
	cr_assert_str_eq(cw.comm,
			 worker_comm("events", cpu, comm, sizeof(comm)));
	cr_assert_eq(cw.keventd, 1, "current_is_keventd() in an events work");
	cr_assert_eq(cw.in_interrupt, 0);
	cr_assert_eq(cw.preempt, 0);
}

Test(workqueue, schedule_work_on_a_pending_work_returns_0_and_it_runs_once)
{
	struct counted_work cw;
	struct blocker b;

	pin_to_cpu(nth_online_cpu(0));
	INIT_WORK(&b.work, blocker_fn, &b);
	init_completion(&b.started);
	init_completion(&b.release);
	cr_assert_eq(schedule_work(&b.work), 1);
	wait_for_completion(&b.started);

	counted_work_init(&cw);
	cr_assert_eq(schedule_work(&cw.work), 1);
	cr_assert_eq(schedule_work(&cw.work), 0);
	unblock_worker(&b);
	flush_scheduled_work();
	cr_assert_eq(runs(&cw), 1);
}

Test(workqueue, schedule_delayed_work_runs_after_its_delay)
{
	struct counted_work cw;
	char comm[16];

	shim_clock_virtual();
	counted_work_init(&cw);
	cr_assert_eq(schedule_delayed_work(&cw.work, 3), 1);
	cr_assert_eq(schedule_delayed_work(&cw.work, 3), 0);
	shim_clock_advance(2);
	flush_scheduled_work();
	cr_assert_eq(runs(&cw), 0);
	shim_clock_advance(1);
	flush_scheduled_work();
	cr_assert_eq(runs(&cw), 1);
	cr_assert_str_eq(cw.comm,
			 worker_comm("events", cw.cpu, comm, sizeof(comm)));

	/* and cancelling one on the events queue works as on any other */
	cr_assert_eq(schedule_delayed_work(&cw.work, 3), 1);
	cr_assert_eq(cancel_delayed_work(&cw.work), 1);
	shim_clock_advance(10);
	flush_scheduled_work();
	cr_assert_eq(runs(&cw), 1);
}

struct events_flusher {
	work_t work;
	int returned;
};

static void events_flush_fn(void *data)
{
	struct events_flusher *f = data;

	flush_scheduled_work();
	f->returned = 1;
}

Test(workqueue, flush_scheduled_work_from_an_events_work_warns_and_returns)
{
	struct events_flusher f = { .returned = 0 };

	INIT_WORK(&f.work, events_flush_fn, &f);
	shim_printk_clear();
	cr_assert_eq(schedule_work(&f.work), 1);
	flush_scheduled_work();
	cr_assert_eq(f.returned, 1);
	cr_assert_printk("WARNING: flush_workqueue(events) called from its own "
			 "worker events/");
}

/* --- exports -------------------------------------------------------------- */

extern const struct kernel_symbol __ksymtab_gpl_create_workqueue;
extern const struct kernel_symbol __ksymtab_gpl_queue_work;
extern const struct kernel_symbol __ksymtab_gpl_queue_delayed_work;
extern const struct kernel_symbol __ksymtab_gpl_flush_workqueue;
extern const struct kernel_symbol __ksymtab_gpl_destroy_workqueue;
extern const struct kernel_symbol __ksymtab_schedule_work;
extern const struct kernel_symbol __ksymtab_schedule_delayed_work;
extern const struct kernel_symbol __ksymtab_flush_scheduled_work;
/* the queue functions are for GPL modules only: no plain export */
extern const struct kernel_symbol __ksymtab_queue_work __attribute__((weak));
extern const struct kernel_symbol __ksymtab_create_workqueue
	__attribute__((weak));

static void assert_exported(const struct kernel_symbol *ks, void *fn,
			    const char *name)
{
	cr_assert_eq(ks->value, (unsigned long) fn, "%s: wrong address", name);
	cr_assert_str_eq(ks->name, name);
}

Test(workqueue, queue_functions_are_exported_gpl_and_schedule_work_to_all)
{
	assert_exported(&__ksymtab_gpl_create_workqueue, create_workqueue,
			"create_workqueue");
	assert_exported(&__ksymtab_gpl_queue_work, queue_work, "queue_work");
	assert_exported(&__ksymtab_gpl_queue_delayed_work, queue_delayed_work,
			"queue_delayed_work");
	assert_exported(&__ksymtab_gpl_flush_workqueue, flush_workqueue,
			"flush_workqueue");
	assert_exported(&__ksymtab_gpl_destroy_workqueue, destroy_workqueue,
			"destroy_workqueue");
	assert_exported(&__ksymtab_schedule_work, schedule_work,
			"schedule_work");
	assert_exported(&__ksymtab_schedule_delayed_work, schedule_delayed_work,
			"schedule_delayed_work");
	assert_exported(&__ksymtab_flush_scheduled_work, flush_scheduled_work,
			"flush_scheduled_work");
	cr_assert_null(&__ksymtab_queue_work, "queue_work exported to all");
	cr_assert_null(&__ksymtab_create_workqueue,
		       "create_workqueue exported to all");
}

/* The same, as modpost would read it: from the built archive, with nm. */
Test(workqueue, the_archive_carries_the_export_symbols)
{
	char exe[512], cmd[1100], line[256];
	int gpl_queue_work = 0, schedule_work_sym = 0;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	FILE *nm;

	cr_assert_gt(n, 0);
	exe[n] = '\0';
	slash = strrchr(exe, '/'); /* build/tests/workqueue */
	cr_assert_not_null(slash);
	*slash = '\0';
	snprintf(cmd, sizeof(cmd), "nm %s/../libworkqueue.a 2>/dev/null", exe);
	nm = popen(cmd, "r");
	cr_assert_not_null(nm);
	while (fgets(line, sizeof(line), nm)) {
		const char *sym = strrchr(line, ' '); /* "addr T name" */

		line[strcspn(line, "\n")] = '\0';
		sym = sym ? sym + 1 : line;
		gpl_queue_work |= !strcmp(sym, "__ksymtab_gpl_queue_work");
		schedule_work_sym |= !strcmp(sym, "__ksymtab_schedule_work");
	}
	if (pclose(nm) != 0 && !gpl_queue_work && !schedule_work_sym)
		cr_skip_test("nm cannot read %s/../libworkqueue.a", exe);
	cr_assert(gpl_queue_work,
		  "no __ksymtab_gpl_queue_work in libworkqueue.a");
	cr_assert(schedule_work_sym,
		  "no __ksymtab_schedule_work in libworkqueue.a");
}

/* --- tracepoints ---------------------------------------------------------- */

#define NR_TRACED 16

static void nothing_but_trace_fn(void *data)
{
}

static struct {
	work_t works[NR_TRACED];
	atomic_t seen[SHIM_NR_WORK_EVENTS][NR_TRACED];
	atomic_t foreign; /* events on our queue for works not ours */
} traced;

static void count_event(enum shim_work_event ev, const void *work,
			void (*routine)(void *), const char *queue)
{
	const work_t *w = work;

	/* the call names the queue, the other events its per-CPU thread */
	if (strncmp(queue, "traced", 6) || (queue[6] && queue[6] != '/'))
		return;
	if (ev == SHIM_WORK_FLUSH_START || ev == SHIM_WORK_FLUSH_END)
		return; /* a flush names no work */
	if (w >= traced.works && w < traced.works + NR_TRACED)
		atomic_inc_return(&traced.seen[ev][w - traced.works]);
	else
		atomic_inc_return(&traced.foreign);
}

Test(workqueue, trace_probe_sees_queue_start_and_end_once_per_accepted_work)
{
	workqueue_t *wq = create_workqueue("traced");
	struct blocker b;
	int i;

	pin_to_cpu(nth_online_cpu(0));
	block_worker(wq, &b); /* so the second queueings find them pending */
	shim_work_trace_register(count_event);
	for (i = 0; i < NR_TRACED; i++) {
		INIT_WORK(&traced.works[i], nothing_but_trace_fn, NULL);
		cr_assert_eq(queue_work(wq, &traced.works[i]), 1);
		cr_assert_eq(queue_work(wq, &traced.works[i]), 0);
	}
	unblock_worker(&b);
	flush_workqueue(wq);
	shim_work_trace_unregister();
	for (i = 0; i < NR_TRACED; i++) {
		cr_assert_eq(atomic_read(&traced.seen[SHIM_WORK_QUEUE][i]), 1,
			     "work %d: QUEUE", i);
		cr_assert_eq(
			atomic_read(&traced.seen[SHIM_WORK_EXECUTE_START][i]),
			1, "work %d: EXECUTE_START", i);
		cr_assert_eq(
			atomic_read(&traced.seen[SHIM_WORK_EXECUTE_END][i]), 1,
			"work %d: EXECUTE_END", i);
		cr_assert_eq(atomic_read(&traced.seen[SHIM_WORK_QUEUE_CALL][i]),
			     2,
			     "work %d: both QUEUE_CALLs, the refused one too",
			     i);
	}
	/* the blocker was queued before the probe: only its end is seen */
	cr_assert_eq(atomic_read(&traced.foreign), 1);
	destroy_workqueue(wq);
}

/* --- latency isolation ---------------------------------------------------- */

/*
 * The point of queues of one's own: a work asleep on its own queue does
 * not hold up the events queue (on keventd it held up every task).
 */
Test(workqueue, a_work_asleep_on_its_own_queue_does_not_delay_events)
{
	workqueue_t *wq = create_workqueue("slowq");
	struct counted_work quick;
	struct blocker b;
	int cpu = nth_online_cpu(0);

	pin_to_cpu(cpu);
	block_worker(wq, &b); /* asleep on slowq/<cpu> */
	counted_work_init(&quick);
	cr_assert_eq(schedule_work(&quick.work), 1);
	wait_for_completion(&quick.done); /* a hang here is the failure */
	cr_assert_eq(runs(&quick), 1);
	unblock_worker(&b);
	destroy_workqueue(wq);
}
