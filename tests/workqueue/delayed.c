/*
 * delayed.c - queue_delayed_work() and cancel_delayed_work(), in virtual
 * time: a delayed work runs no sooner than its delay, flush does not wait
 * for its timer, cancelling stops it, destroy cancels it with a warning.
 */
#include "wqtest.h"

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
	cr_assert_eq(cw.in_interrupt, 0, "a delayed work runs in process context");
	destroy_workqueue(wq);
}

Test(workqueue, delayed_work_survives_the_jiffies_wrap)
{
	unsigned long delay;
	struct counted_work cw;
	workqueue_t *wq;

	shim_clock_virtual();
	delay = (0UL - jiffies) + 10;	/* expires just past 0 */
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

Test(workqueue, flush_does_not_wait_for_a_delayed_work_whose_timer_has_not_fired)
{
	struct counted_work cw;
	workqueue_t *wq;

	shim_clock_virtual();
	wq = create_workqueue("noflush");
	counted_work_init(&cw);
	cr_assert_eq(queue_delayed_work(wq, &cw.work, 100), 1);
	flush_workqueue(wq);	/* a hang here is the failure */
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
	cr_assert_str_eq(cw.comm, worker_comm("delaycpu", b, comm, sizeof(comm)));
	destroy_workqueue(wq);
}

Test(workqueue, cancel_delayed_work_before_its_timer_fires_returns_1_and_it_never_runs)
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
	cr_assert_eq(cancel_delayed_work(&cw.work), 0, "nothing left to cancel");
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

Test(workqueue, destroy_with_a_delayed_work_waiting_warns_naming_it_and_cancels_it)
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
