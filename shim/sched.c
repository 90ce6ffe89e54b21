/*
 * sched.c - current, the preempt count, and the sleep/wake protocol.
 *
 * Sleeping follows the kernel's protocol: a task marks itself sleeping
 * (set_current_state), tests its condition, then calls schedule().  A waker
 * sets the task back to TASK_RUNNING and bumps its wake sequence;
 * schedule() sleeps on that sequence (a wait word, host.h) only while the state is
 * not TASK_RUNNING, reading the sequence before the state, so a wake-up
 * that lands between set_current_state() and schedule() makes schedule()
 * return at once.
 */
#include "shim.h"
#include <linux/completion.h>
#include <linux/preempt.h>
#include <asm/processor.h>

__thread unsigned long shim_preempt;
__thread struct task_struct *shim_current;

unsigned long shim_preempt_count(void)
{
	return shim_preempt;
}

void shim_preempt_add(unsigned long val)
{
	shim_preempt += val;
}

void shim_preempt_sub(unsigned long val)
{
	/* each field of the count is a byte: val * 0xff masks val's field */
	if (unlikely((shim_preempt & (val * 0xff)) < val)) {
		printk(KERN_EMERG "BUG: preempt count underflow in %s/%d: "
				  "0x%08lx - 0x%08lx (unlock without lock?)\n",
		       current->comm, current->pid, shim_preempt, val);
		BUG();
	}
	shim_preempt -= val;
}

unsigned long shim_local_irq_save(void)
{
	unsigned long flags = shim_preempt & IRQSOFF_OFFSET;

	shim_preempt |= IRQSOFF_OFFSET;
	return flags;
}

static inline void irq_restore(unsigned long flags)
{
	shim_preempt = (shim_preempt & ~IRQSOFF_OFFSET) |
		       (flags & IRQSOFF_OFFSET);
}

/* a restore that finds interrupts enabled: warn, then restore */
static noinline __attribute__((cold)) void
bogus_irq_restore(unsigned long flags, void *ip)
{
	char where[128];

	if (shim_debug_checks)
		printk(KERN_WARNING
		       "WARNING: local_irq_restore(%#lx) called with "
		       "interrupts enabled in %s (%s/%d): they were enabled "
		       "between the save and the restore (spin_unlock_irq() or "
		       "local_irq_enable() inside a spin_lock_irqsave() "
		       "section?), or the flags were never saved\n",
		       flags, shim_symbol_caller(ip, where, sizeof(where)),
		       current->comm, current->pid);
	irq_restore(flags);
}

void shim_local_irq_restore(unsigned long flags)
{
	if (unlikely(!(shim_preempt & IRQSOFF_OFFSET))) {
		bogus_irq_restore(flags, __builtin_return_address(0));
		return;
	}
	irq_restore(flags);
}

void shim_local_irq_enable(void)
{
	shim_preempt &= ~IRQSOFF_OFFSET;
}

int shim_irqs_disabled(void)
{
	return (shim_preempt & IRQSOFF_OFFSET) != 0;
}

static void show_comm(struct task_struct *tsk)
{
	memcpy(tsk->shim_comm_shown, tsk->comm, sizeof(tsk->comm));
	shim_thread_set_name(tsk->comm);
}

void shim_set_current(struct task_struct *tsk)
{
	shim_current = tsk;
	if (unlikely(shim_controlled))
		shim_ctl_set_task(tsk);
}

/* current, without adopting a thread that has none (for the oops handler) */
struct task_struct *shim_current_or_null(void)
{
	return shim_current;
}

struct task_struct *shim_get_current(void)
{
	struct task_struct *tsk = shim_current;

	return likely(tsk) ? tsk : shim_adopt_current();
}

void __might_sleep(const char *func)
{
	/* 2.4: a holder of cli()'s global lock may sleep; it lets it go */
	if (unlikely(shim_preempt) && !shim_irqlock_may_sleep()) {
		printk(KERN_ERR
		       "BUG: sleeping function called from invalid "
		       "context: %s() in %s/%d, preempt_count 0x%08lx\n",
		       func, current->comm, current->pid, shim_preempt);
		BUG();
	}
}

