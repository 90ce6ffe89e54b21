/*
 * timer.c - kernel timers.
 *
 * Pending timers sit on one list sorted by expiry (arming order among
 * equals) under timers_lock.  Handlers run in timer context (the softirq
 * count raised, so they may not sleep) and one at a time: softirq_mutex
 * serialises them with each other and with bottom halves, as TIMER_BH was
 * serialised with the other bottom halves in 2.4.  In real time ksoftirqd
 * runs them; in virtual time the thread that advances the clock does.
 *
 * A pending timer is registered in the debug-object registry (linux/
 * timer.h says what that catches), under timers_lock, so the registry
 * and the list agree whenever the lock is free.
 *
 * A timer runs at its shim_due, the expires it was armed with in the
 * shim's jiffies: 2.4 code counts jiffies from 0 at boot and arms its
 * timers through shim_add_timer24() and shim_mod_timer24()
 * (shim/include-2.4/linux/timer.h), and its expires stays as it set it.
 */
#include "shim.h"
#include <linux/timer.h>
#include <linux/interrupt.h>
#include <linux/debugobjects.h>
#include <trace/events/workqueue.h>

extern void shim_set_virtual_jiffies(unsigned long j);
extern u64 shim_ns_until_jiffy(unsigned long j);

static spinlock_t timers_lock = SPIN_LOCK_UNLOCKED;
static LIST_HEAD(timers);
/*
 * When the first pending timer expires, and whether there is one: written
 * under timers_lock as the list changes, read without it by ksoftirqd
 * (shim_timers_due()), as relaxed atomics that order nothing.
 */
static unsigned long first_expires;
static int first_pending;
static unsigned long timer_seq;
static struct timer_list *running_timer;
static struct task_struct *running_task;
static unsigned int running_done; /* wait word: bumped after each handler */

struct shim_mutex shim_softirq_mutex = SHIM_MUTEX_INIT;
static struct shim_mutex advance_mutex = SHIM_MUTEX_INIT;

/* a pending timer is named by its function in reports */
static void *timer_debug_hint(const void *addr)
{
	return (void *) ((const struct timer_list *) addr)->function;
}

static struct debug_obj_descr timer_debug_descr = {
	.name = "timer_list",
	.debug_hint = timer_debug_hint,
};

static void timer_bug(struct timer_list *timer, const char *func,
		      const char *what)
{
	char fn[128], why[192];

	if (!shim_symbol((unsigned long) timer->function, fn, sizeof(fn)))
		snprintf(fn, sizeof(fn), "%p", (void *) timer->function);
	printk(KERN_EMERG "BUG: %s(%p): timer %s (function %s), by %s/%d\n",
	       func, (void *) timer, what, fn, current->comm, current->pid);
	if (shim_kmem_freed(timer, why, sizeof(why)))
		printk(KERN_EMERG
		       "BUG: %s(%p): the timer lies in freed memory: "
		       "%s\n",
		       func, (void *) timer, why);
	BUG();
}

/*
 * Called with timers_lock held: is @timer on the list?  A timer whose list
 * pointers are set but that the registry does not know was never given to
 * init_timer() (or lies in freed memory): using it would corrupt the list.
 */
static int pending_checked(struct timer_list *timer, const char *func)
{
	if (!timer->entry.next)
		return 0;
	if (shim_debug_checks && !debug_object_active(timer))
		timer_bug(timer, func,
			  "is not initialised (init_timer, "
			  "TIMER_INITIALIZER)");
	return 1;
}

void init_timer(struct timer_list *timer)
{
	if (shim_debug_checks && debug_object_active(timer))
		timer_bug(timer, __func__,
			  "is pending: initialising it again corrupts "
			  "the timer list");
	timer->entry.next = NULL;
	timer->entry.prev = NULL;
}

/* earlier expiry first; equal expiries in arming order */
static int timer_before(struct timer_list *a, struct timer_list *b)
{
	if (a->shim_due != b->shim_due)
		return time_before(a->shim_due, b->shim_due);
	return a->shim_seq < b->shim_seq;
}

