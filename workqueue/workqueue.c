/*
 * workqueue.c - the new deferred-work stack: work queues.
 *
 * A workqueue has one worker thread per online CPU ("<name>/<cpu>"), each
 * with its own lock, list and wait queues (struct cpu_workqueue_struct):
 * no lock is shared between queues, or between the CPUs of one queue.
 *
 * Whose semantics: the sandbox must face converted code with what it met
 * in Linux 2.5.41, so that is the default.  What later kernels added is
 * kept where DESIGN.md asks for a guarantee, or as an option:
 *
 * As 2.5.41:
 * - one worker per online CPU and queue, bound to that CPU;
 * - a work goes to the worker of the CPU it is queued from; a delayed
 *   work to that of the CPU queue_delayed_work() ran on, wherever its
 *   timer fires;
 * - the pending bit is cleared just before the routine runs, so a running
 *   work may be queued again, and queued from another CPU it runs there
 *   at the same time as itself.  Code converted off keventd, one thread
 *   running one task at a time, meets this and the overlap of different
 *   routines on different CPUs.
 *
 * Later, an option:
 * - non-reentrancy (2.6.36): a queue made with alloc_workqueue(name,
 *   WQ_NON_REENTRANT, 0), or every queue, events included, when the
 *   program runs with SHIM_WQ_NONREENTRANT=1, queues a work still running
 *   on another of its workers behind itself there, so it never runs
 *   concurrently with itself.  Off by default, or the comparison would
 *   hide the hazard; on, it shows what a later kernel would change.
 *
 * Later, always (each a guarantee of DESIGN.md):
 * - flush_workqueue() waits for the works queued before it, counted by
 *   insert and remove sequence numbers (April 2003).  2.5.41's flush ran
 *   the pending works itself, in the flushing task, then slept once until
 *   a count of queued works, delayed ones included from the moment they
 *   were queued, came down to zero: work queued meanwhile could starve
 *   it.  A flush that can livelock hangs a comparison rather than
 *   reporting anything, so it is kept; the sandbox thus never runs a work
 *   in a flushing task, and a flush does not wait for delayed work still
 *   on its timer.
 * - destroy_workqueue() drains what the queue's own works queue while it
 *   drains and cancels waiting delayed work with a warning; 2.5.41
 *   flushed once and stopped the workers.  Kept: destroy loses nothing.
 * - cancel_delayed_work() (April 2003; clearing the pending bit of a work
 *   whose timer it stopped, May 2004), which no 2.5.41 driver calls.
 * - create_workqueue() returns NULL for a name longer than 10 characters,
 *   as the seed did (2.5.41 BUG()ed); the debug checks are the sandbox's.
 *
 * Rules, each relied on below:
 * - A work's pending bit is set by whoever queues it and cleared by the
 *   worker just before its routine runs; only the setter may insert it, so
 *   a pending work is on one list once, and every accepted queueing runs
 *   exactly once.
 * - A work goes to the worker of the CPU it is queued from; on a
 *   non-reentrant queue, if it is still running on another worker of the
 *   queue, it goes behind itself there instead (running_target).
 *   work->wq_data names the cpu queue it was last queued on, where that
 *   queueing runs.
 * - Each cpu queue counts works inserted and works finished.  A flush
 *   takes what is queued (counting it), and if the worker is running a
 *   batch it took uncounted, has the worker add that batch's count to its
 *   target when the batch ends; it then waits until the finished count
 *   reaches the target: works queued later, even by works that requeue
 *   themselves forever, do not move that target, so a flush cannot be
 *   starved (the seed's loop on list_empty() could be).
 * - Delayed work waits on its cpu queue's delayed list while its timer
 *   runs; flush does not wait for it (as from April 2003); destroy
 *   cancels it with a warning naming it.
 * - Pending works are registered in the debug-object registry (outside
 *   the work), so INIT_WORK and kfree() can tell a pending work by its
 *   address alone.
 * - The hot paths are a host queue's: queue_work() appends to a lock-free
 *   queue (one exchange, as liburcu's wfcqueue) and wakes the worker only
 *   if it said it sleeps; the worker takes everything queued at once under
 *   cwq->lock, oldest first with no pass over it, and runs it without the
 *   lock, counting it as it goes.  The points where 2.5.41 took and let go of
 *   cwq->lock around an insertion and around each routine stay scheduling
 *   points of a controlled run (SHIM_SCHED).
 *
 * Locking: cwq->lock guards the taken works, insert_sequence, whether the
 * running batch is counted, the flushers' records, the delayed list, the
 * stop flag and the list of flushers waiting on work_done (its own lock
 * nests inside).  tail, the stub's link and worker_sleeping are atomic, and
 * each side of the wake-up stores before it reads the other's
 * (worker_needs_wake).  The worker alone writes remove_sequence and (on
 * a queue with flags, the only one running_target() asks about)
 * current_work, without the lock, at each work; flushers count themselves
 * in flushers before they read remove_sequence (wake_flushers).
 */
/* the bare queueing calls: this stack's own queueing is no driver's site */
#define SHIM_STACK_INTERNAL
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/slab.h>
#include <linux/debugobjects.h>
#include <linux/smp_lock.h>
#include <linux/workqueue.h>
#include <asm/processor.h>
#include <trace/events/workqueue.h>
#include <shim/fault.h>

#define WQ_NAME_LEN 10

struct cpu_workqueue_struct {
	/*
	 * What queueing touches: works queued and not yet taken, oldest
	 * first from stub.next to tail, linked through entry.next (atomic,
	 * no lock; tail is &stub when none is), and whether the worker
	 * sleeps (atomic).
	 */
	struct list_head *tail;
	struct list_head stub; /* .next only */
	int worker_sleeping;
	struct workqueue_struct *wq;
	char name[16]; /* "<name>/<cpu>", the worker's comm */
	/* a delayed work's owner in a report until its timer fires */
	char timer_name[40];

