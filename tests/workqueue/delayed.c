/*
 * delayed.c - queue_delayed_work() and cancel_delayed_work(), in virtual
 * time: a delayed work runs no sooner than its delay, flush does not wait
 * for its timer, cancelling stops it, destroy cancels it with a warning.
 */
#include "works.h"

Test(workqueue, delayed_work_runs_no_sooner_than_its_delay)
{
	struct counted_work cw;
	workqueue_t *wq;

	shim_clock_virtual();
	wq = create_workqueue("delay");
	counted_work_init(&cw);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 10), 1);
	shim_clock_advance(9);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 0, "ran after 9 jiffies of 10");
	shim_clock_advance(1);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	cr_assert_eq(cw.in_interrupt, 0,
		     "a delayed work runs in process context");
	destroy_workqueue(wq);
}

Test(workqueue, delayed_work_survives_the_jiffies_wrap)
{
	unsigned long delay;
	struct counted_work cw;
	workqueue_t *wq;

	shim_clock_virtual();
	delay = (0UL - jiffies) + 10; /* expires just past 0 */
	wq = create_workqueue("wrap");
	counted_work_init(&cw);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, delay), 1);
	shim_clock_advance(delay - 1);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 0);
	shim_clock_advance(1);
	cr_assert_eq(jiffies, 10UL);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	destroy_workqueue(wq);
}

Test(workqueue,
     flush_does_not_wait_for_a_delayed_work_whose_timer_has_not_fired)
{
	struct counted_work cw;
	workqueue_t *wq;

	shim_clock_virtual();
	wq = create_workqueue("noflush");
	counted_work_init(&cw);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 100), 1);
	flush_workqueue(wq); /* a hang here is the failure */
	cr_assert_eq(runs(&cw), 0);
	shim_clock_advance(100);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	destroy_workqueue(wq);
}

Test(workqueue, queueing_a_pending_delayed_work_returns_0_and_it_runs_once)
{
	struct counted_work cw;
	workqueue_t *wq;

	shim_clock_virtual();
	wq = create_workqueue("delaytwice");
	counted_work_init(&cw);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 5), 1);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 1), 0);
	cr_assert_eq(queue_work(wq, &cw.work), 0);
	shim_clock_advance(4);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 0, "the second, shorter delay was taken");
	shim_clock_advance(1);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	shim_clock_advance(100);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	destroy_workqueue(wq);
}

Test(workqueue, queue_delayed_work_with_no_delay_queues_at_once)
{
	struct counted_work cw;
	workqueue_t *wq;

	shim_clock_virtual();
	wq = create_workqueue("nodelay");
	counted_work_init(&cw);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 0), 1);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	destroy_workqueue(wq);
}

/* The timer fires in the thread that moves the clock; the work still goes
 * to the worker of the CPU it was queued from. */
Test(workqueue, delayed_work_runs_on_the_worker_of_the_queueing_cpu)
{
	struct counted_work cw;
	workqueue_t *wq;
	char comm[16];
	int a, b;

	skip_unless_smp();
	a = nth_online_cpu(0);
	b = nth_online_cpu(1);
	shim_clock_virtual();
	wq = create_workqueue("delaycpu");
	counted_work_init(&cw);
	pin_to_cpu(b);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 3), 1);
	pin_to_cpu(a);
	shim_clock_advance(3);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	cr_assert_str_eq(cw.comm,
			 worker_comm("delaycpu", b, comm, sizeof(comm)));
	destroy_workqueue(wq);
}

Test(workqueue,
     cancel_delayed_work_before_its_timer_fires_returns_1_and_it_never_runs)
{
	struct counted_work cw;
	workqueue_t *wq;

	shim_clock_virtual();
	wq = create_workqueue("cancel");
	counted_work_init(&cw);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 10), 1);
	shim_clock_advance(9);
	cr_assert_eq(cancel_delayed_work(&cw.work), 1);
	shim_clock_advance(100);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 0);

	/* no longer pending: it can be queued again, and then it runs */
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 10), 1);
	shim_clock_advance(10);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	cr_assert_eq(cancel_delayed_work(&cw.work), 0,
		     "nothing left to cancel");
	destroy_workqueue(wq);
}

Test(workqueue, cancel_delayed_work_after_its_timer_fired_returns_0)
{
	struct counted_work cw, blocked;
	struct blocker b;
	workqueue_t *wq;

	shim_clock_virtual();
	wq = create_workqueue("late");
	pin_to_cpu(nth_online_cpu(0));
	counted_work_init(&cw);
	counted_work_init(&blocked);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 5), 1);
	shim_clock_advance(5);
	cr_assert_eq(cancel_delayed_work(&cw.work), 0);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1, "a work whose timer fired still runs");

	/* fired but still waiting for its worker: too late to cancel too */
	block_worker(wq, &b);
	cr_assert_eq(queue_delayed_work(wq, &blocked.work, 5), 1);
	shim_clock_advance(5);
	cr_assert_eq(cancel_delayed_work(&blocked.work), 0);
	cr_assert_eq(queue_work(wq, &blocked.work), 0, "still pending");
	unblock_worker(&b);
	flush_workqueue(wq);
	cr_assert_eq(runs(&blocked), 1);
	destroy_workqueue(wq);
}

Test(workqueue, cancel_delayed_work_of_a_work_never_queued_returns_0)
{
	struct counted_work cw;

	counted_work_init(&cw);
	cr_assert_eq(cancel_delayed_work(&cw.work), 0);
}

