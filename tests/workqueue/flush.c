/*
 * flush.c - flush_workqueue() covers what was queued before it and cannot
 * be starved; create_workqueue() and destroy_workqueue() start, stop and
 * free exactly what they should, and fail cleanly.
 */
#include "works.h"

struct slow_work {
	work_t work;
	atomic_t runs;
};

static void slow_fn(void *data)
{
	struct slow_work *s = data;

	udelay(100);
	atomic_inc_return(&s->runs);
}

#define NR_SLOW 64

struct batch {
	workqueue_t *wq;
	struct slow_work *works;
	int from, to, refused;
};

static void *queue_batch(void *arg)
{
	struct batch *b = arg;
	int i;

	for (i = b->from; i < b->to; i++)
		b->refused += !queue_work(b->wq, &b->works[i].work);
	return NULL;
}

/* Queue works [0, NR_SLOW) on @wq, half from each of two CPUs. */
static void queue_slow_works(workqueue_t *wq, struct slow_work *works)
{
	struct batch b[2];
	pthread_t t[2];
	int i, n = num_online_cpus() > 1 ? 2 : 1;

	for (i = 0; i < NR_SLOW; i++) {
		INIT_WORK(&works[i].work, slow_fn, &works[i]);
		atomic_set(&works[i].runs, 0);
	}
	for (i = 0; i < n; i++) {
		b[i] = (struct batch){ .wq = wq,
				       .works = works,
				       .from = i * NR_SLOW / n,
				       .to = (i + 1) * NR_SLOW / n };
		start_pinned(&t[i], nth_online_cpu(i), queue_batch, &b[i]);
	}
	for (i = 0; i < n; i++) {
		join(t[i]);
		cr_assert_eq(b[i].refused, 0);
	}
}

Test(workqueue, flush_waits_for_every_work_queued_before_it)
{
	workqueue_t *wq = create_workqueue("flush");
	struct slow_work works[NR_SLOW];
	int i;

	queue_slow_works(wq, works);
	flush_workqueue(wq);
	for (i = 0; i < NR_SLOW; i++)
		cr_assert_eq(atomic_add_return(0, &works[i].runs), 1,
			     "work %d had not run when flush returned", i);
	destroy_workqueue(wq);
}

Test(workqueue, flush_of_an_idle_queue_returns)
{
	workqueue_t *wq = create_workqueue("idle");

	flush_workqueue(wq);
	flush_workqueue(wq);
	destroy_workqueue(wq);
}

/* --- starvation ---------------------------------------------------------- */

/* A broken flush only returns once the requeueing stops at this cap. */
#define REQUEUE_CAP 3000000
#define NR_CHURN 8

static struct churn {
	workqueue_t *wq;
	atomic_t stop;
	atomic_t iterations;
	work_t self[NR_CPUS];
	work_t others[2][NR_CHURN];
} churn;

static void requeue_forever_fn(void *data)
{
	int n = atomic_inc_return(&churn.iterations);

	if (!atomic_add_return(0, &churn.stop) && n < REQUEUE_CAP)
		queue_work(churn.wq, data);
}

static void nothing_fn(void *data)
{
}

/* Start a self-requeueing work on this CPU, then keep queueing others. */
static void *churn_producer(void *arg)
{
	long i = (long) arg, queued = 0, k = 0;

	queue_work(churn.wq, &churn.self[i]);
	while (!atomic_add_return(0, &churn.stop) && queued < REQUEUE_CAP)
		queued +=
			queue_work(churn.wq, &churn.others[i][k++ % NR_CHURN]);
	return NULL;
}

