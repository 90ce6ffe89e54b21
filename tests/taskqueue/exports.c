/*
 * exports.c - the task-queue API is exported to every module, and the
 * work tracepoints see each scheduled task.
 */
#include "tasks.h"
#include <shim/trace.h>

extern const struct kernel_symbol __ksymtab_schedule_task;
extern const struct kernel_symbol __ksymtab_flush_scheduled_tasks;
extern const struct kernel_symbol __ksymtab_queue_task;
extern const struct kernel_symbol __ksymtab_run_task_queue;
extern const struct kernel_symbol __ksymtab_tq_immediate;

Test(taskqueue, the_task_queue_api_is_exported_to_all_modules)
{
	cr_assert_eq(__ksymtab_schedule_task.value,
		     (unsigned long) schedule_task);
	cr_assert_str_eq(__ksymtab_schedule_task.name, "schedule_task");
	cr_assert_eq(__ksymtab_flush_scheduled_tasks.value,
		     (unsigned long) flush_scheduled_tasks);
	cr_assert_eq(__ksymtab_queue_task.value, (unsigned long) queue_task);
	cr_assert_eq(__ksymtab_run_task_queue.value,
		     (unsigned long) run_task_queue);
	cr_assert_eq(__ksymtab_tq_immediate.value,
		     (unsigned long) &tq_immediate);
}

#define NR_TRACED 8

static struct {
	struct tq_struct tasks[NR_TRACED];
	atomic_t seen[SHIM_NR_WORK_EVENTS][NR_TRACED];
} traced;

static void count_event(enum shim_work_event ev, const void *work,
			void (*routine)(void *), const char *queue)
{
	const struct tq_struct *t = work;

	if (!strcmp(queue, "keventd") && t >= traced.tasks &&
	    t < traced.tasks + NR_TRACED)
		atomic_inc_return(&traced.seen[ev][t - traced.tasks]);
}

Test(taskqueue, trace_probe_sees_queue_start_and_end_once_per_scheduled_task)
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
		cr_assert_eq(
			atomic_read(&traced.seen[SHIM_WORK_EXECUTE_START][i]),
			1);
		cr_assert_eq(
			atomic_read(&traced.seen[SHIM_WORK_EXECUTE_END][i]), 1);
		/* both calls are seen, the refused one too */
		cr_assert_eq(atomic_read(&traced.seen[SHIM_WORK_QUEUE_CALL][i]),
			     2);
	}
}
