/*
 * context.c - the old deferred-work stack: task queues and keventd.
 *
 * As 2.4 and 2.5.39 had it, so that legacy drivers run unchanged:
 * - a task queue is a bare list head; queue_task() links a tq_struct onto
 *   it unless its sync bit says it is already queued somewhere, under one
 *   global lock (tqueue_lock) shared by every queue;
 * - run_task_queue() takes the whole list off under that lock and runs it
 *   in the caller's context, clearing each task's sync bit just before its
 *   routine runs, so a routine may queue its own task again;
 * - schedule_task() queues on tq_context, served by the one keventd thread;
 *   every user shares it, so a task that sleeps delays all the others;
 * - flush_scheduled_tasks() queues a dummy task and waits for keventd to
 *   finish a pass, twice, because a pass that had already begun when the
 *   caller queued its last task may end without having run it;
 * - tq_immediate runs in bottom-half context after mark_bh(IMMEDIATE_BH),
 *   tq_timer at the next timer tick: no sleeping there.
 * keventd starts before main(), as it did before any driver's init.  Under
 * SHIM_WQ_SPREAD=1 it runs where the events worker would have run each
 * task it is woken for (place_keventd()), beside its waker.
 *
 * The debug checks hold the task queue to what they hold the workqueue to:
 * a queued task is in the debug-object registry (outside the task), so
 * INIT_TQUEUE() of a queued task and kfree() of memory holding one are
 * BUGs naming its routine, and a routine that returns with a lock or an
 * atomic section still held is a BUG naming it.
 */
/* the bare queueing calls: this stack's own queueing is no driver's site */
#define SHIM_STACK_INTERNAL
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/debugobjects.h>
#include <linux/interrupt.h>
#include <linux/timer.h>
#include <linux/smp_lock.h>
#include <linux/tqueue.h>
#include <trace/events/workqueue.h>

spinlock_t tqueue_lock __cacheline_aligned_in_smp = SPIN_LOCK_UNLOCKED;

DECLARE_TASK_QUEUE(tq_timer);
DECLARE_TASK_QUEUE(tq_immediate);
DECLARE_TASK_QUEUE(tq_disk);

static DECLARE_TASK_QUEUE(tq_context);
static DECLARE_WAIT_QUEUE_HEAD(context_task_wq);
static DECLARE_WAIT_QUEUE_HEAD(context_task_done);
static int keventd_running;
static struct task_struct *keventd_task;
static int tq_spread; /* SHIM_WQ_SPREAD=1: see place_keventd() */

/* a queued task is named by its routine in reports */
static void *tq_debug_hint(const void *addr)
{
	return (void *) ((const struct tq_struct *) addr)->routine;
}

static struct debug_obj_descr tq_debug_descr = {
	.name = "tq_struct",
	.debug_hint = tq_debug_hint,
};

static const char *queue_name(task_queue *list)
{
	if (list == &tq_context)
		return "keventd";
	if (list == &tq_immediate)
		return "tq_immediate";
	if (list == &tq_timer)
		return "tq_timer";
	if (list == &tq_disk)
		return "tq_disk";
	/* a driver's own queue, by its variable's name, as convert names it */
	return shim_symbol_name(list) ?: "task_queue";
}

/* tq_timer runs at the tick after something is queued on it. */
static void tqueue_tick(unsigned long unused)
{
	run_task_queue(&tq_timer);
}

static struct timer_list tqueue_timer = TIMER_INITIALIZER(tqueue_tick, 0, 0);

int queue_task(struct tq_struct *tq, task_queue *list)
{
	unsigned long flags;

	if (tq->routine)
		trace_workqueue_queue_call(queue_name(list), tq, tq->routine);
	if (test_and_set_bit(0, &tq->sync))
		return 0;
	spin_lock_irqsave(&tqueue_lock, flags);
	debug_object_activate(tq, &tq_debug_descr, queue_name(list));
	list_add_tail(&tq->list, list);
	/* flush's dummy task has no routine: it never runs, so it is no work */
	if (tq->routine)
		trace_workqueue_queue_work(queue_name(list), tq, tq->routine);
	spin_unlock_irqrestore(&tqueue_lock, flags);
	if (list == &tq_timer && !timer_pending(&tqueue_timer))
		mod_timer(&tqueue_timer, jiffies + 1);
	return 1;
}