/*
 * Tasks that can run: born and not ended, and not asleep in schedule().
 * shim_quiesce() waits until the caller is the only one.  A task is
 * counted out by itself as it goes to sleep and back in by whoever makes
 * it runnable, both under its shim_sleep_lock: so a task that can run is
 * never counted out, and whoever wakes it is counted while it does.
 *
 * The count is the sandbox's, not the kernel's, and ThreadSanitizer must
 * not take its atomics for an order: they would make every task that
 * falls asleep happen before every task counted in after it, a bottom
 * half on ksoftirqd before any process woken next, which no kernel lock
 * did, and hide their races.  Only the quiescer, which waits for them
 * all, is ordered after what each did before counting itself out.
 */
static int tasks_awake;
static unsigned int awake_seq; /* wait word: bumped as tasks fall asleep */
static int awake_watchers;

static void count_awake(int n)
{
	if (n < 0)
		shim_tsan_release(&tasks_awake);
	shim_tsan_unseen_begin();
	__atomic_add_fetch(&tasks_awake, n, __ATOMIC_SEQ_CST);
	shim_tsan_unseen_end();
}

static inline void sleep_lock(struct task_struct *t)
{
	while (__atomic_exchange_n(&t->shim_sleep_lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&t->shim_sleep_lock, __ATOMIC_RELAXED))
			__cpu_relax();
}

static inline void sleep_unlock(struct task_struct *t)
{
	__atomic_store_n(&t->shim_sleep_lock, 0, __ATOMIC_RELEASE);
}

static void awake_changed(void)
{
	shim_tsan_unseen_begin();
	if (__atomic_load_n(&awake_watchers, __ATOMIC_SEQ_CST)) {
		__atomic_add_fetch(&awake_seq, 1, __ATOMIC_SEQ_CST);
		shim_host_wake(&awake_seq, INT_MAX);
	}
	shim_tsan_unseen_end();
}

void shim_task_born(void)
{
	count_awake(1);
}

void shim_task_gone(void)
{
	count_awake(-1);
	awake_changed();
}

/*
 * @t goes to sleep unless @still_runs(@arg) says otherwise, tested under
 * its lock: 1 if it sleeps (counted out).
 */
int shim_sleep_begin(struct task_struct *t, int (*still_runs)(void *),
		     void *arg)
{
	int sleeps;

	sleep_lock(t);
	sleeps = !still_runs(arg);
	if (sleeps) {
		t->shim_asleep = 1;
		count_awake(-1);
	}
	sleep_unlock(t);
	if (sleeps)
		awake_changed();
	return sleeps;
}

/* @t can run again: counted in, once, by itself or by its waker. */
void shim_sleep_end(struct task_struct *t)
{
	sleep_lock(t);
	if (t->shim_asleep) {
		t->shim_asleep = 0;
		count_awake(1);
	}
	sleep_unlock(t);
}

/* Sleep until the caller is the only task that can run and @idle() holds. */
void shim_wait_awake_alone(int (*idle)(void))
{
	(void) current; /* the caller is a task, counted in */
	shim_tsan_unseen_begin();
	__atomic_add_fetch(&awake_watchers, 1, __ATOMIC_SEQ_CST);
	shim_tsan_unseen_end();
	for (;;) {
		unsigned int seq;
		int alone;

		shim_tsan_unseen_begin();
		seq = __atomic_load_n(&awake_seq, __ATOMIC_SEQ_CST);
		alone = __atomic_load_n(&tasks_awake, __ATOMIC_SEQ_CST) <= 1;
		shim_tsan_unseen_end();
		if (alone && idle())
			break;
		shim_host_wait(&awake_seq, seq, -1);
	}
	shim_tsan_unseen_begin();
	__atomic_sub_fetch(&awake_watchers, 1, __ATOMIC_SEQ_CST);
	shim_tsan_unseen_end();
	/* what every task did before it fell asleep */
	shim_tsan_acquire(&tasks_awake);
}

static int task_running(void *tsk)
{
	return __atomic_load_n(&((struct task_struct *) tsk)->state,
			       __ATOMIC_SEQ_CST) == TASK_RUNNING;
}