Test(workqueue, flush_is_not_starved_by_requeueing_works)
{
	struct counted_work marker;
	pthread_t t[2];
	int i, k, n = num_online_cpus() > 1 ? 2 : 1, at_return;

	churn.wq = create_workqueue("churn");
	for (i = 0; i < n; i++) {
		INIT_WORK(&churn.self[i], requeue_forever_fn, &churn.self[i]);
		for (k = 0; k < NR_CHURN; k++)
			INIT_WORK(&churn.others[i][k], nothing_fn, NULL);
		start_pinned(&t[i], nth_online_cpu(i), churn_producer,
			     (void *) (long) i);
	}
	spin_until(atomic_add_return(0, &churn.iterations) > 1000);

	counted_work_init(&marker);
	cr_assert_eq(queue_work(churn.wq, &marker.work), 1);
	flush_workqueue(churn.wq);
	at_return = atomic_add_return(0, &churn.iterations);
	cr_assert_eq(runs(&marker), 1,
		     "flush returned before a work queued before it ran");
	cr_assert_lt(at_return, REQUEUE_CAP,
		     "flush returned only when the requeueing stopped");
	/* and the requeueing really was still going on */
	spin_until(atomic_add_return(0, &churn.iterations) > at_return);

	atomic_add_return(1, &churn.stop);
	for (i = 0; i < n; i++)
		join(t[i]);
	destroy_workqueue(churn.wq);
}

/* --- a flush waits for its works, not for the rest of their batch -------- */

static struct later {
	workqueue_t *wq;
	struct task_struct *flusher;
	struct completion flushed;
	work_t work;
} later;

static int flush_thread(void *unused)
{
	__atomic_store_n(&later.flusher, current, __ATOMIC_RELEASE);
	flush_workqueue(later.wq);
	complete_all(&later.flushed);
	return 0;
}

/* Queued after the flush began: it waits for the flush to return. */
static void wait_for_flush_fn(void *unused)
{
	wait_for_completion(&later.flushed);
}

static int flusher_asleep(void)
{
	struct task_struct *t =
		__atomic_load_n(&later.flusher, __ATOMIC_ACQUIRE);

	return t && __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) ==
			    TASK_UNINTERRUPTIBLE;
}

/*
 * The worker takes what is queued at once and runs it as one batch: w0,
 * queued before the flush, and a later work, queued once the flush waits,
 * run in the same batch, and the later one waits for the flush to return.
 * A flush that waited for the batch rather than for its own works would
 * never return.  Whether it shows depends on when the flusher runs, so
 * the scenario runs under controlled schedules, each seed the same way
 * every time.
 */
CHILD_SCENARIO(flush_before_later_work)
{
	struct counted_work w0;
	struct blocker b;

	later.wq = create_workqueue("later");
	init_completion(&later.flushed);
	INIT_WORK(&later.work, wait_for_flush_fn, NULL);
	counted_work_init(&w0);
	child_check(start_blocker(later.wq, &b) == 1);
	child_check(queue_work(later.wq, &w0.work) == 1);
	child_check(kernel_thread(flush_thread, NULL, 0) > 0);
	/* asleep in flush_cpu_workqueue(): what it waits for is counted */
	while (!flusher_asleep())
		cpu_relax();
	child_check(queue_work(later.wq, &later.work) == 1);
	unblock_worker(&b);
	wait_for_completion(&later.flushed);
	child_check(runs(&w0) == 1);
	destroy_workqueue(later.wq);
	exit(0);
}

Test(workqueue, flush_returns_before_a_later_work_of_the_same_batch_runs,
     .timeout = 60)
{
	struct child_result res;
	char env[32];
	int seed;

	for (seed = 1; seed <= 12; seed++) {
		snprintf(env, sizeof(env), "SHIM_SCHED=pct:%d", seed);
		run_child("flush_before_later_work", env, &res);
		cr_assert(WIFEXITED(res.status) && !WEXITSTATUS(res.status),
			  "%s: status 0x%x:\n%s", env, res.status, res.out);
	}
}

/* --- flush from a work of the same queue -------------------------------- */

struct self_flusher {
	workqueue_t *wq;
	work_t work;
	int returned;
};

static void self_flush_fn(void *data)
{
	struct self_flusher *s = data;

	flush_workqueue(s->wq);
	s->returned = 1;
}