void run_task_queue(task_queue *list)
{
	struct list_head head;
	unsigned long flags;
	const char *name = queue_name(list);

	spin_lock_irqsave(&tqueue_lock, flags);
	if (list_empty(list)) {
		spin_unlock_irqrestore(&tqueue_lock, flags);
		return;
	}
	INIT_LIST_HEAD(&head);
	list_splice_init(list, &head);
	spin_unlock_irqrestore(&tqueue_lock, flags);

	while (!list_empty(&head)) {
		struct tq_struct *p =
			list_entry(head.next, struct tq_struct, list);
		void (*f)(void *) = p->routine;
		void *data = p->data;

		/* the list is private now: unlink before the task can re-add itself */
		list_del_init(&p->list);
		debug_object_deactivate(p, &tq_debug_descr);
		wmb();
		clear_bit(0, &p->sync);
		if (f) {
			int depth = current->lock_depth;
			unsigned long count = preempt_count();

			trace_workqueue_execute_start(name, p, f);
			debug_check_routine_memory(p, data, f, name);
			f(data);
			trace_workqueue_execute_end(name, p, f);
			if (unlikely(preempt_count() != count)) {
				printk(KERN_EMERG
				       "BUG: %s: task %p (routine %p) "
				       "leaked lock or atomic: %s/%d, "
				       "preempt_count 0x%08lx, not 0x%08lx\n",
				       name, (void *) p, (void *) f,
				       current->comm, current->pid,
				       preempt_count(), count);
				BUG();
			}
			/* a task leaves the big kernel lock as it found it */
			if (unlikely(current->lock_depth > depth)) {
				printk(KERN_EMERG
				       "BUG: %s: task %p (routine %p) "
				       "returned holding the big kernel lock: "
				       "%s/%d, lock_depth %d\n",
				       name, (void *) p, (void *) f,
				       current->comm, current->pid,
				       current->lock_depth);
				BUG();
			}
		}
	}
}

static void immediate_bh(void)
{
	run_task_queue(&tq_immediate);
}

static int need_keventd(const char *who)
{
	if (!keventd_running)
		printk(KERN_ERR "%s(): keventd has not started\n", who);
	return keventd_running;
}

int current_is_keventd(void)
{
	if (!need_keventd(__func__))
		return 0;
	return current == keventd_task;
}

/*
 * Under SHIM_WQ_SPREAD=1 (the demo's race check) keventd runs where the
 * events worker would have run the task: on the queuer's CPU from an
 * interrupt or under a lock, on the next CPU in turn for a task free to
 * move (shim_spread_cpu()).  keventd served every CPU, and 2.4's wake-up
 * put it on an idle one beside its waker; the host would rather wake it
 * on the waker's CPU and run it before the waker goes on, as on one CPU,
 * and ThreadSanitizer would never see a task beside what its queuer does
 * next (a close after a hangup was asked for).
 */
static void place_keventd(void)
{
	static int placed = -1;
	int cpu = shim_spread_cpu();

	/* relaxed: where keventd runs orders nothing */
	if (__atomic_exchange_n(&placed, cpu, __ATOMIC_RELAXED) != cpu)
		shim_task_run_on(keventd_task, cpu);
}

/* queue @task for keventd and wake it: schedule_task(), and a flush */
static int __schedule_task(struct tq_struct *task)
{
	int ret;

	need_keventd("schedule_task");
	ret = queue_task(task, &tq_context);
	wake_up(&context_task_wq);
	return ret;
}