	/*
	 * The worker's and the flushers', under lock: the works flushers took
	 * off the queue (counted) and not yet run, oldest first, linked
	 * through entry.next.
	 */
	spinlock_t lock ____cacheline_aligned;
	long insert_sequence; /* works counted in so far */
	struct list_head *taken, *taken_last;
	int uncounted; /* the worker runs a batch not counted in */
	struct list_head flush_records; /* struct flush_record */
	struct list_head delayed; /* works whose timer has not fired yet */
	int should_stop;
	int flushers;		     /* tasks waiting on work_done (atomic) */
	wait_queue_head_t work_done; /* flushers; changed under lock only */

	/*
	 * Written by the worker at every work without the lock: a line of
	 * their own, so that queueing does not fetch it back each time.
	 */
	long remove_sequence ____cacheline_aligned; /* routines returned */
	struct work_struct *current_work;

	struct task_struct *thread ____cacheline_aligned;
	int cpu;
	struct completion startup;
	struct completion exit;
} ____cacheline_aligned;

/* destroy_workqueue() has begun: a flag of the queue's own, besides WQ_* */
#define WQ_DYING (1U << 31)

struct workqueue_struct {
	/*
	 * WQ_NON_REENTRANT, WQ_DYING: first, beside the first CPUs' queues,
	 * so that queueing reads one line of the queue, and tests one word
	 * for both
	 */
	unsigned int flags;
	struct cpu_workqueue_struct *cpu_wq[NR_CPUS];
	char name[WQ_NAME_LEN + 1];
};

/* a pending work is named by its routine in reports */
static void *work_debug_hint(const void *addr)
{
	return (void *) ((const struct work_struct *) addr)->func;
}

static struct debug_obj_descr work_debug_descr = {
	.name = "work_struct",
	.debug_hint = work_debug_hint,
};
static struct debug_obj_descr wq_debug_descr = { .name = "workqueue_struct" };

static struct workqueue_struct *keventd_wq;

/* WQ_NON_REENTRANT for every queue, with SHIM_WQ_NONREENTRANT=1 */
static unsigned int wq_boot_flags;

/* the debug checks, unless SHIM_DEBUG=0: read once, tested at every work */
static int wq_debug;
static int wq_spread; /* SHIM_WQ_SPREAD=1: see queueing_cpu() */

/*
 * Does anything watch the hot paths besides the work itself: the debug
 * checks, a trace probe, a controlled run's scheduling points?  Read once
 * per queueing and once per batch of works: one word (shim_hooks), one
 * branch.  The hot paths are compiled twice, watched and not (@watched, a
 * constant), so that with all of them off (SHIM_DEBUG=0, no probe, a free
 * run) none of their tests is on the way: each would find nothing to do.
 */
static __always_inline int work_watched(void)
{
	return shim_hooks_on();
}

/* Is the caller one of @wq's workers? */
static int current_is_worker(struct workqueue_struct *wq)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (wq->cpu_wq[cpu]->thread == current)
			return 1;
	return 0;
}

/* The checks of check_queueable(), each a BUG naming what is wrong. */
static noinline void check_queueing(struct workqueue_struct *wq,
				    struct work_struct *work, const char *func)
{
	if (unlikely(!wq)) {
		printk(KERN_EMERG "BUG: %s(NULL, %p): no workqueue\n", func,
		       (void *) work);
		BUG();
	}
	if (wq_debug && unlikely(!debug_object_active(wq))) {
		printk(KERN_EMERG
		       "BUG: %s: workqueue %p is not live (destroyed?); "
		       "work %p (routine %p) not queued\n",
		       func, (void *) wq, (void *) work, (void *) work->func);
		BUG();
	}
	/* while it drains, a dying queue takes work only from its own works */
	if (unlikely(wq->flags & WQ_DYING) && !current_is_worker(wq)) {
		printk(KERN_EMERG "BUG: %s: workqueue %s is being destroyed; "
				  "work %p (routine %p) not queued\n",
		       func, wq->name, (void *) work, (void *) work->func);
		BUG();
	}
	if (unlikely(!work->func)) {
		printk(KERN_EMERG "BUG: %s(%s): work %p has no routine\n", func,
		       wq->name, (void *) work);
		BUG();
	}
}

/*
 * One test on the way of a queueing that is fine, unwatched: queue_work()
 * has taken a NULL queue and one with flags (dying) to the watched path.
 */
static __always_inline void check_queueable(struct workqueue_struct *wq,
					    struct work_struct *work,
					    const char *func, int watched)
{
	if (!watched) {
		if (unlikely(!work->func))
			check_queueing(wq, work, func);
		return;
	}
	if (unlikely(!wq || (wq->flags & WQ_DYING) || !work->func) || wq_debug)
		check_queueing(wq, work, func);
}

static int is_cpu_queue_of(struct workqueue_struct *wq,
			   struct cpu_workqueue_struct *cwq)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (wq->cpu_wq[cpu] == cwq)
			return 1;
	return 0;
}

/* On a non-reentrant queue: the cpu queue @work still runs on, or @cwq. */
static noinline struct cpu_workqueue_struct *
running_target(struct workqueue_struct *wq, struct work_struct *work,
	       struct cpu_workqueue_struct *cwq)
{
	struct cpu_workqueue_struct *last;

	last = __atomic_load_n((struct cpu_workqueue_struct **) &work->wq_data,
			       __ATOMIC_RELAXED);
	/*
	 * last may belong to a queue destroyed since: never follow it
	 * blindly.  Its worker set current_work before it cleared pending,
	 * which we saw set: if it is not this work, this work has returned.
	 */
	if (last && last != cwq && is_cpu_queue_of(wq, last) &&
	    __atomic_load_n(&last->current_work, __ATOMIC_RELAXED) == work)
		return last;
	return cwq;
}

