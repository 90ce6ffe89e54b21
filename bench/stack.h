/*
 * stack.h - one deferred-work interface over the three things compared.
 *
 * A benchmark source is compiled once per stack it measures:
 *   -DBENCH_STACK_NEW     the workqueue core: schedule_work() on "events",
 *                         or queue_work() on a queue of its own;
 *   -DBENCH_STACK_LEGACY  the keventd task queue: schedule_task();
 *   -DBENCH_STACK_REF     the reference: liburcu's wait-free concurrent
 *                         queue (wfcqueue) served by one pthread that
 *                         sleeps on a futex; no shim at all.
 * Each gives bench_work_t, bench_init_work(), bench_queue(),
 * bench_setup(variant) and bench_teardown().  Routines have the kernel's
 * signature, void f(void *), and run once per accepted queueing.
 */
#ifndef _BENCH_STACK_H
#define _BENCH_STACK_H

#include "bench.h"

#if defined(BENCH_STACK_NEW)

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

typedef struct work_struct bench_work_t;
#define BENCH_STACK		"new"
#define BENCH_DEFAULT_VARIANT	"queue_work"

static struct workqueue_struct *bench_wq;	/* NULL: the events queue */

#define bench_init_work(w, f, d)	INIT_WORK((w), (f), (d))

static inline int bench_queue(bench_work_t *work)
{
	return bench_wq ? queue_work(bench_wq, work) : schedule_work(work);
}

static inline void bench_flush(void)
{
	if (bench_wq)
		flush_workqueue(bench_wq);
	else
		flush_scheduled_work();
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

#elif defined(BENCH_STACK_LEGACY)

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/tqueue.h>

typedef struct tq_struct bench_work_t;
#define BENCH_STACK		"legacy"
#define BENCH_DEFAULT_VARIANT	"schedule_task"

#define bench_init_work(w, f, d)	INIT_TQUEUE((w), (f), (d))

static inline int bench_queue(bench_work_t *work)
{
	return schedule_task(work);
}

static inline void bench_flush(void)
{
	flush_scheduled_tasks();
}

static inline int bench_setup(const char *variant)
{
	return strcmp(variant, "schedule_task") ? -1 : 0;
}

static inline void bench_teardown(void)
{
}

#elif defined(BENCH_STACK_REF)

#define _LGPL_SOURCE
#include <pthread.h>
#include <urcu/wfcqueue.h>

/*
 * The reference: what a userspace queue does at best here.  Producers
 * append wait-free; the one consumer takes the whole queue at once
 * (splice) and runs it; it sleeps on a futex only when the queue is empty,
 * announcing it (-1) so that a producer knows to wake it, as liburcu's own
 * call_rcu thread does.  A pending bit, as in the stacks, makes a work
 * queued twice run once.
 */
typedef struct bench_ref_work {
	struct cds_wfcq_node node;
	unsigned long pending;
	void (*routine)(void *);
	void *data;
} bench_work_t;

#define BENCH_STACK		"ref"
#define BENCH_DEFAULT_VARIANT	"wfcqueue"

static struct __cds_wfcq_head bench_ref_head;
static struct cds_wfcq_tail bench_ref_tail;
static int32_t bench_ref_futex;			/* -1: the consumer sleeps */
static int bench_ref_stop;
static pthread_t bench_ref_thread;
static struct bench_signal bench_ref_idle;	/* bumped each time it is idle */

static inline void bench_init_work(bench_work_t *work, void (*f)(void *),
				   void *data)
{
	cds_wfcq_node_init(&work->node);
	work->pending = 0;
	work->routine = f;
	work->data = data;
}

static inline int bench_queue(bench_work_t *work)
{
	if (__atomic_exchange_n(&work->pending, 1, __ATOMIC_ACQ_REL))
		return 0;
	cds_wfcq_node_init(&work->node);
	cds_wfcq_enqueue(&bench_ref_head, &bench_ref_tail, &work->node);
	cmm_smp_mb();
	if (__atomic_load_n(&bench_ref_futex, __ATOMIC_RELAXED) == -1) {
		__atomic_store_n(&bench_ref_futex, 0, __ATOMIC_RELAXED);
		bench_futex_wake((uint32_t *) &bench_ref_futex, 1);
	}
	return 1;
}

static void bench_ref_run_all(void)
{
	struct __cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct cds_wfcq_node *node, *next;

	__cds_wfcq_init(&head, &tail);
	__cds_wfcq_splice_blocking(&head, &tail, &bench_ref_head, &bench_ref_tail);
	__cds_wfcq_for_each_blocking_safe(&head, &tail, node, next) {
		bench_work_t *work = caa_container_of(node, bench_work_t, node);
		void (*f)(void *) = work->routine;
		void *data = work->data;

		/* from here the work may be queued again (or freed) */
		__atomic_store_n(&work->pending, 0, __ATOMIC_SEQ_CST);
		f(data);
	}
}

static void *bench_ref_consumer(void *unused)
{
	(void) unused;
	pthread_setname_np(pthread_self(), "refq");
	for (;;) {
		if (!cds_wfcq_empty(&bench_ref_head, &bench_ref_tail)) {
			bench_ref_run_all();
			continue;
		}
		if (__atomic_load_n(&bench_ref_stop, __ATOMIC_ACQUIRE))
			break;
		bench_signal_post(&bench_ref_idle);
		__atomic_store_n(&bench_ref_futex, -1, __ATOMIC_RELAXED);
		cmm_smp_mb();
		if (!cds_wfcq_empty(&bench_ref_head, &bench_ref_tail) ||
		    __atomic_load_n(&bench_ref_stop, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&bench_ref_futex, 0, __ATOMIC_RELAXED);
			continue;
		}
		while (__atomic_load_n(&bench_ref_futex, __ATOMIC_ACQUIRE) == -1)
			bench_futex_wait((uint32_t *) &bench_ref_futex,
					 (uint32_t) -1);
	}
	return NULL;
}

static inline void bench_flush(void)
{
	/* wait until the consumer has found the queue empty once more */
	for (;;) {
		uint32_t seen = bench_signal_read(&bench_ref_idle);

		if (cds_wfcq_empty(&bench_ref_head, &bench_ref_tail) &&
		    __atomic_load_n(&bench_ref_futex, __ATOMIC_ACQUIRE) == -1)
			return;
		bench_signal_wait(&bench_ref_idle, seen);
	}
}

static inline int bench_setup(const char *variant)
{
	if (strcmp(variant, "wfcqueue"))
		return -1;
	__cds_wfcq_init(&bench_ref_head, &bench_ref_tail);
	return pthread_create(&bench_ref_thread, NULL, bench_ref_consumer, NULL)
		? -1 : 0;
}

static inline void bench_teardown(void)
{
	__atomic_store_n(&bench_ref_stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&bench_ref_futex, 0, __ATOMIC_SEQ_CST);
	bench_futex_wake((uint32_t *) &bench_ref_futex, 1);
	pthread_join(bench_ref_thread, NULL);
}

#else
#error "compile with -DBENCH_STACK_NEW, -DBENCH_STACK_LEGACY or -DBENCH_STACK_REF"
#endif

#endif /* _BENCH_STACK_H */