Test(workqueue,
     destroy_with_a_delayed_work_waiting_warns_naming_it_and_cancels_it)
{
	int threads = shim_kthreads_running();
	long outstanding = shim_kmalloc_outstanding();
	struct counted_work cw;
	workqueue_t *wq;
	char expect[128];

	shim_clock_virtual();
	wq = create_workqueue("dying");
	counted_work_init(&cw);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 10), 1);
	shim_printk_clear();
	destroy_workqueue(wq);
	snprintf(expect, sizeof(expect), "delayed work %p", (void *) &cw.work);
	cr_assert_printk("<4>WARNING: destroy_workqueue(dying)");
	cr_assert_printk(expect);
	cr_assert_printk("cancelled");
	shim_clock_advance(100);
	cr_assert_eq(runs(&cw), 0);
	cr_assert_eq(shim_kmalloc_outstanding(), outstanding);
	wait_kthreads_running(threads);

	/* the work is no longer pending anywhere: it can go on another queue */
	INIT_WORK(&cw.work, counted_work_fn, &cw);
	wq = create_workqueue("after");
	cr_assert_eq(queue_work(wq, &cw.work), 1);
	destroy_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
}

/* --- destroy racing delayed work (found in review) --- */

static struct workqueue_struct *drain_wq;
static struct work_struct drain_rearm, drain_late;
static struct completion drain_go;
static int drain_late_runs;
static int destroyer_tid;

static void drain_late_fn(void *data)
{
	__atomic_add_fetch(&drain_late_runs, 1, __ATOMIC_SEQ_CST);
}

/* queues a delayed work on its own queue once destroy is draining it */
static void drain_rearm_fn(void *data)
{
	wait_for_completion(&drain_go);
	queue_delayed_work(drain_wq, &drain_late, 10);
}

static void *destroyer(void *arg)
{
	__atomic_store_n(&destroyer_tid, (int) gettid(), __ATOMIC_SEQ_CST);
	destroy_workqueue(drain_wq);
	return NULL;
}

/* the host state of thread @tid ('R', 'S', ...), or 0 */
static char thread_state(int tid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return p && p[1] == ' ' ? p[2] : 0;
}

Test(workqueue,
     destroy_cancels_a_delayed_work_its_own_work_queues_while_draining)
{
	pthread_t thread;
	int tid;

	shim_clock_virtual();
	drain_wq = create_workqueue("drain");
	init_completion(&drain_go);
	INIT_WORK(&drain_rearm, drain_rearm_fn, NULL);
	INIT_WORK(&drain_late, drain_late_fn, NULL);
	queue_work(drain_wq, &drain_rearm);
	shim_printk_clear();
	pthread_create(&thread, NULL, destroyer, NULL);
	/* let destroy get past its first look at the delayed lists: it then
	 * sleeps, waiting for drain_rearm_fn */
	while (!(tid = __atomic_load_n(&destroyer_tid, __ATOMIC_SEQ_CST)) ||
	       thread_state(tid) != 'S')
		sched_yield();
	complete(&drain_go);
	join(thread);

	cr_assert_eq(test_bit(0, &drain_late.pending), 0,
		     "the delayed work is still pending after destroy");
	cr_assert_eq(timer_pending(&drain_late.timer), 0,
		     "the delayed work's timer is still armed after destroy");
	cr_assert_printk("WARNING: destroy_workqueue(drain): delayed work");
	shim_clock_advance(100); /* its timer must not fire into freed memory */
	cr_assert_eq(drain_late_runs, 0);
}

#define SELF_FREEING 500

struct self_freeing {
	struct work_struct work;
	int *ran;
};

static void self_freeing_fn(void *data)
{
	struct self_freeing *sf = data;

	__atomic_store_n(sf->ran, 1, __ATOMIC_SEQ_CST);
	kfree(sf);
}

static int advancing;

static void *advancer(void *arg)
{
	while (__atomic_load_n(&advancing, __ATOMIC_SEQ_CST))
		shim_clock_advance(1);
	return NULL;
}

/* destroy must not touch a delayed work that ran, and freed itself, meanwhile */
Test(workqueue, destroy_races_delayed_works_that_free_themselves)
{
	static struct self_freeing *works[SELF_FREEING];
	static int ran[SELF_FREEING];
	long outstanding = shim_kmalloc_outstanding();
	pthread_t thread;
	int round, i;

	shim_clock_virtual();
	quiet_console();
	for (round = 0; round < 10; round++) {
		workqueue_t *wq = create_workqueue("selffree");

		for (i = 0; i < SELF_FREEING; i++) {
			works[i] = kmalloc(sizeof(*works[i]), GFP_KERNEL);
			cr_assert(works[i]);
			ran[i] = 0;
			works[i]->ran = &ran[i];
			INIT_WORK(&works[i]->work, self_freeing_fn, works[i]);
			queue_delayed_work(wq, &works[i]->work, 1 + i % 8);
		}
		__atomic_store_n(&advancing, 1, __ATOMIC_SEQ_CST);
		pthread_create(&thread, NULL, advancer, NULL);
		destroy_workqueue(wq);
		__atomic_store_n(&advancing, 0, __ATOMIC_SEQ_CST);
		join(thread);
		/* what destroy cancelled never ran: it is still ours to free */
		for (i = 0; i < SELF_FREEING; i++)
			if (!__atomic_load_n(&ran[i], __ATOMIC_SEQ_CST))
				kfree(works[i]);
	}
	cr_assert_eq(shim_kmalloc_outstanding(), outstanding);
}