void schedule(void)
{
	struct task_struct *tsk = current;
	uint32_t seq;

	/* 2.4's release_kernel_lock(): cli()'s lock goes, irqs come on */
	if (unlikely(shim_irqlock_held_by(tsk)))
		shim_irqlock_schedule(tsk);
	if (unlikely(shim_preempt)) {
		printk(KERN_ERR "BUG: scheduling while atomic: %s/%d/0x%08lx\n",
		       tsk->comm, tsk->pid, shim_preempt);
		BUG();
	}
	if (unlikely(
		    memcmp(tsk->comm, tsk->shim_comm_shown, sizeof(tsk->comm))))
		show_comm(tsk);
	if (unlikely(tsk->lock_depth >= 0)) {
		/* the big kernel lock is let go while its holder sleeps */
		shim_schedule_kernel_locked(tsk);
		return;
	}

	if (__atomic_load_n(&tsk->state, __ATOMIC_SEQ_CST) == TASK_RUNNING) {
		/* schedule() while runnable only gives up the CPU */
		shim_yield();
		return;
	}
	if (!shim_sleep_begin(tsk, task_running, tsk))
		return;
	/* runnable, and not held by an interrupt still running (below) */
	for (;;) {
		seq = __atomic_load_n(&tsk->shim_wake_seq, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&tsk->state, __ATOMIC_SEQ_CST) ==
			    TASK_RUNNING &&
		    !__atomic_load_n(&tsk->shim_wake_held, __ATOMIC_SEQ_CST))
			break;
		shim_host_wait(&tsk->shim_wake_seq, seq, -1);
	}
	shim_sleep_end(tsk);
}

/*
 * Waking is two steps.  Marking makes @p runnable if its state is in
 * @mode (the decision, taken under whatever lock the waker holds) and
 * takes a reference, since once runnable @p may run, exit and be freed
 * (the kernel's task_struct outlives its waker by RCU; ours is freed at
 * thread exit).  Kicking bumps its wake sequence, wakes the host thread
 * and drops the reference; it is best done after the waker has dropped
 * its locks, or the woken thread runs at once into the lock still held
 * (Linux defers its wake-ups with wake_q for the same reason).
 */