/* Called with timers_lock held, whenever the list has changed. */
static void first_changed(void)
{
	struct timer_list *first;

	if (!list_empty(&timers)) {
		first = list_entry(timers.next, struct timer_list, entry);
		__atomic_store_n(&first_expires, first->shim_due,
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&first_pending, !list_empty(&timers),
			 __ATOMIC_RELAXED);
}

/*
 * Called with timers_lock held: @timer due at @due, the shim's jiffies;
 * 1 if it is now the first to expire.
 */
static int enqueue_timer(struct timer_list *timer, unsigned long due)
{
	struct list_head *pos;

	timer->shim_due = due;
	timer->shim_seq = ++timer_seq;
	timer->shim_armed = jiffies;
	list_for_each_prev(pos, &timers) {
		struct timer_list *t =
			list_entry(pos, struct timer_list, entry);

		if (timer_before(t, timer))
			break;
	}
	list_add(&timer->entry, pos);
	debug_object_activate(timer, &timer_debug_descr, NULL);
	first_changed();
	return timers.next == &timer->entry;
}

static void detach_timer(struct timer_list *timer)
{
	debug_object_deactivate(timer, &timer_debug_descr);
	list_del(&timer->entry);
	timer->entry.next = NULL;
	timer->entry.prev = NULL;
	first_changed();
}

/* add_timer() of code whose jiffies are the shim's less @epoch */
static void __add_timer(struct timer_list *timer, unsigned long epoch)
{
	unsigned long flags;
	int first;

	shim_point(SHIM_POINT_TIMER);
	if (unlikely(!timer->function)) {
		printk(KERN_EMERG "BUG: add_timer: timer %p has no function\n",
		       (void *) timer);
		BUG();
	}
	spin_lock_irqsave(&timers_lock, flags);
	if (unlikely(pending_checked(timer, "add_timer"))) {
		spin_unlock_irqrestore(&timers_lock, flags);
		timer_bug(timer, "add_timer", "is already pending");
	}
	first = enqueue_timer(timer, timer->expires + epoch);
	spin_unlock_irqrestore(&timers_lock, flags);
	if (first)
		shim_kick_ksoftirqd();
}

void add_timer(struct timer_list *timer)
{
	__add_timer(timer, 0);
}

void shim_add_timer24(struct timer_list *timer)
{
	__add_timer(timer, SHIM_INITIAL_JIFFIES);
}

static int __mod_timer(struct timer_list *timer, unsigned long expires,
		       unsigned long epoch)
{
	unsigned long flags;
	int ret = 0, first;

	shim_point(SHIM_POINT_TIMER);
	if (unlikely(!timer->function)) {
		printk(KERN_EMERG "BUG: mod_timer: timer %p has no function\n",
		       (void *) timer);
		BUG();
	}
	spin_lock_irqsave(&timers_lock, flags);
	if (pending_checked(timer, "mod_timer")) {
		detach_timer(timer);
		ret = 1;
	}
	timer->expires = expires;
	first = enqueue_timer(timer, expires + epoch);
	spin_unlock_irqrestore(&timers_lock, flags);
	if (first)
		shim_kick_ksoftirqd();
	return ret;
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, 0);
}

int shim_mod_timer24(struct timer_list *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, SHIM_INITIAL_JIFFIES);
}

int del_timer(struct timer_list *timer)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&timers_lock, flags);
	if (pending_checked(timer, __func__)) {
		detach_timer(timer);
		ret = 1;
	}
	spin_unlock_irqrestore(&timers_lock, flags);
	return ret;
}

/* Deactivate @timer and wait until its handler is not running anywhere. */
int del_timer_sync(struct timer_list *timer)
{
	unsigned long flags;
	unsigned int seq;
	int ret = 0;

	for (;;) {
		spin_lock_irqsave(&timers_lock, flags);
		if (pending_checked(timer, __func__)) {
			detach_timer(timer);
			ret = 1;
		}
		if (running_timer != timer) {
			spin_unlock_irqrestore(&timers_lock, flags);
			return ret;
		}
		if (running_task == current) {
			spin_unlock_irqrestore(&timers_lock, flags);
			timer_bug(timer, __func__,
				  "deleted from its own handler: it would "
				  "wait forever");
		}
		seq = __atomic_load_n(&running_done, __ATOMIC_SEQ_CST);
		spin_unlock_irqrestore(&timers_lock, flags);
		shim_host_wait(&running_done, seq, -1);
	}
}

int timer_pending(const struct timer_list *timer)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&timers_lock, flags);
	ret = timer->entry.next != NULL;
	spin_unlock_irqrestore(&timers_lock, flags);
	return ret;
}