/**
 * schedule_task - run a task in process context, on keventd
 * @task: the task; its routine may sleep, but every other scheduled task
 *        waits while it does
 *
 * Any context.  Returns 1 if the task was queued, 0 if it already was.
 */
int schedule_task(struct tq_struct *task)
{
	if (unlikely(tq_spread) && keventd_task)
		place_keventd();
	return __schedule_task(task);
}

static int context_thread(void *startup)
{
	DECLARE_WAITQUEUE(wait, current);

	strcpy(current->comm, "keventd");
	daemonize();
	current->flags |= PF_IOTHREAD;
	keventd_task = current;
	keventd_running = 1;
	complete(startup);

	for (;;) {
		unsigned long flags;
		int active;

		set_current_state(TASK_INTERRUPTIBLE);
		add_wait_queue(&context_task_wq, &wait);
		spin_lock_irqsave(&tqueue_lock, flags);
		active = TQ_ACTIVE(tq_context);
		spin_unlock_irqrestore(&tqueue_lock, flags);
		/* a task that re-added itself: go round without sleeping */
		if (active)
			set_current_state(TASK_RUNNING);
		schedule();
		remove_wait_queue(&context_task_wq, &wait);

		run_task_queue(&tq_context);
		wake_up(&context_task_done);
	}
	return 0;
}

static struct tq_struct dummy_task;

/**
 * flush_scheduled_tasks - wait until the tasks scheduled so far have run
 *
 * Process context only, holding no lock the tasks could need.  From
 * keventd itself it would wait forever: that is reported and it returns.
 */
void flush_scheduled_tasks(void)
{
	DECLARE_WAITQUEUE(wait, current);
	int count;

	might_sleep();
	if (current_is_keventd()) {
		printk(KERN_WARNING
		       "WARNING: flush_scheduled_tasks() called from "
		       "keventd itself (task %s/%d): it would wait forever; "
		       "returning\n",
		       current->comm, current->pid);
		return;
	}
	trace_workqueue_flush_start("keventd", _RET_IP_);
	add_wait_queue(&context_task_done, &wait);
	for (count = 0; count < 2; count++) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		/*
		 * the dummy task makes sure keventd makes a pass, where it
		 * was to run what the flush waits for
		 */
		__schedule_task(&dummy_task);
		schedule();
	}
	remove_wait_queue(&context_task_done, &wait);
	set_current_state(TASK_RUNNING);
	trace_workqueue_flush_end("keventd", _RET_IP_);
}

/* INIT_TQUEUE on a queued task would corrupt the list it is on. */
void __init_tqueue_check(struct tq_struct *tq, const char *name,
			 const char *func)
{
	const char *owner = debug_object_active(tq);

	if (unlikely(owner)) {
		printk(KERN_EMERG
		       "BUG: INIT_TQUEUE(%s) in %s(): task %p is queued "
		       "on %s\n",
		       name, func, (void *) tq, owner);
		BUG();
	}
}

/* keventd is already running, since before main(): nothing to do. */
int start_context_thread(void)
{
	return 0;
}

__attribute__((constructor(110))) static void context_init(void)
{
	DECLARE_COMPLETION(startup);
	const char *spread = shim_boot_param("SHIM_WQ_SPREAD");
	int pid;

	tq_spread = spread && !strcmp(spread, "1");

	init_bh(IMMEDIATE_BH, immediate_bh);
	pid = kernel_thread(context_thread, &startup, CLONE_FS | CLONE_FILES);
	if (pid < 0)
		panic("keventd: kernel_thread failed: %d", pid);
	wait_for_completion(&startup);
}

EXPORT_SYMBOL(queue_task);
EXPORT_SYMBOL(run_task_queue);
EXPORT_SYMBOL(schedule_task);
EXPORT_SYMBOL(flush_scheduled_tasks);
EXPORT_SYMBOL(tq_timer);
EXPORT_SYMBOL(tq_immediate);
EXPORT_SYMBOL(tq_disk);
EXPORT_SYMBOL(__init_tqueue_check);
