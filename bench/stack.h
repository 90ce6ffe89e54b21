/*
 * stack.h - one deferred-work interface over the three things compared.
 *
 * A benchmark source is compiled once per stack it measures:
 *   -DBENCH_STACK_WORKQUEUE  the workqueue: schedule_work() on "events",
 *                            or queue_work() on a queue of its own;
 *   -DBENCH_STACK_TASKQUEUE  the taskqueue: schedule_task() to keventd;
 *   -DBENCH_STACK_REFERENCE  the reference: liburcu's wait-free concurrent
 *                            queue (wfcqueue) and a consumer pthread per
 *                            CPU that polls briefly, then sleeps on a
 *                            futex; no shim at all.
 * Each gives bench_work_t, bench_init_work(), bench_queue(),
 * bench_setup(variant) and bench_teardown().  Routines have the kernel's
 * signature, void f(void *), and run once per accepted queueing.
 */
#ifndef _BENCH_STACK_H
#define _BENCH_STACK_H

#include "bench.h"

#if defined(BENCH_STACK_WORKQUEUE)

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

typedef struct work_struct bench_work_t;
#define BENCH_STACK "workqueue"
#define BENCH_DEFAULT_VARIANT "queue_work"

static struct workqueue_struct *bench_wq; /* NULL: the events queue */

#define bench_init_work(w, f, d) INIT_WORK((w), (f), (d))

static inline int bench_queue(bench_work_t *work)
{
	return bench_wq ? queue_work(bench_wq, work) : schedule_work(work);
}

/* "schedule_work": the shared events queue; "queue_work": one of its own */
static inline int bench_setup(const char *variant)
{
	if (!strcmp(variant, "schedule_work"))
		return 0;
	if (strcmp(variant, "queue_work"))
		return -1;
	bench_wq = create_workqueue("bench");
	return bench_wq ? 0 : -1;
}

static inline void bench_teardown(void)
{
	if (bench_wq)
		destroy_workqueue(bench_wq);
	bench_wq = NULL;
}

#elif defined(BENCH_STACK_TASKQUEUE)

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/tqueue.h>

typedef struct tq_struct bench_work_t;
#define BENCH_STACK "taskqueue"
#define BENCH_DEFAULT_VARIANT "schedule_task"

#define bench_init_work(w, f, d) INIT_TQUEUE((w), (f), (d))

static inline int bench_queue(bench_work_t *work)
{
	return schedule_task(work);
}

static inline int bench_setup(const char *variant)
{
	return strcmp(variant, "schedule_task") ? -1 : 0;
}

static inline void bench_teardown(void)
{
}

#elif defined(BENCH_STACK_REFERENCE)

#define _LGPL_SOURCE
#include <pthread.h>
#include <sched.h>
#include <urcu/wfcqueue.h>

/*
 * The reference: the best deferred-work queue we can write on liburcu, to
 * tell how far the stacks are from what a userspace queue can do here.
 * Its layout is the workqueue's: a queue and a consumer thread per CPU,
 * the consumer pinned to its CPU, and a work goes to the queue of the CPU
 * it is queued from.  (A single consumer's speed would depend on where the
 * host runs it: beside its producer, sharing the cache, or on the other
 * CPU, where every work crosses between caches.)  Producers append
 * wait-free; a consumer takes its whole queue at once (splice) and runs
 * it.  When it finds the queue empty it polls it BENCH_REF_SPIN_POLLS
 * times, then, after a burst (more than one work in its last pass),
 * yields once, as our worker does; only then does it announce (-1) that
 * it will sleep, and sleep on a futex.  A producer makes the wake-up
 * system call only if the consumer announced it.  A pending bit, as in
 * the stacks, makes a work queued twice run once; unlike the workqueue,
 * the reference does not keep a work requeued from another CPU off that
 * CPU while it still runs there.
 */
typedef struct bench_ref_work {
	struct cds_wfcq_node node;
	unsigned long pending;
	void (*func)(void *);
	void *data;
} bench_work_t;

#define BENCH_STACK "reference"
#define BENCH_DEFAULT_VARIANT "wfcqueue"

/*
 * How many times a consumer polls its empty queue before it sleeps: a
 * work queued meanwhile (from a producer on another CPU) costs neither
 * side a system call.  Few, since a producer on the same CPU cannot run
 * while it polls; -DBENCH_REF_SPIN_POLLS=N builds another reference.
 */
#ifndef BENCH_REF_SPIN_POLLS
#define BENCH_REF_SPIN_POLLS 16
#endif
#define BENCH_REF_MAX_CPUS 256

struct bench_ref_cpu {
	struct __cds_wfcq_head head;
	struct cds_wfcq_tail tail __attribute__((aligned(64)));
	int32_t futex; /* -1: the consumer sleeps */
	int stop;
	int running;
	int cpu;
	pthread_t thread;
} __attribute__((aligned(64)));

static struct bench_ref_cpu bench_ref_cpus[BENCH_REF_MAX_CPUS];
static int bench_ref_first = -1; /* the queue of a CPU with none */

static inline void bench_init_work(bench_work_t *work, void (*f)(void *),
				   void *data)
{
	cds_wfcq_node_init(&work->node);
	work->pending = 0;
	work->func = f;
	work->data = data;
}