/*
 * Run the first timer if it is due at @now; called with timers_lock held
 * and softirq_mutex taken, returns with timers_lock held.  0 if none was.
 */
static int run_first_timer(unsigned long now, unsigned long *flags)
{
	struct timer_list *timer;
	void (*fn)(unsigned long);
	unsigned long data;

	if (list_empty(&timers))
		return 0;
	timer = list_entry(timers.next, struct timer_list, entry);
	if (time_after(timer->shim_due, now))
		return 0;
	detach_timer(timer);
	fn = timer->function;
	data = timer->data;
	running_timer = timer;
	running_task = current;
	spin_unlock_irqrestore(&timers_lock, *flags);

	shim_preempt_add(SOFTIRQ_OFFSET);
	shim_defer_begin();
	shim_point(SHIM_POINT_TIMER);
	trace_timer_expire_entry(timer, fn);
	fn(data);
	trace_timer_expire_exit(timer, fn);
	shim_preempt_sub(SOFTIRQ_OFFSET);
	shim_defer_end();

	spin_lock_irqsave(&timers_lock, *flags);
	running_timer = NULL;
	running_task = NULL;
	__atomic_add_fetch(&running_done, 1, __ATOMIC_SEQ_CST);
	shim_host_wake(&running_done, INT_MAX);
	return 1;
}

/*
 * Real time: is a timer due?  If not, the ns until the first one in *@ns
 * (-1: none).  ksoftirqd asks after each batch of bottom halves, without
 * timers_lock: taking it there would order every bottom half before
 * whoever next arms or deletes a timer, which 2.4 did not (TIMER_BH ran
 * at the tick), and ThreadSanitizer would never see a bottom half beside
 * a process that sleeps with a timeout.  Whoever arms a timer that comes
 * first kicks ksoftirqd, which asks again.
 */
int shim_timers_due(long *ns)
{
	unsigned long expires;

	*ns = -1;
	if (shim_clock_is_virtual() ||
	    !__atomic_load_n(&first_pending, __ATOMIC_RELAXED))
		return 0;
	expires = __atomic_load_n(&first_expires, __ATOMIC_RELAXED);
	if (!time_after(expires, jiffies))
		return 1;
	*ns = (long) shim_ns_until_jiffy(expires);
	return 0;
}

/* Real time: run what is due; ns until the next timer, or -1 if none. */
long shim_run_timers(void)
{
	unsigned long flags;
	long ns = -1;

	shim_mutex_lock(&shim_softirq_mutex);
	/* timers were a bottom half in 2.4: not inside cli() */
	shim_bh_enter();
	spin_lock_irqsave(&timers_lock, flags);
	while (!shim_clock_is_virtual() && run_first_timer(jiffies, &flags))
		;
	if (!list_empty(&timers) && !shim_clock_is_virtual())
		ns = (long) shim_ns_until_jiffy(
			list_entry(timers.next, struct timer_list, entry)
				->shim_due);
	spin_unlock_irqrestore(&timers_lock, flags);
	shim_bh_exit();
	shim_mutex_unlock(&shim_softirq_mutex);
	return ns;
}

/* Timers pending, named by their functions into @buf (the first 16 of them). */
int shim_timers_pending(char *buf, size_t len)
{
	void (*fn[16])(unsigned long);
	struct timer_list *t;
	unsigned long flags;
	size_t off = 0;
	int i, n = 0;

	spin_lock_irqsave(&timers_lock, flags);
	list_for_each_entry(t, &timers, entry)
		if (n++ < (int) ARRAY_SIZE(fn))
			fn[n - 1] = t->function;
	spin_unlock_irqrestore(&timers_lock, flags);
	if (len)
		buf[0] = 0;
	for (i = 0; i < n && i < (int) ARRAY_SIZE(fn) && off < len; i++)
		off += snprintf(buf + off, len - off, "%stimer %s()",
				i ? ", " : "",
				shim_symbol_name((void *) fn[i]) ?: "?");
	return n;
}

/*
 * The expiry of the first pending timer in @expires, in the shim's
 * jiffies; 0 if there is none.
 */
int shim_timer_next(unsigned long *expires)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&timers_lock, flags);
	if (!list_empty(&timers)) {
		*expires = list_entry(timers.next, struct timer_list, entry)
				   ->shim_due;
		ret = 1;
	}
	spin_unlock_irqrestore(&timers_lock, flags);
	return ret;
}

