/*
 * softirq.c - bottom halves, softirqs and the ksoftirqd thread.
 *
 * mark_bh() marks a bottom half and kicks ksoftirqd, which runs marked
 * bottom halves in softirq context (sleeping there is a bug the shim
 * reports) and, in real time, the timers that fall due, when they do.
 * A softirq (open_softirq(), raise_softirq(): the network's NET_TX and
 * NET_RX) is one more bit of the same word, above the bottom halves, so
 * that it is marked, deferred to an interrupt's exit and waited for by
 * shim_quiesce() as they are; it runs after them, as 2.4 ran the
 * bottom halves from HI_SOFTIRQ before NET_TX_SOFTIRQ and the rest.
 */
#include "shim.h"
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <asm/bitops.h>
#include <trace/events/workqueue.h>

#define NR_BH 32
#define NR_SOFTIRQ 32 /* bits NR_BH and up of bh_active */

static void (*bh_base[NR_BH])(void);
static struct softirq_action softirq_vec[NR_SOFTIRQ];
static unsigned long bh_active; /* bottom halves, then softirqs */

_Static_assert(NR_BH + NR_SOFTIRQ <= 8 * sizeof(unsigned long),
	       "a bottom half or softirq is one bit of bh_active");
static unsigned int ksoftirqd_kick; /* wait word */
static struct task_struct *ksoftirqd_task;

void init_bh(int nr, void (*routine)(void))
{
	bh_base[nr] = routine;
}

void remove_bh(int nr)
{
	bh_base[nr] = NULL;
}

/*
 * Marked in interrupt context (sched.c's shim_defer_begin()): the bottom
 * halves are marked, and ksoftirqd kicked, when that context ends, as
 * 2.4 ran them at the handler's exit; not beside the rest of the handler.
 */
static __thread unsigned long deferred_bh;
static __thread int deferred_kick;

static void mark_bit(int bit)
{
	if (shim_deferring()) {
		deferred_bh |= 1UL << bit;
		return;
	}
	set_bit(bit, &bh_active);
	shim_kick_ksoftirqd();
}

void mark_bh(int nr)
{
	mark_bit(nr);
}

void open_softirq(int nr, void (*action)(struct softirq_action *), void *data)
{
	BUG_ON(nr < 0 || nr >= NR_SOFTIRQ);
	softirq_vec[nr].data = data;
	__atomic_store_n(&softirq_vec[nr].action, action, __ATOMIC_RELEASE);
}

/* one ksoftirqd stands for every CPU: @cpu's softirq is everyone's */
void cpu_raise_softirq(unsigned int cpu, unsigned int nr)
{
	(void) cpu;
	BUG_ON(nr >= NR_SOFTIRQ);
	mark_bit(NR_BH + nr);
}

void raise_softirq(unsigned int nr)
{
	cpu_raise_softirq(0, nr);
}

void shim_softirq_undefer(void)
{
	unsigned long bh = deferred_bh;
	int kick = deferred_kick;

	deferred_bh = 0;
	deferred_kick = 0;
	if (bh)
		__atomic_or_fetch(&bh_active, bh, __ATOMIC_SEQ_CST);
	if (bh || kick)
		shim_kick_ksoftirqd();
}

void shim_kick_ksoftirqd(void)
{
	struct task_struct *t =
		__atomic_load_n(&ksoftirqd_task, __ATOMIC_ACQUIRE);

	if (shim_deferring()) {
		deferred_kick = 1;
		return;
	}
	__atomic_add_fetch(&ksoftirqd_kick, 1, __ATOMIC_SEQ_CST);
	/* counted in before it can run, so never seen idle with work */
	if (t)
		shim_sleep_end(t);
	/*
	 * And kicked again: a ksoftirqd that read the first kick at the top
	 * of its loop, then counted itself out before our count-in, would
	 * wait on the value it read, counted in, and every quiesce after it
	 * would wait for it for ever.
	 */
	__atomic_add_fetch(&ksoftirqd_kick, 1, __ATOMIC_SEQ_CST);
	shim_host_wake(&ksoftirqd_kick, 1);
}

