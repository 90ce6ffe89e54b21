/*
 * tasks.h - tasks that the taskqueue tests share: one that counts its runs
 * and records where it ran, and one that keeps keventd busy until the test
 * lets it go (so that what is scheduled behind it stays queued).
 */
#ifndef _TESTS_TASKQUEUE_TASKS_H
#define _TESTS_TASKQUEUE_TASKS_H

#include "stack.h"

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/slab.h>
#include <linux/tqueue.h>

struct counted_task {
	struct tq_struct tq;
	atomic_t runs;
	/* what the last run saw */
	char comm[16];
	unsigned long preempt;
	int in_interrupt, in_softirq, keventd, cpu;
	struct task_struct *task;
	struct completion done; /* completed by each run */
};

static __unused_helper void counted_task_fn(void *data)
{
	struct counted_task *ct = data;

	memcpy(ct->comm, current->comm, sizeof(ct->comm));
	ct->preempt = preempt_count();
	ct->in_interrupt = in_interrupt();
	ct->in_softirq = in_softirq();
	ct->keventd = current_is_keventd();
	ct->cpu = smp_processor_id();
	ct->task = current;
	atomic_inc_return(&ct->runs);
	complete(&ct->done);
}

static __unused_helper void counted_task_init(struct counted_task *ct)
{
	memset(ct, 0, sizeof(*ct));
	INIT_TQUEUE(&ct->tq, counted_task_fn, ct);
	init_completion(&ct->done);
}

static __unused_helper int runs(struct counted_task *ct)
{
	return atomic_add_return(0, &ct->runs);
}

/* A task that keeps keventd busy until released. */
struct blocker {
	struct tq_struct tq;
	struct completion started, release;
};

static __unused_helper void blocker_fn(void *data)
{
	struct blocker *b = data;

	complete(&b->started);
	wait_for_completion(&b->release);
}

static __unused_helper void block_keventd(struct blocker *b)
{
	INIT_TQUEUE(&b->tq, blocker_fn, b);
	init_completion(&b->started);
	init_completion(&b->release);
	cr_assert_eq(schedule_task(&b->tq), 1);
	wait_for_completion(&b->started);
}

static __unused_helper void noop_fn(void *data)
{
}

#endif /* _TESTS_TASKQUEUE_TASKS_H */