/*
 * The CPU a work goes to: the queuer's, as in 2.5.41; under
 * SHIM_WQ_SPREAD=1, the one shim_spread_cpu() takes a queuer free to move
 * to be on, so that two works one task queues run on two workers.
 */
static inline int queueing_cpu(void)
{
	if (likely(!wq_spread))
		return smp_processor_id();
	return shim_spread_cpu();
}

/*
 * Pick the cpu queue for a work whose pending bit the caller has just set:
 * the caller's CPU's, as in 2.5.41, whatever the work is doing; on a
 * non-reentrant queue, the one it still runs on, if it does.
 */
static __always_inline struct cpu_workqueue_struct *
pick_target(struct workqueue_struct *wq, struct work_struct *work, int watched)
{
	struct cpu_workqueue_struct *cwq = wq->cpu_wq[queueing_cpu()];

	/* unwatched, the queue has no flags (queue_work()) */
	if (watched && unlikely(wq->flags & WQ_NON_REENTRANT))
		return running_target(wq, work, cwq);
	return cwq;
}

/*
 * After adding work: 1 if the worker sleeps, or is about to, and the
 * caller must wake it; only one caller is told so.  The work was pushed
 * (the exchange of tail) before worker_sleeping is read, and the worker
 * stores worker_sleeping before it reads tail a last time (worker_thread):
 * one of the two sees the other, so no wake-up is lost.
 */
static int worker_needs_wake(struct cpu_workqueue_struct *cwq)
{
	return __atomic_load_n(&cwq->worker_sleeping, __ATOMIC_SEQ_CST) &&
	       __atomic_exchange_n(&cwq->worker_sleeping, 0, __ATOMIC_SEQ_CST);
}

/*
 * Put a claimed work at the end of its worker's queue: the work becomes the
 * tail (one exchange), then is linked from the work that was the tail, as
 * liburcu's wfcqueue does; the worker takes the whole queue at once, oldest
 * first.  Between the two steps the queue has a link missing, which the
 * taker waits for (next_link()): in a controlled run no task switch comes
 * between them, and in the kernel the caller could not be preempted there.
 * 2.5.41 took cwq->lock around the insertion: a controlled run
 * (SHIM_SCHED) may still switch tasks at both ends.
 */
static __always_inline void push_work(struct cpu_workqueue_struct *cwq,
				      struct work_struct *work, int watched)
{
	struct list_head *prev;

	__atomic_store_n((struct cpu_workqueue_struct **) &work->wq_data, cwq,
			 __ATOMIC_RELAXED);
	if (watched) {
		/* before the push: once pushed, it may run and be freed */
		trace_workqueue_queue_work(cwq->name, work, work->func);
		shim_point(SHIM_POINT_LOCK);
	}
	__atomic_store_n(&work->entry.next, NULL, __ATOMIC_RELAXED);
	prev = __atomic_exchange_n(&cwq->tail, &work->entry, __ATOMIC_SEQ_CST);
	__atomic_store_n(&prev->next, &work->entry, __ATOMIC_RELEASE);
	if (watched)
		shim_point(SHIM_POINT_UNLOCK);
}

static inline int queue_empty(struct cpu_workqueue_struct *cwq)
{
	return __atomic_load_n(&cwq->tail, __ATOMIC_SEQ_CST) == &cwq->stub;
}

/*
 * The link out of @node, which is not the last of its chain: its successor
 * may have become the tail and not yet be linked (push_work()); wait for
 * it, giving the host CPU up if the pusher was preempted.  Never for long:
 * the pusher has nothing left to do but the store.
 */
static noinline struct list_head *wait_link(struct list_head *node)
{
	struct list_head *next;
	int tries = 0;

	while (!(next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE))) {
		if (++tries < 64)
			__cpu_relax();
		else
			shim_yield();
	}
	return next;
}

static __always_inline struct list_head *next_link(struct list_head *node)
{
	struct list_head *next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);

	return likely(next) ? next : wait_link(node);
}

/*
 * Called with cwq->lock held: take every work queued, oldest first: the
 * first, or NULL if none; *last is set to the last.  Nothing is walked.
 */
static struct list_head *take_queued(struct cpu_workqueue_struct *cwq,
				     struct list_head **last)
{
	struct list_head *first;

	if (__atomic_load_n(&cwq->tail, __ATOMIC_ACQUIRE) == &cwq->stub)
		return NULL;
	first = next_link(&cwq->stub);
	/* before the exchange: whoever pushes after it links from the stub */
	__atomic_store_n(&cwq->stub.next, NULL, __ATOMIC_RELAXED);
	*last = __atomic_exchange_n(&cwq->tail, &cwq->stub, __ATOMIC_ACQ_REL);
	return first;
}

/*
 * Called with cwq->lock held: move the works queued so far to the end of
 * cwq->taken, oldest first, and count them inserted.  A flusher's: it
 * walks them, which the worker's take does not.
 */
static void take_and_count(struct cpu_workqueue_struct *cwq)
{
	struct list_head *first, *last, *node;
	long n = 1;

	first = take_queued(cwq, &last);
	if (!first)
		return;
	for (node = first; node != last; node = next_link(node))
		n++;
	cwq->insert_sequence += n;
	if (cwq->taken)
		cwq->taken_last->next = first;
	else
		cwq->taken = first;
	cwq->taken_last = last;
}

static noinline void bad_entry(struct cpu_workqueue_struct *cwq,
			       struct work_struct *work)
{
	printk(KERN_EMERG
	       "BUG: queue_work(%s): work %p (routine %p) is on "
	       "a list but not pending: not set up with INIT_WORK or "
	       "DECLARE_WORK?\n",
	       cwq->wq->name, (void *) work, (void *) work->func);
	BUG();
}

/*
 * Claim @work for @wq: NULL if it was already pending, else the target
 * CPU's queue, with the work registered as pending there.
 */