/*
 * The tick that runs @timer: the first after it was armed, not before it
 * expires.  A timer due already when armed runs at the next tick, as the
 * timer interrupt ran it (so one re-armed for "now", schedule_timeout(0),
 * lets time move); one armed before a tick that it expires at runs in
 * that tick, with the others due then, whichever of them ran first.
 */
static unsigned long timer_tick(const struct timer_list *timer)
{
	if (time_after(timer->shim_due, timer->shim_armed))
		return timer->shim_due;
	return timer->shim_armed + 1;
}

/*
 * Called with timers_lock held: the pending timer whose tick comes first
 * (in list order among equals), and that tick in @tick; NULL if none.
 * The list is in expiry order and a tick is never before its expiry, so
 * the search stops at the first timer expiring after the best tick.
 */
static struct timer_list *next_to_run(unsigned long *tick)
{
	struct timer_list *t, *best = NULL;

	list_for_each_entry(t, &timers, entry) {
		unsigned long when = timer_tick(t);

		if (best && time_after(t->shim_due, *tick))
			break;
		if (!best || time_before(when, *tick)) {
			best = t;
			*tick = when;
		}
	}
	return best;
}

/*
 * Virtual time, one timer at a time: run the pending timer whose tick
 * (timer_tick()) comes first, if that is by @until, time moving to that
 * tick if it is still to come, and return 1; else move time to @until
 * and return 0.  A scenario that lets the system settle between two
 * timers sees their effects in one order, whatever the host's threads
 * do: what a timer wakes finishes before the next timer runs.
 */
int shim_clock_step(unsigned long until)
{
	struct timer_list *timer;
	unsigned long flags, tick;
	int ran = 0;

	if (!shim_clock_is_virtual() || in_interrupt()) {
		printk(KERN_ERR "shim_clock_step: virtual time and process "
				"context only\n");
		return 0;
	}
	shim_mutex_lock(&advance_mutex);
	shim_mutex_lock(&shim_softirq_mutex);
	shim_bh_enter();
	spin_lock_irqsave(&timers_lock, flags);
	timer = next_to_run(&tick);
	if (timer && !time_after(tick, until)) {
		if (time_after(tick, jiffies))
			shim_set_virtual_jiffies(tick);
		/* first in line: what run_first_timer() takes */
		list_del(&timer->entry);
		list_add(&timer->entry, &timers);
		first_changed();
		ran = run_first_timer(jiffies, &flags);
	}
	if (!ran && time_after(until, jiffies))
		shim_set_virtual_jiffies(until);
	spin_unlock_irqrestore(&timers_lock, flags);
	shim_bh_exit();
	shim_mutex_unlock(&shim_softirq_mutex);
	shim_mutex_unlock(&advance_mutex);
	return ran;
}

void shim_clock_advance(unsigned long ticks)
{
	unsigned long target, flags;

	if (!shim_clock_is_virtual()) {
		printk(KERN_ERR "shim_clock_advance: the clock is real; call "
				"shim_clock_virtual() first\n");
		return;
	}
	/*
	 * Timers run in the advancing thread, under the softirq lock: moving
	 * time again from inside one would wait on itself for ever.
	 */
	if (in_interrupt()) {
		printk(KERN_EMERG
		       "BUG: shim_clock_advance() from a timer or "
		       "bottom half, in %s/%d: time moves only from process "
		       "context\n",
		       current->comm, current->pid);
		BUG();
	}
	shim_mutex_lock(&advance_mutex);
	target = jiffies + ticks;
	shim_mutex_lock(&shim_softirq_mutex);
	shim_bh_enter();
	spin_lock_irqsave(&timers_lock, flags);
	for (;;) {
		struct timer_list *first;

		if (list_empty(&timers))
			break;
		first = list_entry(timers.next, struct timer_list, entry);
		if (time_after(first->shim_due, target))
			break;
		/* time moves to the timer's expiry, never backwards */
		if (time_after(first->shim_due, jiffies))
			shim_set_virtual_jiffies(first->shim_due);
		run_first_timer(jiffies, &flags);
	}
	shim_set_virtual_jiffies(target);
	spin_unlock_irqrestore(&timers_lock, flags);
	shim_bh_exit();
	shim_mutex_unlock(&shim_softirq_mutex);
	shim_mutex_unlock(&advance_mutex);
}