int shim_wake_mark(struct task_struct *p, long mode)
{
	long state;

	/* order the waker's condition store before its read of the state */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	state = __atomic_load_n(&p->state, __ATOMIC_SEQ_CST);
	if (!(state & mode))
		return 0;
	get_task_struct(p);
	do {
		if (!(state & mode)) {
			put_task_struct(p);
			return 0;
		}
	} while (!__atomic_compare_exchange_n(&p->state, &state, TASK_RUNNING,
					      0, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	shim_sleep_end(p);
	return 1;
}

void shim_wake_kick(struct task_struct *p)
{
	__atomic_add_fetch(&p->shim_wake_seq, 1, __ATOMIC_SEQ_CST);
	shim_host_wake(&p->shim_wake_seq, 1);
	put_task_struct(p);
}

/*
 * A wake-up in interrupt context takes effect when the interrupt ends.
 * The kernel's does on the CPU it was made on: a hard interrupt's
 * handler, a timer or a bottom half runs to its end before that CPU
 * switches to what it woke, and 2.4 ran the bottom halves a handler
 * marked at the handler's exit (do_softirq() in do_IRQ()).  Here the
 * woken task is a host thread of its own, which would run at once, beside
 * the rest of the handler: what it sees of the device and of the
 * driver's state (a close polling a status register the handler is about
 * to write) would depend on the host's timing, and a scenario run twice
 * with one seed would differ.  So inside the interrupt context the shim
 * enters (shim_defer_begin(): irq_enter(), a timer's or a bottom half's
 * run) a wake-up is decided at once, the task marked runnable and counted
 * in, but held: its shim_wake_held keeps it in schedule(), whoever else
 * kicks it, until shim_defer_end() of the outermost context lets it go.
 *
 * In virtual time only: what a scenario sets for runs that repeat to the
 * bit (time.c), with the clock moved between steps by a task that waits
 * for the others to sleep.  In real time the shim plays an SMP machine,
 * where the woken task may run at once on another CPU, and a handler may
 * wait for it to (a timer spinning until a task it woke lets it go).
 */
#define DEFER_MAX 64

static __thread int defer_depth;
static __thread int defer_nr;
static __thread struct task_struct *deferred[DEFER_MAX];

int shim_deferring(void)
{
	/*
	 * Not under controlled scheduling: there the controller already
	 * decides what runs at each point, a woken task beside the rest of
	 * a handler being one of the interleavings it explores; and its
	 * fibers share one host thread, whose thread-locals these are.
	 */
	return defer_depth && shim_clock_is_virtual() && !shim_controlled;
}

void shim_defer_begin(void)
{
	defer_depth++;
}

/* @p held by one wake-up fewer: its schedule() looks again */
static void wake_unhold(struct task_struct *p)
{
	__atomic_sub_fetch(&p->shim_wake_held, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&p->shim_wake_seq, 1, __ATOMIC_SEQ_CST);
	shim_host_wake(&p->shim_wake_seq, 1);
}

/* @p, marked and held, let go: kicked as an unheld wake-up is */
static void wake_release(struct task_struct *p)
{
	__atomic_sub_fetch(&p->shim_wake_held, 1, __ATOMIC_SEQ_CST);
	shim_wake_kick(p);
}

/* shim_wake_mark() in interrupt context: 1 if @p was marked, and held */
static int wake_mark_held(struct task_struct *p, long mode)
{
	/* held before it can be seen runnable */
	__atomic_add_fetch(&p->shim_wake_held, 1, __ATOMIC_SEQ_CST);
	if (!shim_wake_mark(p, mode)) {
		wake_unhold(p);
		return 0;
	}
	if (defer_nr < DEFER_MAX) {
		deferred[defer_nr++] = p;
		return 1;
	}
	/* too many at once: this one goes now */
	wake_release(p);
	return 1;
}

void shim_defer_end(void)
{
	int i, n;

	if (--defer_depth)
		return;
	n = defer_nr;
	defer_nr = 0;
	for (i = 0; i < n; i++)
		wake_release(deferred[i]);
	shim_softirq_undefer();
	if (n)
		shim_point(SHIM_POINT_WAKE);
}

int shim_try_to_wake_up(struct task_struct *p, long mode)
{
	if (shim_deferring())
		return wake_mark_held(p, mode);
	if (!shim_wake_mark(p, mode))
		return 0;
	shim_wake_kick(p);
	shim_point(SHIM_POINT_WAKE);
	return 1;
}

/* Mark @p for waking; kicked now if the queue is full, else by shim_wake_up_q(). */
int shim_wake_q_add(struct shim_wake_q *q, struct task_struct *p, long mode)
{
	if (shim_deferring())
		return wake_mark_held(p, mode);
	if (!shim_wake_mark(p, mode))
		return 0;
	if (q->nr < WAKE_Q_MAX)
		q->tasks[q->nr++] = p;
	else
		shim_wake_kick(p);
	return 1;
}

void shim_wake_up_q(struct shim_wake_q *q)
{
	int i;

	for (i = 0; i < q->nr; i++)
		shim_wake_kick(q->tasks[i]);
	if (q->nr)
		shim_point(SHIM_POINT_WAKE);
	q->nr = 0;
}

int wake_up_process(struct task_struct *p)
{
	return shim_try_to_wake_up(
		p, TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE | TASK_STOPPED);
}

static void process_timeout(unsigned long data)
{
	wake_up_process((struct task_struct *) data);
}

signed long schedule_timeout(signed long timeout)
{
	struct timer_list timer;
	unsigned long expire;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		printk(KERN_ERR
		       "schedule_timeout: wrong timeout value %lx in %s/%d\n",
		       (unsigned long) timeout, current->comm, current->pid);
		set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + timeout;
	init_timer(&timer);
	timer.expires = expire;
	timer.data = (unsigned long) current;
	timer.function = process_timeout;
	add_timer(&timer);
	/* a timed sleep is a poll: in a controlled run it gives way */
	if (unlikely(shim_controlled))
		shim_ctl_timed_sleep(1);
	schedule();
	if (unlikely(shim_controlled))
		shim_ctl_timed_sleep(0);
	del_timer_sync(&timer);

	timeout = expire - jiffies;
	return timeout < 0 ? 0 : timeout;
}

/* sys_sched_yield() is schedule(): never from atomic context */
void yield(void)
{
	might_sleep();
	if (unlikely(shim_irqlock_held_by(current)))
		shim_irqlock_schedule(current);
	set_current_state(TASK_RUNNING);
	shim_yield();
}

void shim_task_run_on(struct task_struct *p, int cpu)
{
	if (cpu_online(cpu) && (p->cpus_allowed & (1UL << cpu)))
		shim_thread_set_cpus(p->shim_thread, 1UL << cpu);
}

int set_cpus_allowed(struct task_struct *p, unsigned long new_mask)
{
	int err;

	new_mask &= cpu_online_map;
	if (!new_mask)
		return -EINVAL;
	err = shim_thread_set_cpus(p->shim_thread, new_mask);
	if (!err)
		p->cpus_allowed = new_mask;
	return err;
}