static __always_inline struct cpu_workqueue_struct *
claim_work(struct workqueue_struct *wq, struct work_struct *work,
	   const char *caller, int watched)
{
	struct cpu_workqueue_struct *cwq;

	check_queueable(wq, work, caller, watched);
	if (watched) {
		trace_workqueue_queue_call(wq->name, work, work->func);
		if (test_and_set_bit(0, &work->pending))
			return NULL;
	} else if (__atomic_fetch_or(&work->pending, 1, __ATOMIC_SEQ_CST) & 1) {
		/* test_and_set_bit() less its scheduling point: not a
		 * controlled run */
		return NULL;
	}
	cwq = pick_target(wq, work, watched);
	if (unlikely(!list_empty(&work->entry)))
		bad_entry(cwq, work);
	if (watched && wq_debug)
		debug_object_activate(work, &work_debug_descr, cwq->name);
	return cwq;
}

/* queue_work(), watched or not (work_watched()). */
static __always_inline int __queue_work(struct workqueue_struct *wq,
					struct work_struct *work, int watched)
{
	struct cpu_workqueue_struct *cwq;

	cwq = claim_work(wq, work, "queue_work", watched);
	if (!cwq)
		return 0;
	push_work(cwq, work, watched);
	if (worker_needs_wake(cwq))
		wake_up_process(cwq->thread);
	return 1;
}

/*
 * Out of line, so that queue_work() on its plain path saves only the
 * registers its own few instructions need.  The whole path: watched, and
 * for a queue with flags (non-reentrant, dying) or none at all.
 */
static noinline int queue_work_watched(struct workqueue_struct *wq,
				       struct work_struct *work)
{
	return __queue_work(wq, work, 1);
}

/**
 * queue_work - queue work on a workqueue
 * @wq: the workqueue
 * @work: the work; its routine runs once, in process context, on one of
 *        @wq's workers, where it may sleep
 *
 * Any context.  Returns 1 if the work was queued, 0 if it was already
 * pending (it then still runs once).
 */
int queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	int ret;

	/* one test for all that leaves the plain path */
	if (unlikely(work_watched() || !wq || wq->flags)) {
		ret = queue_work_watched(wq, work);
		/*
		 * Not a tail call: queue_work's own frame stays on the stack
		 * under the watched path, for whoever reads the caller from it
		 */
		barrier();
		return ret;
	}
	return __queue_work(wq, work, 0);
}

/*
 * What a report calls the owner of a pending delayed work: its timer
 * until it fires, then the worker's queue (a free of it then says which).
 */
static void delayed_owner(struct work_struct *work, const char *owner)
{
	if (wq_debug && debug_object_active(work)) {
		debug_object_deactivate(work, &work_debug_descr);
		debug_object_activate(work, &work_debug_descr, owner);
	}
}

static void delayed_work_timer_fn(unsigned long __data)
{
	struct work_struct *work = (struct work_struct *) __data;
	struct cpu_workqueue_struct *cwq = work->wq_data;
	struct task_struct *worker;
	unsigned long flags;
	int wake;

	/* pushed under the lock: destroy never sees it on no list at all */
	spin_lock_irqsave(&cwq->lock, flags);
	list_del_init(&work->entry);
	delayed_owner(work, cwq->name);
	push_work(cwq, work, 1);
	wake = worker_needs_wake(cwq);
	worker = cwq->thread;
	spin_unlock_irqrestore(&cwq->lock, flags);
	/* a sleeping worker cannot exit before it is woken: worker is there */
	if (wake)
		wake_up_process(worker);
}

/**
 * queue_delayed_work - queue work on a workqueue after a delay
 * @wq: the workqueue
 * @work: the work
 * @delay: jiffies to wait at least before the work is queued
 *
 * Any context.  Returns 1 if queued, 0 if the work was already pending.
 * Until its timer fires the work is not covered by flush_workqueue().
 */
int queue_delayed_work(struct workqueue_struct *wq, struct work_struct *work,
		       unsigned long delay)
{
	struct cpu_workqueue_struct *cwq;
	struct timer_list *timer = &work->timer;
	unsigned long flags;

	if (!delay)
		return queue_work(wq, work);
	cwq = claim_work(wq, work, __func__, 1);
	if (!cwq)
		return 0;
	spin_lock_irqsave(&cwq->lock, flags);
	__atomic_store_n((struct cpu_workqueue_struct **) &work->wq_data, cwq,
			 __ATOMIC_RELAXED);
	list_add_tail(&work->entry, &cwq->delayed);
	delayed_owner(work, cwq->timer_name);
	init_timer(timer);
	timer->expires = jiffies + delay;
	timer->data = (unsigned long) work;
	timer->function = delayed_work_timer_fn;
	add_timer(timer);
	spin_unlock_irqrestore(&cwq->lock, flags);
	return 1;
}

/* Take a delayed work whose timer was stopped off its delayed list. */
static void forget_delayed_work(struct work_struct *work)
{
	struct cpu_workqueue_struct *cwq = work->wq_data;
	unsigned long flags;

	spin_lock_irqsave(&cwq->lock, flags);
	list_del_init(&work->entry);
	debug_object_deactivate(work, &work_debug_descr);
	clear_bit(0, &work->pending);
	spin_unlock_irqrestore(&cwq->lock, flags);
}

/**
 * cancel_delayed_work - stop a delayed work whose timer has not fired
 * @work: the work
 *
 * Returns 1 if the timer was stopped (the work will not run and is no
 * longer pending), 0 if it had already fired or was never armed: the work
 * may then be queued or running, and flush_workqueue() waits for it.
 */
int cancel_delayed_work(struct work_struct *work)
{
	int ret = del_timer_sync(&work->timer);

	if (ret)
		forget_delayed_work(work);
	return ret;
}

