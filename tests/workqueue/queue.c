/*
 * queue.c - queue_work(): queued once, run exactly once, in process
 * context on the worker of the queueing CPU.  Queued again from another
 * CPU while it runs, a work runs there at the same time as itself, as in
 * 2.5.41; on a non-reentrant queue (WQ_NON_REENTRANT, or every queue with
 * SHIM_WQ_NONREENTRANT=1) it waits behind itself, as from 2.6.36.
 */
#include "works.h"

TestSuite(workqueue, .timeout = SUITE_TIMEOUT, .init = quiet_console);

Test(workqueue, queue_work_returns_1_and_the_work_runs_once)
{
	workqueue_t *wq = create_workqueue("once");
	struct counted_work cw;

	cr_assert_not_null(wq);
	counted_work_init(&cw);
	cr_assert_eq(queue_work(wq, &cw.work), 1);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);

	/* once it has started it is no longer pending: queued and run again */
	cr_assert_eq(queue_work(wq, &cw.work), 1);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 2);
	destroy_workqueue(wq);
	cr_assert_eq(runs(&cw), 2);
}

Test(workqueue, queue_work_on_a_pending_work_returns_0_and_it_runs_once)
{
	workqueue_t *wq = create_workqueue("pending");
	struct counted_work cw;
	struct blocker b;

	pin_to_cpu(nth_online_cpu(0));
	block_worker(wq, &b);
	counted_work_init(&cw);
	cr_assert_eq(queue_work(wq, &cw.work), 1);
	cr_assert_eq(queue_work(wq, &cw.work), 0);
	cr_assert_eq(queue_work(wq, &cw.work), 0);
	cr_assert_eq(runs(&cw), 0);
	unblock_worker(&b);
	flush_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
	destroy_workqueue(wq);
	cr_assert_eq(runs(&cw), 1);
}

Test(workqueue, work_runs_in_process_context_on_a_worker_named_name_cpu)
{
	workqueue_t *wq = create_workqueue("ctx");
	struct counted_work cw;
	char comm[16];

	counted_work_init(&cw);
	cr_assert_eq(queue_work(wq, &cw.work), 1);
	wait_for_completion(&cw.done);
	cr_assert_eq(cw.in_interrupt, 0);
	cr_assert_eq(cw.preempt, 0, "preempt_count 0x%lx", cw.preempt);
	cr_assert_neq(cw.task, current, "ran in the queueing thread");
	cr_assert(cw.task->flags & PF_KTHREAD);
	cr_assert_str_eq(cw.comm,
			 worker_comm("ctx", cw.cpu, comm, sizeof(comm)));
	cr_assert(thread_named(comm), "no host thread is named %s", comm);
	cr_assert_eq(cw.keventd, 0, "a private queue's worker is not keventd");
	destroy_workqueue(wq);
}

/* --- a work may sleep ---------------------------------------------------- */

struct sleeper {
	work_t work;
	unsigned long start, end;
	long left;
	atomic_t done;
};

static void sleeper_fn(void *data)
{
	struct sleeper *s = data;

	s->start = jiffies;
	set_current_state(TASK_UNINTERRUPTIBLE);
	s->left = schedule_timeout(5);
	s->end = jiffies;
	atomic_add_return(1, &s->done);
}

Test(workqueue, work_may_sleep_in_schedule_timeout)
{
	workqueue_t *wq;
	struct sleeper s = { .done = ATOMIC_INIT(0) };

	shim_clock_virtual();
	wq = create_workqueue("sleepy");
	INIT_WORK(&s.work, sleeper_fn, &s);
	cr_assert_eq(queue_work(wq, &s.work), 1);
	/* virtual time moves only when the test moves it */
	while (!atomic_add_return(0, &s.done)) {
		shim_clock_advance(1);
		sched_yield();
	}
	cr_assert_eq(s.left, 0);
	cr_assert(time_after_eq(s.end, s.start + 5),
		  "woke %lu jiffies after it went to sleep for 5",
		  s.end - s.start);
	destroy_workqueue(wq);
}

struct waiter {
	work_t work;
	struct completion started, go;
	atomic_t go_given;
	int saw_go_given;
};

static void waiter_fn(void *data)
{
	struct waiter *w = data;

	complete(&w->started);
	wait_for_completion(&w->go);
	w->saw_go_given = atomic_add_return(0, &w->go_given);
}