Test(workqueue, flush_workqueue_from_its_own_work_warns_and_returns)
{
	struct self_flusher s = { .returned = 0 };

	s.wq = create_workqueue("selfflush");
	INIT_WORK(&s.work, self_flush_fn, &s);
	shim_printk_clear();
	cr_assert_eq(queue_work(s.wq, &s.work), 1);
	flush_workqueue(s.wq);
	cr_assert_eq(s.returned, 1);
	cr_assert_printk(
		"<4>WARNING: flush_workqueue(selfflush) called from its "
		"own worker selfflush/");
	destroy_workqueue(s.wq);
}

/* --- destroy ------------------------------------------------------------- */

Test(workqueue, destroy_runs_every_queued_work)
{
	workqueue_t *wq = create_workqueue("drain");
	struct slow_work works[NR_SLOW];
	int i;

	queue_slow_works(wq, works);
	destroy_workqueue(wq);
	for (i = 0; i < NR_SLOW; i++)
		cr_assert_eq(atomic_add_return(0, &works[i].runs), 1,
			     "work %d lost by destroy", i);
}

struct draining_requeuer {
	workqueue_t *wq;
	work_t work;
	int times, refused;
};

static void draining_requeue_fn(void *data)
{
	struct draining_requeuer *r = data;

	if (++r->times < 50)
		r->refused += !queue_work(r->wq, &r->work);
}

Test(workqueue, destroy_lets_its_own_works_requeue_while_it_drains)
{
	struct draining_requeuer r = { .times = 0 };

	r.wq = create_workqueue("selfdrain");
	INIT_WORK(&r.work, draining_requeue_fn, &r);
	cr_assert_eq(queue_work(r.wq, &r.work), 1);
	destroy_workqueue(r.wq);
	cr_assert_eq(r.times, 50);
	cr_assert_eq(r.refused, 0);
}

Test(workqueue, destroy_stops_the_workers_and_frees_everything)
{
	int threads = shim_kthreads_running();
	long outstanding = shim_kmalloc_outstanding();
	struct counted_work cw;
	workqueue_t *wq;
	char comm[16];
	int cpu;

	wq = create_workqueue("lifecycle");
	cr_assert_not_null(wq);
	cr_assert_eq(shim_kthreads_running(), threads + num_online_cpus(),
		     "one worker per online CPU");
	cr_assert_gt(shim_kmalloc_outstanding(), outstanding);
	for_each_online_cpu(cpu)
		cr_assert(thread_named(worker_comm("lifecycle", cpu, comm,
						   sizeof(comm))),
			  "no thread named %s", comm);
	counted_work_init(&cw);
	cr_assert_eq(queue_work(wq, &cw.work), 1);

	destroy_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	cr_assert_eq(shim_kmalloc_outstanding(), outstanding);
	wait_kthreads_running(threads);
	for_each_online_cpu(cpu)
		spin_until(!thread_named(
			worker_comm("lifecycle", cpu, comm, sizeof(comm))));
}

Test(workqueue, create_and_destroy_a_hundred_times_leaks_nothing)
{
	int threads = shim_kthreads_running();
	long outstanding = shim_kmalloc_outstanding();
	int i;

	for (i = 0; i < 100; i++) {
		workqueue_t *wq = create_workqueue("cycle");

		cr_assert_not_null(wq);
		destroy_workqueue(wq);
	}
	cr_assert_eq(shim_kmalloc_outstanding(), outstanding);
	wait_kthreads_running(threads);
}

/* --- create_workqueue: names and failures ------------------------------- */

Test(workqueue, create_workqueue_takes_a_10_char_name_and_refuses_11)
{
	int threads = shim_kthreads_running();
	long outstanding = shim_kmalloc_outstanding();
	struct counted_work cw;
	workqueue_t *wq;
	char comm[16];

	wq = create_workqueue("abcdefghij");
	cr_assert_not_null(wq);
	counted_work_init(&cw);
	cr_assert_eq(queue_work(wq, &cw.work), 1);
	wait_for_completion(&cw.done);
	cr_assert_str_eq(cw.comm,
			 worker_comm("abcdefghij", cw.cpu, comm, sizeof(comm)));
	destroy_workqueue(wq);
	wait_kthreads_running(threads);

	shim_printk_clear();
	cr_assert_null(create_workqueue("abcdefghijk"));
	cr_assert_printk(
		"create_workqueue: name \"abcdefghijk\" is longer than 10");
	cr_assert_no_printk("BUG");
	cr_assert_eq(shim_kthreads_running(), threads);
	cr_assert_eq(shim_kmalloc_outstanding(), outstanding);
}