static noinline void routine_leaked(struct task_struct *worker,
				    void (*f)(void *))
{
	if (preempt_count()) {
		printk(KERN_EMERG "BUG: workqueue leaked lock or atomic: "
				  "%s/%d/0x%08lx, last function %p\n",
		       worker->comm, worker->pid, preempt_count(), (void *) f);
		BUG();
	}
	printk(KERN_EMERG "BUG: workqueue leaked the big kernel "
			  "lock: %s/%d, lock_depth %d, last function %p\n",
	       worker->comm, worker->pid, worker->lock_depth, (void *) f);
	BUG();
}

/*
 * A routine must not return holding a lock, atomic, or the BKL (which is
 * not in the preempt count: its holder may sleep; kernel_locked()).
 */
static __always_inline void check_routine_leaks(struct task_struct *worker,
						void (*f)(void *))
{
	/* lock_depth is -1 when the lock is not held: one test for both */
	if (unlikely(preempt_count() |
		     (unsigned long) (worker->lock_depth + 1)))
		routine_leaked(worker, f);
}

/*
 * Wake the flushers of @cwq, if any waits, once the count of routines
 * returned is stored and a full barrier has passed since.  A flusher
 * counts itself in before it reads that count (flush_cpu_workqueue): one
 * of the two sees the other, so no wake-up is lost.
 */
static inline void wake_flushers(struct cpu_workqueue_struct *cwq)
{
	if (unlikely(__atomic_load_n(&cwq->flushers, __ATOMIC_SEQ_CST)))
		wake_up_all(&cwq->work_done);
}

/*
 * Run @batch, the works taken at once, oldest first, up to @last, without
 * cwq->lock; how many ran.  Each stays pending, and registered as such, until just
 * before its routine runs.  Each routine returned is counted at once, and
 * its flushers are woken after the next work's pending bit is cleared (a
 * full barrier) or at the end: before any later routine runs, so a flush
 * never waits for a work queued after it.  2.5.41 let go of cwq->lock
 * before each routine and took it again after: a controlled run
 * (SHIM_SCHED) may still switch tasks at both places.  @watched: the
 * whole path, as for __queue_work(), watched or on a queue with flags.
 */
static __always_inline long run_workqueue(struct cpu_workqueue_struct *cwq,
					  struct list_head *batch,
					  struct list_head *last, int watched)
{
	long done = __atomic_load_n(&cwq->remove_sequence, __ATOMIC_RELAXED);
	struct task_struct *worker = current;
	long ran = 0;

	while (batch) {
		struct work_struct *work =
			list_entry(batch, struct work_struct, entry);
		void (*f)(void *) = work->func;
		void *data = work->data;

		/* before pending is cleared: requeued, it is linked anew */
		batch = batch == last ? NULL : next_link(batch);
		/*
		 * off every list before it may be queued again: list_empty()
		 * reads next only, and the chains of queued and taken works
		 * never use prev (the delayed list sets it when it adds)
		 */
		work->entry.next = &work->entry;
		/*
		 * before pending is cleared: see running_target(), which only
		 * a queue with flags (the watched run) asks
		 */
		if (watched)
			__atomic_store_n(&cwq->current_work, work,
					 __ATOMIC_RELAXED);
		if (watched && wq_debug)
			debug_object_deactivate(work, &work_debug_descr);
		clear_bit(0, &work->pending);
		/* the barrier after the count the last routine stored */
		smp_mb__after_clear_bit();
		wake_flushers(cwq);

		/* from here on the routine may free the work */
		if (watched) {
			shim_point(SHIM_POINT_UNLOCK);
			trace_workqueue_execute_start(cwq->name, work, f);
			if (wq_debug)
				debug_check_routine_memory(work, data, f,
							   cwq->name);
		}
		f(data);
		ran++;
		if (watched) {
			trace_workqueue_execute_end(cwq->name, work, f);
			shim_point(SHIM_POINT_LOCK);
		}
		check_routine_leaks(worker, f);
		if (watched)
			__atomic_store_n(&cwq->current_work, NULL,
					 __ATOMIC_RELAXED);
		__atomic_store_n(&cwq->remove_sequence, ++done,
				 __ATOMIC_RELEASE);
	}
	smp_mb();
	wake_flushers(cwq);
	return ran;
}

/*
 * What a flusher waits for: the routines of the first @target works
 * inserted, and, while @batch is set, the count of the batch the worker
 * was running uncounted when the flush began, which the worker adds when
 * that batch ends (count_batch()).  On cwq->flush_records, under the lock.
 */
struct flush_record {
	struct list_head list;
	long target;
	int batch;
};

/*
 * Called with cwq->lock held, when the batch the worker took uncounted has
 * run: count its @n works in, and in the target of every flush that began
 * while it ran.
 */
static void count_batch(struct cpu_workqueue_struct *cwq, long n)
{
	struct flush_record *rec;
	int woke = 0;

	cwq->insert_sequence += n;
	cwq->uncounted = 0;
	if (likely(list_empty(&cwq->flush_records)))
		return;
	list_for_each_entry(rec, &cwq->flush_records, list) {
		if (!rec->batch)
			continue;
		rec->target += n;
		rec->batch = 0;
		woke = 1;
	}
	if (woke)
		wake_up_all(&cwq->work_done);
}