Test(workqueue, work_may_sleep_on_a_completion)
{
	workqueue_t *wq = create_workqueue("waiter");
	struct waiter w = { .go_given = ATOMIC_INIT(0) };

	INIT_WORK(&w.work, waiter_fn, &w);
	init_completion(&w.started);
	init_completion(&w.go);
	cr_assert_eq(queue_work(wq, &w.work), 1);
	wait_for_completion(&w.started);
	atomic_add_return(1, &w.go_given);
	complete(&w.go);
	flush_workqueue(wq);
	cr_assert_eq(w.saw_go_given, 1,
		     "the work did not wait for its completion");
	destroy_workqueue(wq);
}

/* --- which worker ------------------------------------------------------- */

struct placed {
	workqueue_t *wq;
	struct counted_work cw;
	int queued_on;
	int ret;
};

static void *queue_from_here(void *arg)
{
	struct placed *p = arg;

	p->queued_on = sched_getcpu();
	p->ret = queue_work(p->wq, &p->cw.work);
	return NULL;
}

Test(workqueue, work_goes_to_the_worker_of_the_cpu_it_was_queued_from)
{
	workqueue_t *wq = create_workqueue("place");
	struct placed p[NR_CPUS];
	pthread_t t;
	char comm[16];
	int cpu;

	for_each_online_cpu(cpu) {
		p[cpu].wq = wq;
		counted_work_init(&p[cpu].cw);
		start_pinned(&t, cpu, queue_from_here, &p[cpu]);
		join(t);
		cr_assert_eq(p[cpu].queued_on, cpu);
		cr_assert_eq(p[cpu].ret, 1);
	}
	flush_workqueue(wq);
	for_each_online_cpu(cpu) {
		cr_assert_eq(runs(&p[cpu].cw), 1);
		cr_assert_eq(p[cpu].cw.cpu, cpu, "queued on cpu %d, ran on %d",
			     cpu, p[cpu].cw.cpu);
		cr_assert_str_eq(p[cpu].cw.comm,
				 worker_comm("place", cpu, comm, sizeof(comm)));
	}
	destroy_workqueue(wq);
}

/* --- concurrently with itself, or not ----------------------------------- */

struct reentry {
	work_t work;
	atomic_t inside;
	int max_inside;
	atomic_t runs;
	unsigned long cpus_seen;
	/* for the held variant: the first run waits here */
	struct completion first_started, release;
	int hold_first;
	char comm[2][16];
};