/* bit @nr of bh_active: bottom half @nr, or softirq @nr - NR_BH */
static void run_one(int nr)
{
	struct softirq_action *h = NULL;
	void (*action)(struct softirq_action *) = NULL;

	if (nr >= NR_BH) {
		h = &softirq_vec[nr - NR_BH];
		action = __atomic_load_n(&h->action, __ATOMIC_ACQUIRE);
		if (!action)
			return;
	} else if (!bh_base[nr]) {
		return;
	}
	/* not while 2.4's cli() lock is held (bh_action()) */
	shim_bh_enter();
	shim_preempt_add(SOFTIRQ_OFFSET);
	shim_defer_begin();
	if (h) {
		trace_softirq_entry(action);
		action(h);
		trace_softirq_exit(action);
	} else {
		trace_softirq_entry(bh_base[nr]);
		bh_base[nr]();
		trace_softirq_exit(bh_base[nr]);
	}
	shim_preempt_sub(SOFTIRQ_OFFSET);
	shim_defer_end();
	shim_bh_exit();
}

static void run_bottom_halves(void)
{
	unsigned long active;
	int nr;

	shim_mutex_lock(&shim_softirq_mutex);
	while ((active = xchg(&bh_active, 0UL)) != 0) {
		for (nr = 0; nr < NR_BH + NR_SOFTIRQ; nr++)
			if (active & (1UL << nr))
				run_one(nr);
	}
	shim_mutex_unlock(&shim_softirq_mutex);
}

/*
 * Wait until no bottom half is marked or running: what a real machine's
 * next interrupt exit would have run by now.  For a program about to end
 * (a scenario's runner), so that a bottom half marked late is not taken
 * for one that never ran.  Process context.
 */
void shim_softirq_sync(void)
{
	for (;;) {
		unsigned long active;

		shim_mutex_lock(&shim_softirq_mutex);
		active = __atomic_load_n(&bh_active, __ATOMIC_SEQ_CST);
		shim_mutex_unlock(&shim_softirq_mutex);
		if (!active)
			return;
		shim_kick_ksoftirqd();
		shim_sleep_ns(100000);
	}
}

/* Is a bottom half marked? (shim_quiesce()) */
int shim_bh_pending(void)
{
	return __atomic_load_n(&bh_active, __ATOMIC_SEQ_CST) != 0;
}

/* ksoftirqd sleeps (counted out) unless kicked since it looked */
static int kicked_since(void *kick)
{
	return __atomic_load_n(&ksoftirqd_kick, __ATOMIC_SEQ_CST) !=
		       *(unsigned int *) kick ||
	       __atomic_load_n(&bh_active, __ATOMIC_SEQ_CST);
}

/* boot waits for it: ps -L shows ksoftirqd/0 by the time main() runs */
static DECLARE_COMPLETION(ksoftirqd_started);

static int ksoftirqd(void *unused)
{
	(void) unused;
	strcpy(current->comm, "ksoftirqd/0");
	daemonize();
	__atomic_store_n(&ksoftirqd_task, current, __ATOMIC_RELEASE);
	complete(&ksoftirqd_started);
	for (;;) {
		unsigned int kick =
			__atomic_load_n(&ksoftirqd_kick, __ATOMIC_SEQ_CST);
		long ns;

		run_bottom_halves();
		/* not after every bottom half: see shim_timers_due() */
		if (shim_timers_due(&ns))
			ns = shim_run_timers();
		if (__atomic_load_n(&bh_active, __ATOMIC_SEQ_CST))
			continue;
		/* until kicked, or until the next timer is due */
		if (shim_sleep_begin(current, kicked_since, &kick)) {
			shim_host_wait(&ksoftirqd_kick, kick, ns);
			shim_sleep_end(current);
		}
	}
	return 0;
}

void shim_softirq_init(void)
{
	int pid;

	shim_tasklet_init();
	pid = kernel_thread(ksoftirqd, NULL, 0);
	if (pid < 0)
		shim_host_bug("kernel_thread(ksoftirqd)", -pid);
	wait_for_completion(&ksoftirqd_started);
}