static int worker_thread(void *__cwq)
{
	struct cpu_workqueue_struct *cwq = __cwq;
	unsigned long flags;
	long ran = 0; /* works run since the worker last found none */

	strcpy(current->comm, cwq->name);
	daemonize();
	current->flags |= PF_IOTHREAD;
	set_cpus_allowed(current, 1UL << cwq->cpu);
	cwq->thread = current;
	complete(&cwq->startup);

	spin_lock_irqsave(&cwq->lock, flags);
	for (;;) {
		struct list_head *batch, *last;
		long n;

		/*
		 * What flushers took (counted) is older than what is still
		 * queued: run it first.  Else take all that is queued, which
		 * producers meanwhile start again from empty, uncounted.
		 */
		batch = cwq->taken;
		last = cwq->taken_last;
		cwq->taken = NULL;
		cwq->uncounted = !batch;
		if (!batch)
			batch = take_queued(cwq, &last);
		if (batch) {
			spin_unlock_irqrestore(&cwq->lock, flags);
			/* as queue_work(): a queue with flags takes it all */
			if (unlikely(work_watched() || cwq->wq->flags))
				n = run_workqueue(cwq, batch, last, 1);
			else
				n = run_workqueue(cwq, batch, last, 0);
			spin_lock_irqsave(&cwq->lock, flags);
			if (cwq->uncounted)
				count_batch(cwq, n);
			ran += n;
			continue;
		}
		cwq->uncounted = 0;
		if (cwq->should_stop)
			break;
		/*
		 * The worker shares its CPU with whoever queues from there:
		 * after a burst (more than one work since it last found none,
		 * as 2.5.41's loop counted), give the CPU up once before
		 * sleeping, so that the producer refills the list instead of
		 * waking us up for every work (each wake-up is a round trip
		 * through the host kernel).  Not after a lone work: a thread
		 * that yields and then sleeps is woken later than one that just
		 * sleeps, which a lone work would pay every time (make bench's
		 * wake latency shows by how much).
		 */
		if (ran > 1) {
			spin_unlock_irqrestore(&cwq->lock, flags);
			yield();
			spin_lock_irqsave(&cwq->lock, flags);
			ran = 0;
			continue;
		}
		ran = 0;
		/*
		 * Marked sleeping, then a last look at the queue: a queuer that
		 * pushes later sees the mark and wakes us (worker_needs_wake).
		 */
		set_current_state(TASK_INTERRUPTIBLE);
		__atomic_store_n(&cwq->worker_sleeping, 1, __ATOMIC_SEQ_CST);
		if (queue_empty(cwq)) {
			spin_unlock_irqrestore(&cwq->lock, flags);
			schedule();
			spin_lock_irqsave(&cwq->lock, flags);
		}
		__set_current_state(TASK_RUNNING);
		__atomic_store_n(&cwq->worker_sleeping, 0, __ATOMIC_RELAXED);
	}
	spin_unlock_irqrestore(&cwq->lock, flags);
	/* the last thing the worker touches: destroy frees cwq after this */
	complete_and_exit(&cwq->exit, 0);
}

/* Have the routines of the first @sequence works inserted returned? */
static int works_done(struct cpu_workqueue_struct *cwq, long sequence)
{
	return sequence - __atomic_load_n(&cwq->remove_sequence,
					  __ATOMIC_SEQ_CST) <=
	       0;
}

/* Wait until the works queued on @cwq so far have run. */
static void flush_cpu_workqueue(struct cpu_workqueue_struct *cwq)
{
	DECLARE_WAITQUEUE(wait, current);
	struct flush_record rec;
	unsigned long flags;

	spin_lock_irqsave(&cwq->lock, flags);
	/* what was queued before this call is counted in from here */
	take_and_count(cwq);
	rec.target = cwq->insert_sequence;
	/* older still: the batch the worker runs, if it is not counted yet */
	rec.batch = cwq->uncounted;
	if (rec.batch || !works_done(cwq, rec.target)) {
		list_add(&rec.list, &cwq->flush_records);
		add_wait_queue(&cwq->work_done, &wait);
		/* counted in before the count is read: see wake_flushers() */
		__atomic_add_fetch(&cwq->flushers, 1, __ATOMIC_SEQ_CST);
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (!rec.batch && works_done(cwq, rec.target))
				break;
			spin_unlock_irqrestore(&cwq->lock, flags);
			schedule();
			spin_lock_irqsave(&cwq->lock, flags);
		}
		__set_current_state(TASK_RUNNING);
		__atomic_sub_fetch(&cwq->flushers, 1, __ATOMIC_SEQ_CST);
		remove_wait_queue(&cwq->work_done, &wait);
		list_del(&rec.list);
	}
	spin_unlock_irqrestore(&cwq->lock, flags);
}

/**
 * flush_workqueue - wait until the work queued so far has run
 * @wq: the workqueue
 *
 * Returns once every work queued on @wq before the call has run, however
 * fast more work is queued meanwhile.  Delayed work whose timer has not
 * fired is not waited for.  Process context; from one of @wq's own workers
 * it would wait for itself: that is reported and it returns at once.
 */
static void __flush_workqueue(struct workqueue_struct *wq, unsigned long ip)
{
	int cpu;

	might_sleep();
	/* a destroyed queue's memory is gone: say so before reading it */
	if (unlikely(!wq) ||
	    (debug_objects_enabled() && unlikely(!debug_object_active(wq)))) {
		printk(KERN_EMERG "BUG: flush_workqueue(%p): not a live "
				  "workqueue (destroyed?), by %s/%d\n",
		       (void *) wq, current->comm, current->pid);
		BUG();
	}
	if (current_is_worker(wq)) {
		printk(KERN_WARNING
		       "WARNING: flush_workqueue(%s) called from its "
		       "own worker %s/%d: it would wait forever; returning\n",
		       wq->name, current->comm, current->pid);
		return;
	}
	trace_workqueue_flush_start(wq->name, ip);
	for_each_online_cpu(cpu)
		flush_cpu_workqueue(wq->cpu_wq[cpu]);
	trace_workqueue_flush_end(wq->name, ip);
}

void flush_workqueue(struct workqueue_struct *wq)
{
	__flush_workqueue(wq, _RET_IP_);
}

static void stop_worker(struct cpu_workqueue_struct *cwq)
{
	unsigned long flags;
	int wake;

	spin_lock_irqsave(&cwq->lock, flags);
	cwq->should_stop = 1;
	wake = worker_needs_wake(cwq);
	spin_unlock_irqrestore(&cwq->lock, flags);
	if (wake)
		wake_up_process(cwq->thread);
	wait_for_completion(&cwq->exit);
}