static void reentry_fn(void *data)
{
	struct reentry *r = data;
	int inside = atomic_inc_return(&r->inside);
	int max = __atomic_load_n(&r->max_inside, __ATOMIC_RELAXED);
	int run;

	while (inside > max &&
	       !__atomic_compare_exchange_n(&r->max_inside, &max, inside, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
	__atomic_or_fetch(&r->cpus_seen, 1UL << smp_processor_id(),
			  __ATOMIC_RELAXED);
	run = atomic_inc_return(&r->runs);
	if (run <= 2)
		memcpy(r->comm[run - 1], current->comm, 16);
	if (r->hold_first && run == 1) {
		complete(&r->first_started);
		wait_for_completion(&r->release);
	} else {
		udelay(20); /* a window for a second worker to come in */
	}
	atomic_dec_return(&r->inside);
}

struct producer {
	workqueue_t *wq;
	work_t *work;
	int accepted, want;
};

static void *produce_until_accepted(void *arg)
{
	struct producer *p = arg;

	while (p->accepted < p->want) {
		if (queue_work(p->wq, p->work))
			p->accepted++;
		else
			sched_yield(); /* the worker on our CPU may need it */
	}
	return NULL;
}

Test(workqueue, non_reentrant_work_never_runs_concurrently_with_itself)
{
	workqueue_t *wq;
	struct reentry r;
	struct producer p[2];
	pthread_t t[2];
	int i;

	skip_unless_smp();
	wq = alloc_workqueue("reentry", WQ_NON_REENTRANT, 0);
	cr_assert_not_null(wq);
	memset(&r, 0, sizeof(r));
	INIT_WORK(&r.work, reentry_fn, &r);
	for (i = 0; i < 2; i++) {
		p[i] = (struct producer){ .wq = wq,
					  .work = &r.work,
					  .want = 3000 };
		start_pinned(&t[i], nth_online_cpu(i), produce_until_accepted,
			     &p[i]);
	}
	for (i = 0; i < 2; i++)
		join(t[i]);
	flush_workqueue(wq);
	cr_assert_eq(r.max_inside, 1, "%d runs of one work at once",
		     r.max_inside);
	cr_assert_eq(atomic_add_return(0, &r.runs),
		     p[0].accepted + p[1].accepted,
		     "every accepted queueing runs exactly once");
	destroy_workqueue(wq);
}

/*
 * Step by step: held on the worker of cpu A, the work is queued again from
 * cpu B, and a counted work from B after it.  Once that one has run, B's
 * worker has had its turn: the work has run there too, at the same time
 * as itself (2.5.41), or it waits behind itself on A (non-reentrant).
 * @wq NULL: the events queue.  Usable in a child: no Criterion asserts.
 */
struct requeue_seen {
	int a, b;
	int requeued;	       /* what the second queue_work() said */
	int runs_while_held;   /* runs once B's worker had its turn */
	int inside_while_held; /* the most runs at once by then */
	char later_comm[16];   /* where the counted work ran */
	int runs, max_inside;  /* once all is done */
	char comm[2][16];      /* where the two runs ran */
};

static int queue_on(workqueue_t *wq, work_t *work)
{
	return wq ? queue_work(wq, work) : schedule_work(work);
}

static int requeue_while_running(workqueue_t *wq, struct requeue_seen *seen)
{
	struct reentry r;
	struct counted_work later;
	int err;

	memset(seen, 0, sizeof(*seen));
	seen->a = nth_online_cpu(0);
	seen->b = nth_online_cpu(1);
	memset(&r, 0, sizeof(r));
	INIT_WORK(&r.work, reentry_fn, &r);
	init_completion(&r.first_started);
	init_completion(&r.release);
	r.hold_first = 1;

	err = pin_thread(seen->a);
	if (err)
		return err;
	if (queue_on(wq, &r.work) != 1)
		return EINVAL;
	wait_for_completion(&r.first_started);

	err = pin_thread(seen->b);
	if (err) {
		complete(&r.release);
		return err;
	}
	seen->requeued = queue_on(wq, &r.work);
	counted_work_init(&later);
	queue_on(wq, &later.work);
	wait_for_completion(&later.done);
	seen->runs_while_held = atomic_add_return(0, &r.runs);
	seen->inside_while_held =
		__atomic_load_n(&r.max_inside, __ATOMIC_SEQ_CST);
	memcpy(seen->later_comm, later.comm, sizeof(later.comm));

	complete(&r.release);
	if (wq)
		flush_workqueue(wq);
	else
		flush_scheduled_work();
	seen->runs = atomic_add_return(0, &r.runs);
	seen->max_inside = r.max_inside;
	memcpy(seen->comm, r.comm, sizeof(r.comm));
	return 0;
}

static void assert_ran_concurrently(const struct requeue_seen *seen,
				    const char *name)
{
	char comm[16];

	cr_assert_eq(seen->requeued, 1, "running is not pending");
	cr_assert_str_eq(seen->later_comm,
			 worker_comm(name, seen->b, comm, sizeof(comm)));
	cr_assert_eq(
		seen->runs_while_held, 2,
		"queued again from cpu %d while it ran on cpu %d, the work "
		"did not run on cpu %d's worker meanwhile",
		seen->b, seen->a, seen->b);
	cr_assert_eq(seen->inside_while_held, 2,
		     "the work did not run concurrently with itself");
	cr_assert_str_eq(seen->comm[0],
			 worker_comm(name, seen->a, comm, sizeof(comm)));
	cr_assert_str_eq(seen->comm[1],
			 worker_comm(name, seen->b, comm, sizeof(comm)));
	cr_assert_eq(seen->runs, 2,
		     "every accepted queueing runs exactly once");
}

static void assert_waited_behind_itself(const struct requeue_seen *seen,
					const char *name)
{
	char comm[16];

	cr_assert_eq(seen->requeued, 1, "running is not pending");
	cr_assert_str_eq(seen->later_comm,
			 worker_comm(name, seen->b, comm, sizeof(comm)));
	cr_assert_eq(seen->runs_while_held, 1,
		     "the work ran on cpu %d's worker while it ran on cpu %d's",
		     seen->b, seen->a);
	cr_assert_eq(seen->runs, 2);
	cr_assert_eq(seen->max_inside, 1);
	worker_comm(name, seen->a, comm, sizeof(comm));
	cr_assert_str_eq(seen->comm[0], comm);
	cr_assert_str_eq(seen->comm[1], comm);
}

/* A run of this binary under SHIM_WQ_NONREENTRANT=1 has no 2.5.41 queue. */
static void skip_unless_2541_default(void)
{
	const char *v = getenv("SHIM_WQ_NONREENTRANT");

	if (v && *v && strcmp(v, "0"))
		cr_skip_test("SHIM_WQ_NONREENTRANT=%s makes every queue "
			     "non-reentrant; the child tests below check the "
			     "default",
			     v);
}

Test(workqueue, work_queued_from_another_cpu_while_it_runs_runs_there_at_once)
{
	workqueue_t *wq;
	struct requeue_seen seen;

	skip_unless_smp();
	skip_unless_2541_default();
	wq = create_workqueue("again");
	cr_assert_not_null(wq);
	cr_assert_eq(requeue_while_running(wq, &seen), 0);
	assert_ran_concurrently(&seen, "again");
	destroy_workqueue(wq);
}

Test(workqueue, on_a_non_reentrant_queue_it_waits_behind_itself)
{
	workqueue_t *wq;
	struct requeue_seen seen;

	skip_unless_smp();
	wq = alloc_workqueue("behind", WQ_NON_REENTRANT, 0);
	cr_assert_not_null(wq);
	cr_assert_eq(requeue_while_running(wq, &seen), 0);
	assert_waited_behind_itself(&seen, "behind");
	destroy_workqueue(wq);
}

/*
 * The per-run switch, on the events queue, in a fresh process each: the
 * child's environment is ours less the shim's knobs, plus the one given.
 */
static const char *or_dash(const char *comm)
{
	return *comm ? comm : "-";
}

CHILD_SCENARIO(events_requeued_from_another_cpu)
{
	struct requeue_seen seen;
	int err = requeue_while_running(NULL, &seen);

	child_check(err == 0);
	/* for the parent to read back */
	printf("seen: %d %d %d %d %d %s %d %d %s %s\n", seen.a, seen.b,
	       seen.requeued, seen.runs_while_held, seen.inside_while_held,
	       or_dash(seen.later_comm), seen.runs, seen.max_inside,
	       or_dash(seen.comm[0]), or_dash(seen.comm[1]));
}

static void events_requeued_in_child(const char *env, struct requeue_seen *seen)
{
	static struct child_result res;
	const char *line;

	run_child("events_requeued_from_another_cpu", env, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "the child failed (status 0x%x):\n%s", res.status, res.out);
	line = strstr(res.out, "seen: ");
	cr_assert(line && sscanf(line,
				 "seen: %d %d %d %d %d %15s %d %d %15s %15s",
				 &seen->a, &seen->b, &seen->requeued,
				 &seen->runs_while_held,
				 &seen->inside_while_held, seen->later_comm,
				 &seen->runs, &seen->max_inside, seen->comm[0],
				 seen->comm[1]) == 10,
		  "the child said:\n%s", res.out);
}

Test(workqueue, events_work_may_run_concurrently_with_itself_by_default)
{
	struct requeue_seen seen;

	skip_unless_smp();
	events_requeued_in_child(NULL, &seen);
	assert_ran_concurrently(&seen, "events");
}

Test(workqueue, shim_wq_nonreentrant_1_makes_the_events_queue_non_reentrant)
{
	struct requeue_seen seen;

	skip_unless_smp();
	events_requeued_in_child("SHIM_WQ_NONREENTRANT=1", &seen);
	assert_waited_behind_itself(&seen, "events");
}

CHILD_SCENARIO(boot_only)
{
}

Test(workqueue, shim_wq_nonreentrant_other_than_0_or_1_stops_the_boot)
{
	struct child_result res;

	run_child("boot_only", "SHIM_WQ_NONREENTRANT=yes", &res);
	assert_child_bug(&res,
			 "Kernel panic: workqueue: SHIM_WQ_NONREENTRANT=yes: "
			 "1 makes every queue non-reentrant");
}

Test(workqueue, alloc_workqueue_refuses_what_it_does_not_emulate,
     .init = quiet_console)
{
	workqueue_t *wq;

	cr_assert_null(
		alloc_workqueue("unbound", WQ_NON_REENTRANT | (1 << 1), 0));
	cr_assert_printk("alloc_workqueue(unbound): flags 0x3: only "
			 "WQ_NON_REENTRANT is emulated");
	cr_assert_null(alloc_workqueue("wide", 0, 4));
	cr_assert_printk("alloc_workqueue(wide): max_active 4");
	cr_assert_null(alloc_workqueue("abcdefghijk", WQ_NON_REENTRANT, 0));
	cr_assert_printk(
		"alloc_workqueue: name \"abcdefghijk\" is longer than 10");
	cr_assert_eq(shim_kmalloc_outstanding(), 0);

	wq = alloc_workqueue("one", 0, 1);
	cr_assert_not_null(wq, "max_active 1 is what 2.5 had");
	destroy_workqueue(wq);
}

/* --- from other contexts, and by works themselves ---------------------- */

struct from_timer {
	workqueue_t *wq;
	struct counted_work cw;
	int ret;
	int timer_in_interrupt;
};

static void queue_from_timer(unsigned long data)
{
	struct from_timer *ft = (struct from_timer *) data;

	ft->timer_in_interrupt = in_interrupt();
	ft->ret = queue_work(ft->wq, &ft->cw.work);
}

Test(workqueue, queue_work_from_a_timer_runs_the_work_in_process_context)
{
	struct from_timer ft;
	struct timer_list timer;

	shim_clock_virtual();
	ft.wq = create_workqueue("fromtimer");
	counted_work_init(&ft.cw);
	init_timer(&timer);
	timer.function = queue_from_timer;
	timer.data = (unsigned long) &ft;
	timer.expires = jiffies + 1;
	add_timer(&timer);
	shim_clock_advance(1);
	cr_assert_eq(timer_pending(&timer), 0);
	cr_assert_eq(ft.timer_in_interrupt, 1);
	cr_assert_eq(ft.ret, 1);
	wait_for_completion(&ft.cw.done);
	cr_assert_eq(ft.cw.in_interrupt, 0);
	cr_assert_eq(ft.cw.preempt, 0);
	destroy_workqueue(ft.wq);
}

struct requeuer {
	workqueue_t *wq;
	work_t work;
	int times, wanted, refused;
	struct completion last;
};

static void requeue_fn(void *data)
{
	struct requeuer *r = data;

	/* no cr_assert off the test's thread: record, check later */
	if (++r->times < r->wanted)
		r->refused += !queue_work(r->wq, &r->work);
	else
		complete(&r->last);
}

Test(workqueue, work_may_requeue_itself)
{
	struct requeuer r = { .wanted = 100 };

	r.wq = create_workqueue("requeue");
	INIT_WORK(&r.work, requeue_fn, &r);
	init_completion(&r.last);
	cr_assert_eq(queue_work(r.wq, &r.work), 1);
	wait_for_completion(&r.last);
	flush_workqueue(r.wq);
	cr_assert_eq(r.times, 100);
	cr_assert_eq(r.refused, 0, "a running work is not pending");
	destroy_workqueue(r.wq);
}

struct spawner {
	workqueue_t *wq;
	work_t work;
	struct counted_work same_queue, events;
	int ret_same, ret_events;
};

static void spawner_fn(void *data)
{
	struct spawner *s = data;

	s->ret_same = queue_work(s->wq, &s->same_queue.work);
	s->ret_events = schedule_work(&s->events.work);
}

Test(workqueue, work_may_queue_other_works_and_call_schedule_work)
{
	struct spawner s;
	char comm[16];

	s.wq = create_workqueue("spawner");
	INIT_WORK(&s.work, spawner_fn, &s);
	counted_work_init(&s.same_queue);
	counted_work_init(&s.events);
	cr_assert_eq(queue_work(s.wq, &s.work), 1);
	wait_for_completion(&s.same_queue.done);
	wait_for_completion(&s.events.done);
	cr_assert_eq(s.ret_same, 1);
	cr_assert_eq(s.ret_events, 1);
	cr_assert_str_eq(s.same_queue.comm,
			 worker_comm("spawner", s.same_queue.cpu, comm,
				     sizeof(comm)));
	cr_assert_str_eq(s.events.comm, worker_comm("events", s.events.cpu,
						    comm, sizeof(comm)));
	destroy_workqueue(s.wq);
	cr_assert_eq(runs(&s.same_queue), 1);
	cr_assert_eq(runs(&s.events), 1);
}

/*
 * An idle work may be queued anywhere, even after the queue it last ran on
 * is gone: reiserfs queues its static commit work on a commit_wq that is
 * destroyed at the last unmount and created again at the next mount.
 * (Run under AddressSanitizer, the non-reentrant case shows queue_work()
 * reading the freed cpu queue that work->wq_data still points at; see
 * lock_target().)
 */
static void idle_work_moves_to_a_new_queue(unsigned int flags)
{
	workqueue_t *old, *new;
	struct counted_work cw;
	char comm[16];

	counted_work_init(&cw);
	old = alloc_workqueue("old", flags, 0);
	cr_assert_eq(queue_work(old, &cw.work), 1);
	destroy_workqueue(old);
	cr_assert_eq(runs(&cw), 1);

	new = alloc_workqueue("new", flags, 0);
	cr_assert_eq(queue_work(new, &cw.work), 1); /* no INIT_WORK between */
	flush_workqueue(new);
	cr_assert_eq(runs(&cw), 2);
	cr_assert_str_eq(cw.comm,
			 worker_comm("new", cw.cpu, comm, sizeof(comm)));
	destroy_workqueue(new);
}

Test(workqueue,
     idle_work_may_move_to_a_new_queue_after_its_old_one_is_destroyed)
{
	idle_work_moves_to_a_new_queue(0);
}

Test(workqueue,
     idle_work_may_move_to_a_non_reentrant_queue_after_its_old_one_is_gone)
{
	idle_work_moves_to_a_new_queue(WQ_NON_REENTRANT);
}

Test(workqueue, idle_work_may_move_between_live_queues)
{
	workqueue_t *a = create_workqueue("a"), *b = create_workqueue("b");
	struct counted_work cw;
	char comm[16];
	int i;

	counted_work_init(&cw);
	for (i = 0; i < 10; i++) {
		workqueue_t *wq = i & 1 ? b : a;

		cr_assert_eq(queue_work(wq, &cw.work), 1);
		flush_workqueue(wq);
		cr_assert_eq(runs(&cw), i + 1);
		cr_assert_str_eq(cw.comm, worker_comm(i & 1 ? "b" : "a", cw.cpu,
						      comm, sizeof(comm)));
	}
	destroy_workqueue(a);
	destroy_workqueue(b);
}

/* --- initialisers -------------------------------------------------------- */

static atomic_t declared_runs = ATOMIC_INIT(0);

static void declared_fn(void *data)
{
	atomic_add_return(*(int *) data, &declared_runs);
}

static int one = 1, ten = 10;
static DECLARE_WORK(declared_work, declared_fn, &one);

Test(workqueue, declare_work_and_prepare_work_set_routine_and_data)
{
	struct workqueue_struct *wq = create_workqueue("declared");
	struct work_struct *w = &declared_work;

	cr_assert_eq(w->func, declared_fn);
	cr_assert_eq(w->data, &one);
	cr_assert_eq(queue_work(wq, w), 1);
	flush_workqueue(wq);
	cr_assert_eq(atomic_add_return(0, &declared_runs), 1);

	/* PREPARE_WORK changes routine and data only */
	PREPARE_WORK(w, declared_fn, &ten);
	cr_assert_eq(w->data, &ten);
	cr_assert_eq(queue_work(wq, w), 1);
	flush_workqueue(wq);
	cr_assert_eq(atomic_add_return(0, &declared_runs), 11);

	/* INIT_WORK on a work that has run (not pending) is allowed */
	INIT_WORK(w, declared_fn, &one);
	cr_assert_eq(queue_work(wq, w), 1);
	destroy_workqueue(wq);
	cr_assert_eq(atomic_add_return(0, &declared_runs), 12);
}

/* --- SHIM_WQ_SPREAD: the race check's queuer that moves ------------------ */

#define SPREAD_WORKS 8

struct spreader {
	workqueue_t *wq;
	unsigned long pin; /* set_cpus_allowed() first, if not 0 */
	struct counted_work w[SPREAD_WORKS];
	unsigned long cpus; /* the workers' CPUs the works ran on */
	struct completion done;
};

static int spreader_thread(void *arg)
{
	struct spreader *s = arg;
	int i;

	if (s->pin)
		child_check(set_cpus_allowed(current, s->pin) == 0);
	for (i = 0; i < SPREAD_WORKS; i++) {
		counted_work_init(&s->w[i]);
		child_check(queue_work(s->wq, &s->w[i].work) == 1);
	}
	flush_workqueue(s->wq);
	for (i = 0; i < SPREAD_WORKS; i++) {
		child_check(runs(&s->w[i]) == 1);
		s->cpus |= 1UL << s->w[i].cpu;
	}
	complete(&s->done);
	return 0;
}

static unsigned long spread_cpus(workqueue_t *wq, unsigned long pin)
{
	static struct spreader s;

	memset(&s, 0, sizeof(s));
	s.wq = wq;
	s.pin = pin;
	init_completion(&s.done);
	child_check(kernel_thread(spreader_thread, &s, 0) > 0);
	wait_for_completion(&s.done);
	return s.cpus;
}

/*
 * A task free to move queues on each CPU in turn; one set_cpus_allowed()
 * pinned stays on its CPU, as the kernel would keep it there.
 */
CHILD_SCENARIO(spread_follows_cpus_allowed)
{
	workqueue_t *wq = create_workqueue("spread");
	int cpu = nth_online_cpu(1);

	child_check(wq);
	printf("free %#lx pinned %#lx on %d\n", spread_cpus(wq, 0),
	       spread_cpus(wq, 1UL << cpu), cpu);
	destroy_workqueue(wq);
	exit(0);
}

Test(workqueue, spread_queues_on_each_allowed_cpu_and_a_pinned_task_stays)
{
	struct child_result res;
	unsigned long free_cpus, pinned;
	int cpu;

	skip_unless_smp();
	run_child("spread_follows_cpus_allowed", "SHIM_WQ_SPREAD=1", &res);
	cr_assert(WIFEXITED(res.status) && !WEXITSTATUS(res.status),
		  "status 0x%x:\n%s", res.status, res.out);
	cr_assert_eq(sscanf(strstr(res.out, "free ") ?: "",
			    "free %lx pinned %lx on %d", &free_cpus, &pinned,
			    &cpu),
		     3, "%s", res.out);
	cr_assert_eq(free_cpus, cpu_online_map,
		     "a free task's works ran on %#lx, not on every CPU",
		     free_cpus);
	cr_assert_eq(pinned, 1UL << cpu,
		     "a task pinned to CPU %d had its works run on %#lx", cpu,
		     pinned);
}

/*
 * What create_workqueue() asks for (the queue, a worker per CPU) is
 * counted among the resources, refused in its turn, and counted apart as
 * the queue's: a conversion that gives a driver a queue of its own asks
 * for more than the legacy driver did, and the demo compares the rest.
 */
Test(workqueue, create_workqueue_requests_are_counted_as_the_queues)
{
	unsigned long all = shim_resource_requests();
	unsigned long queue = shim_queue_requests();
	workqueue_t *wq = create_workqueue("counted");
	void *p;

	cr_assert_not_null(wq);
	cr_assert_gt(shim_queue_requests() - queue, 1,
		     "its memory and a worker per CPU: %lu",
		     shim_queue_requests() - queue);
	cr_assert_eq(shim_resource_requests() - all,
		     shim_queue_requests() - queue);
	destroy_workqueue(wq);

	queue = shim_queue_requests();
	all = shim_resource_requests();
	p = kmalloc(16, GFP_KERNEL);
	cr_assert_eq(shim_resource_requests() - all, 1);
	cr_assert_eq(shim_queue_requests(), queue, "a kmalloc of the caller's");
	kfree(p);

	/* numbered apart: the caller's first is its kmalloc, not the queue's */
	shim_fail_resource_nth(1);
	wq = create_workqueue("apart");
	cr_assert_not_null(wq);
	cr_assert_null(kmalloc(16, GFP_KERNEL));
	destroy_workqueue(wq);

	/* the queue's first request refused: no queue, nothing left running */
	shim_fail_queue_request_nth(1);
	cr_assert_null(create_workqueue("refused"));
	shim_fail_queue_request_nth(0);
	shim_fail_resource_nth(0);
}