Test(workqueue, create_workqueue_fails_cleanly_at_every_allocation)
{
	int threads = shim_kthreads_running();
	long outstanding = shim_kmalloc_outstanding();
	struct counted_work cw;
	workqueue_t *wq = NULL;
	int n;

	for (n = 1; n < 100; n++) {
		shim_fail_kmalloc_nth(n);
		wq = create_workqueue("faulty");
		shim_fail_kmalloc_nth(0);
		if (wq)
			break;
		wait_kthreads_running(threads);
		cr_assert_eq(shim_kmalloc_outstanding(), outstanding,
			     "leak when kmalloc #%d fails", n);
	}
	cr_assert_not_null(wq);
	cr_assert_gt(n, 1, "create_workqueue() allocates nothing?");

	/* the one that succeeded works */
	counted_work_init(&cw);
	cr_assert_eq(queue_work(wq, &cw.work), 1);
	destroy_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	cr_assert_eq(shim_kmalloc_outstanding(), outstanding);
	wait_kthreads_running(threads);
}

Test(workqueue, create_workqueue_fails_cleanly_when_kernel_thread_fails)
{
	int threads = shim_kthreads_running();
	long outstanding = shim_kmalloc_outstanding();
	char expect[80];
	workqueue_t *wq;
	int n;

	for (n = 1; n <= 2; n++) {
		shim_printk_clear();
		shim_fail_kthread_nth(n);
		wq = create_workqueue("nothread");
		shim_fail_kthread_nth(0);
		if (n > num_online_cpus()) {
			cr_assert_not_null(
				wq); /* uniprocessor: one thread only */
			destroy_workqueue(wq);
		} else {
			cr_assert_null(wq, "kernel_thread #%d failed", n);
			snprintf(expect, sizeof(expect),
				 "create_workqueue(nothread): "
				 "cannot start the worker of cpu %d",
				 nth_online_cpu(n - 1));
			cr_assert_printk(expect);
		}
		wait_kthreads_running(threads);
		cr_assert_eq(shim_kmalloc_outstanding(), outstanding,
			     "leak when kernel_thread #%d fails", n);
	}
}

/* --- the hot paths never allocate ------------------------------------- */

Test(workqueue, queue_work_queue_delayed_work_and_destroy_never_allocate)
{
	struct counted_work now, later, cancelled, waiting, again;
	unsigned long calls;
	workqueue_t *wq;

	shim_clock_virtual();
	wq = create_workqueue("noalloc");
	counted_work_init(&now);
	counted_work_init(&later);
	counted_work_init(&cancelled);
	counted_work_init(&waiting);
	counted_work_init(&again);

	calls = shim_kmalloc_calls();
	shim_fail_kmalloc_nth(1); /* any allocation now would fail */
	cr_assert_eq(queue_work(wq, &now.work), 1);
	cr_assert_eq(queue_delayed_work(wq, &later.work, 5), 1);
	cr_assert_eq(queue_delayed_work(wq, &cancelled.work, 3), 1);
	cr_assert_eq(cancel_delayed_work(&cancelled.work), 1);
	shim_clock_advance(5);
	flush_workqueue(wq);
	cr_assert_eq(runs(&now), 1);
	cr_assert_eq(runs(&later), 1);
	cr_assert_eq(runs(&cancelled), 0);
	cr_assert_eq(queue_work(wq, &again.work), 1);
	cr_assert_eq(queue_delayed_work(wq, &waiting.work, 100), 1);
	destroy_workqueue(wq);
	cr_assert_eq(shim_kmalloc_calls(), calls, "%lu allocations",
		     shim_kmalloc_calls() - calls);
	shim_fail_kmalloc_nth(0);
	cr_assert_eq(runs(&again), 1);
	cr_assert_eq(runs(&waiting), 0);
}