/* Stop the workers that were started and free everything. */
static void free_workqueue(struct workqueue_struct *wq)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct cpu_workqueue_struct *cwq = wq->cpu_wq[cpu];

		if (!cwq)
			continue;
		if (cwq->thread)
			stop_worker(cwq);
		kfree(cwq);
	}
	kfree(wq);
}

static int start_worker(struct workqueue_struct *wq, int cpu)
{
	struct cpu_workqueue_struct *cwq;
	int pid;

	cwq = kmalloc(sizeof(*cwq), GFP_KERNEL);
	if (!cwq)
		return -ENOMEM;
	memset(cwq, 0, sizeof(*cwq));
	spin_lock_init(&cwq->lock);
	cwq->tail = &cwq->stub;
	INIT_LIST_HEAD(&cwq->flush_records);
	INIT_LIST_HEAD(&cwq->delayed);
	init_waitqueue_head(&cwq->work_done);
	init_completion(&cwq->startup);
	init_completion(&cwq->exit);
	cwq->wq = wq;
	cwq->cpu = cpu;
	snprintf(cwq->name, sizeof(cwq->name), "%s/%d", wq->name, cpu);
	snprintf(cwq->timer_name, sizeof(cwq->timer_name), "its timer, for %s",
		 cwq->name);
	wq->cpu_wq[cpu] = cwq;

	pid = kernel_thread(worker_thread, cwq, CLONE_FS | CLONE_FILES);
	if (pid < 0)
		return pid;
	wait_for_completion(&cwq->startup);
	return 0;
}

static struct workqueue_struct *
__create_workqueue(const char *name, unsigned int flags, const char *func)
{
	struct workqueue_struct *wq;
	int cpu, err;

	might_sleep();
	if (!name || strlen(name) > WQ_NAME_LEN) {
		printk(KERN_ERR
		       "%s: name \"%s\" is longer than %d characters\n",
		       func, name ? name : "(null)", WQ_NAME_LEN);
		return NULL;
	}
	wq = kmalloc(sizeof(*wq), GFP_KERNEL);
	if (!wq)
		return NULL;
	memset(wq, 0, sizeof(*wq));
	strcpy(wq->name, name);
	wq->flags = flags | wq_boot_flags;

	for_each_online_cpu(cpu) {
		err = start_worker(wq, cpu);
		if (err) {
			printk(KERN_ERR
			       "%s(%s): cannot start the worker of cpu "
			       "%d: %d\n",
			       func, name, cpu, err);
			free_workqueue(wq);
			return NULL;
		}
	}
	debug_object_activate(wq, &wq_debug_descr, wq->name);
	return wq;
}

/**
 * create_workqueue - create a workqueue with a worker per online CPU
 * @name: at most 10 characters; the workers are named "<name>/<cpu>"
 *
 * Process context.  Returns NULL, having freed everything and stopped any
 * worker it started, if the name is too long or memory or a thread cannot
 * be had.  The queue has 2.5.41's semantics (unless SHIM_WQ_NONREENTRANT=1).
 */
struct workqueue_struct *create_workqueue(const char *name)
{
	struct workqueue_struct *wq;

	shim_queue_requests_begin();
	wq = __create_workqueue(name, 0, __func__);
	shim_queue_requests_end();
	return wq;
}

/**
 * alloc_workqueue - create_workqueue() with a later kernel's rules
 * @name: as for create_workqueue()
 * @flags: 0 or WQ_NON_REENTRANT (Linux 2.6.36): a work queued while it
 *         runs on another CPU's worker waits behind itself there
 * @max_active: 0 or 1: one worker per CPU runs one work at a time, as in
 *              2.5; nothing else is emulated
 *
 * Returns NULL, with a message, for flags or a @max_active it does not
 * emulate, and as create_workqueue() does.
 */
struct workqueue_struct *alloc_workqueue(const char *name, unsigned int flags,
					 int max_active)
{
	if (flags & ~WQ_NON_REENTRANT) {
		printk(KERN_ERR "alloc_workqueue(%s): flags 0x%x: only "
				"WQ_NON_REENTRANT is emulated\n",
		       name ? name : "(null)", flags);
		return NULL;
	}
	if (max_active < 0 || max_active > 1) {
		printk(KERN_ERR
		       "alloc_workqueue(%s): max_active %d: a worker "
		       "per CPU runs one work at a time here (0 or 1)\n",
		       name ? name : "(null)", max_active);
		return NULL;
	}
	return __create_workqueue(name, flags, __func__);
}

/* Cancel, with a warning each, the delayed works still waiting on @cwq. */
static void cancel_waiting_delayed(struct cpu_workqueue_struct *cwq)
{
	unsigned long flags;

	for (;;) {
		struct work_struct *work;
		void *routine;

		spin_lock_irqsave(&cwq->lock, flags);
		if (list_empty(&cwq->delayed)) {
			spin_unlock_irqrestore(&cwq->lock, flags);
			return;
		}
		work = list_entry(cwq->delayed.next, struct work_struct, entry);
		/* cwq->lock -> timers_lock, as in queue_delayed_work() */
		if (!del_timer(&work->timer)) {
			/* its handler runs and will move it: let it */
			spin_unlock_irqrestore(&cwq->lock, flags);
			yield();
			continue;
		}
		routine = (void *) work->func;
		list_del_init(&work->entry);
		debug_object_deactivate(work, &work_debug_descr);
		clear_bit(0, &work->pending);
		spin_unlock_irqrestore(&cwq->lock, flags);
		printk(KERN_WARNING
		       "WARNING: destroy_workqueue(%s): delayed "
		       "work %p (routine %p) still waits for its timer: "
		       "cancelled, it will not run\n",
		       cwq->wq->name, (void *) work, routine);
	}
}