static inline struct bench_ref_cpu *bench_ref_local(void)
{
	int cpu = sched_getcpu();

	if (cpu < 0 || cpu >= BENCH_REF_MAX_CPUS ||
	    !bench_ref_cpus[cpu].running)
		cpu = bench_ref_first;
	return &bench_ref_cpus[cpu];
}

static inline int bench_queue(bench_work_t *work)
{
	struct bench_ref_cpu *q;

	if (__atomic_exchange_n(&work->pending, 1, __ATOMIC_ACQ_REL))
		return 0;
	q = bench_ref_local();
	cds_wfcq_node_init(&work->node);
	/*
	 * No barrier of our own before reading the futex word: the enqueue's
	 * exchange of the tail, the point where the queue stops being empty
	 * for the consumer, is one (uatomic_xchg() is a full barrier).
	 */
	cds_wfcq_enqueue(&q->head, &q->tail, &work->node);
	if (__atomic_load_n(&q->futex, __ATOMIC_RELAXED) == -1 &&
	    __atomic_exchange_n(&q->futex, 0, __ATOMIC_RELAXED) == -1)
		bench_futex_wake((uint32_t *) &q->futex, 1);
	return 1;
}

/* Run what is queued on @q; returns how many works ran. */
static long bench_ref_run_all(struct bench_ref_cpu *q)
{
	struct __cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct cds_wfcq_node *node, *next;
	long n = 0;

	__cds_wfcq_init(&head, &tail);
	__cds_wfcq_splice_blocking(&head, &tail, &q->head, &q->tail);
	__cds_wfcq_for_each_blocking_safe(&head, &tail, node, next)
	{
		bench_work_t *work = caa_container_of(node, bench_work_t, node);
		void (*f)(void *) = work->func;
		void *data = work->data;

		/* from here the work may be queued again (or freed) */
		__atomic_store_n(&work->pending, 0, __ATOMIC_SEQ_CST);
		f(data);
		n++;
	}
	return n;
}

static inline int bench_ref_idle(struct bench_ref_cpu *q)
{
	return cds_wfcq_empty(&q->head, &q->tail) &&
	       !__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE);
}

/* Poll the empty queue BENCH_REF_SPIN_POLLS times: 1 if it still is. */
static int bench_ref_spin(struct bench_ref_cpu *q)
{
	int i;

	for (i = 0; i < BENCH_REF_SPIN_POLLS; i++) {
		caa_cpu_relax();
		if (!bench_ref_idle(q))
			return 0;
	}
	return 1;
}

static void *bench_ref_consumer(void *arg)
{
	struct bench_ref_cpu *q = arg;
	char name[16];
	int burst = 0;

	snprintf(name, sizeof(name), "refq/%d", q->cpu);
	pthread_setname_np(pthread_self(), name);
	for (;;) {
		if (!cds_wfcq_empty(&q->head, &q->tail)) {
			burst = bench_ref_run_all(q) > 1;
			continue;
		}
		if (__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE))
			break;
		if (!bench_ref_spin(q))
			continue;
		if (burst) {
			burst = 0;
			sched_yield();
			continue;
		}
		__atomic_store_n(&q->futex, -1, __ATOMIC_RELAXED);
		cmm_smp_mb();
		if (!bench_ref_idle(q)) {
			__atomic_store_n(&q->futex, 0, __ATOMIC_RELAXED);
			continue;
		}
		while (__atomic_load_n(&q->futex, __ATOMIC_ACQUIRE) == -1)
			bench_futex_wait((uint32_t *) &q->futex, (uint32_t) -1);
	}
	return NULL;
}

static inline void bench_teardown(void);

/* A consumer pinned to each CPU this process may run on. */
static inline int bench_setup(const char *variant)
{
	cpu_set_t allowed, one;
	pthread_attr_t attr;
	int cpu;

	if (strcmp(variant, "wfcqueue") ||
	    sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	for (cpu = 0; cpu < BENCH_REF_MAX_CPUS; cpu++) {
		struct bench_ref_cpu *q = &bench_ref_cpus[cpu];

		if (!CPU_ISSET(cpu, &allowed))
			continue;
		__cds_wfcq_init(&q->head, &q->tail);
		q->cpu = cpu;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		if (pthread_create(&q->thread, &attr, bench_ref_consumer, q)) {
			pthread_attr_destroy(&attr);
			bench_teardown();
			return -1;
		}
		pthread_attr_destroy(&attr);
		q->running = 1;
		if (bench_ref_first < 0)
			bench_ref_first = cpu;
	}
	return bench_ref_first < 0 ? -1 : 0;
}

static inline void bench_teardown(void)
{
	int cpu;

	for (cpu = 0; cpu < BENCH_REF_MAX_CPUS; cpu++) {
		struct bench_ref_cpu *q = &bench_ref_cpus[cpu];

		if (!q->running)
			continue;
		__atomic_store_n(&q->stop, 1, __ATOMIC_RELEASE);
		cmm_smp_mb();
		if (__atomic_exchange_n(&q->futex, 0, __ATOMIC_SEQ_CST) == -1)
			bench_futex_wake((uint32_t *) &q->futex, 1);
		pthread_join(q->thread, NULL);
		q->running = 0;
	}
	bench_ref_first = -1;
}

#else
#error "compile with -DBENCH_STACK_WORKQUEUE, -DBENCH_STACK_TASKQUEUE or -DBENCH_STACK_REFERENCE"
#endif

#endif /* _BENCH_STACK_H */