/*
 * Nothing queued and nothing running on any CPU, seen at one instant: all
 * the cpu queues locked at once (in CPU order), since a work running on one
 * may queue more on another.
 */
static int workqueue_drained(struct workqueue_struct *wq)
{
	unsigned long flags;
	int cpu, empty = 1;

	local_irq_save(flags);
	for_each_online_cpu(cpu)
		spin_lock(&wq->cpu_wq[cpu]->lock);
	/* a work taken and not yet returned, running or not, is counted */
	for_each_online_cpu(cpu) {
		struct cpu_workqueue_struct *cwq = wq->cpu_wq[cpu];

		if (!works_done(cwq, cwq->insert_sequence) || cwq->uncounted ||
		    !list_empty(&cwq->delayed))
			empty = 0;
	}
	/* after the counts: what a work seen returned queued is seen queued */
	for_each_online_cpu(cpu)
		if (!queue_empty(wq->cpu_wq[cpu]))
			empty = 0;
	for_each_online_cpu(cpu)
		spin_unlock(&wq->cpu_wq[cpu]->lock);
	local_irq_restore(flags);
	return empty;
}

/**
 * destroy_workqueue - run what is queued, then stop the workers and free
 * @wq: the workqueue
 *
 * Every work queued before the call runs, and so does what those works
 * queue on @wq while it drains; anyone else queueing on it meanwhile is a
 * BUG.  Delayed work still waiting for its timer is cancelled with a
 * warning.  Process context, not from @wq's own workers.
 */
void destroy_workqueue(struct workqueue_struct *wq)
{
	int cpu;

	might_sleep();
	if (debug_objects_enabled() && !debug_object_active(wq)) {
		printk(KERN_EMERG "BUG: destroy_workqueue(%p): not a live "
				  "workqueue (destroyed twice?)\n",
		       (void *) wq);
		BUG();
	}
	if (current_is_worker(wq)) {
		printk(KERN_EMERG
		       "BUG: destroy_workqueue(%s) called from its own "
		       "worker %s/%d\n",
		       wq->name, current->comm, current->pid);
		BUG();
	}
	wq->flags |= WQ_DYING;
	do {
		for_each_online_cpu(cpu)
			cancel_waiting_delayed(wq->cpu_wq[cpu]);
		__flush_workqueue(wq, _RET_IP_);
	} while (!workqueue_drained(wq));

	debug_object_deactivate(wq, &wq_debug_descr);
	free_workqueue(wq);
}

/**
 * schedule_work - queue work on the shared "events" workqueue
 * @work: the work; it shares the events workers with everyone, so it
 *        should not sleep for long (use a workqueue of its own for that)
 */
int schedule_work(struct work_struct *work)
{
	return queue_work(keventd_wq, work);
}

int schedule_delayed_work(struct work_struct *work, unsigned long delay)
{
	return queue_delayed_work(keventd_wq, work, delay);
}

void flush_scheduled_work(void)
{
	__flush_workqueue(keventd_wq, _RET_IP_);
}

int current_is_keventd(void)
{
	BUG_ON(!keventd_wq);
	return current_is_worker(keventd_wq);
}

/* INIT_WORK on a pending work would corrupt the list it is on. */
void __init_work_check(struct work_struct *work, const char *name,
		       const char *func)
{
	const char *owner = debug_object_active(work);

	if (unlikely(owner)) {
		printk(KERN_EMERG
		       "BUG: INIT_WORK(%s) in %s(): work %p is pending "
		       "on %s\n",
		       name, func, (void *) work, owner);
		BUG();
	}
}

/* The events queue exists since before main(): nothing to do. */
void init_workqueues(void)
{
	BUG_ON(!keventd_wq);
}

/*
 * SHIM_WQ_NONREENTRANT=1 gives every queue WQ_NON_REENTRANT, to see what a
 * later kernel would change; 0 or unset keeps 2.5.41's semantics.
 */
static void __init workqueue_boot_params(void)
{
	const char *val = shim_boot_param("SHIM_WQ_SPREAD");

	/* the demo's race check: see pick_target() */
	wq_spread = val && !strcmp(val, "1");
	val = shim_boot_param("SHIM_WQ_NONREENTRANT");

	if (!val || !*val || !strcmp(val, "0"))
		return;
	if (strcmp(val, "1"))
		panic("workqueue: SHIM_WQ_NONREENTRANT=%s: 1 makes every queue "
		      "non-reentrant (as WQ_NON_REENTRANT, Linux 2.6.36), 0 or "
		      "unset keeps 2.5.41's semantics",
		      val);
	wq_boot_flags = WQ_NON_REENTRANT;
	printk(KERN_INFO
	       "workqueue: SHIM_WQ_NONREENTRANT=1: every queue is "
	       "non-reentrant, as with Linux 2.6.36's WQ_NON_REENTRANT\n");
}

__attribute__((constructor(110))) static void workqueue_init(void)
{
	workqueue_boot_params();
	wq_debug = debug_objects_enabled();
	keventd_wq = create_workqueue("events");
	if (!keventd_wq)
		panic("workqueue: cannot create the events queue");
}

EXPORT_SYMBOL_GPL(create_workqueue);
EXPORT_SYMBOL_GPL(alloc_workqueue);
EXPORT_SYMBOL_GPL(queue_work);
EXPORT_SYMBOL_GPL(queue_delayed_work);
EXPORT_SYMBOL_GPL(flush_workqueue);
EXPORT_SYMBOL_GPL(destroy_workqueue);

EXPORT_SYMBOL(schedule_work);
EXPORT_SYMBOL(schedule_delayed_work);
EXPORT_SYMBOL(flush_scheduled_work);
EXPORT_SYMBOL(cancel_delayed_work);
EXPORT_SYMBOL(current_is_keventd);
EXPORT_SYMBOL(__init_work_check);
