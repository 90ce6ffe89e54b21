/*
 * works.h - works that the workqueue tests share: one that counts its
 * runs and records where it ran, and one that holds a worker busy until
 * the test lets it go (so that what is queued behind it stays pending).
 */
#ifndef _TESTS_WORKQUEUE_WORKS_H
#define _TESTS_WORKQUEUE_WORKS_H

#include "stack.h"

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/smp_lock.h>
#include <linux/workqueue.h>
#include <asm/processor.h>

struct counted_work {
	work_t work;
	atomic_t runs;
	/* what the last run saw */
	int cpu;
	char comm[16];
	unsigned long preempt;
	int in_interrupt;
	int keventd;
	struct task_struct *task;
	struct completion done; /* completed by each run */
};

static __unused_helper void counted_work_fn(void *data)
{
	struct counted_work *cw = data;

	cw->cpu = smp_processor_id();
	memcpy(cw->comm, current->comm, sizeof(cw->comm));
	cw->preempt = preempt_count();
	cw->in_interrupt = in_interrupt();
	cw->keventd = current_is_keventd();
	cw->task = current;
	atomic_inc_return(&cw->runs);
	complete(&cw->done);
}

static __unused_helper void counted_work_init(struct counted_work *cw)
{
	memset(cw, 0, sizeof(*cw));
	INIT_WORK(&cw->work, counted_work_fn, cw);
	init_completion(&cw->done);
}

static __unused_helper int runs(struct counted_work *cw)
{
	return atomic_add_return(0, &cw->runs);
}

/* A work that keeps its worker busy until released. */
struct blocker {
	work_t work;
	struct completion started;
	struct completion release;
};

static __unused_helper void blocker_fn(void *data)
{
	struct blocker *b = data;

	complete(&b->started);
	wait_for_completion(&b->release);
}

/*
 * Occupy the worker of the calling thread's CPU (pin the caller first):
 * works queued from that CPU stay pending until unblock_worker().
 * Returns what queue_work() did (usable in a child).
 */
static __unused_helper int start_blocker(workqueue_t *wq, struct blocker *b)
{
	int ret;

	INIT_WORK(&b->work, blocker_fn, b);
	init_completion(&b->started);
	init_completion(&b->release);
	ret = queue_work(wq, &b->work);
	if (ret)
		wait_for_completion(&b->started);
	return ret;
}

static __unused_helper void block_worker(workqueue_t *wq, struct blocker *b)
{
	cr_assert_eq(start_blocker(wq, b), 1);
}

static __unused_helper void unblock_worker(struct blocker *b)
{
	complete(&b->release);
}

/* The comm a worker of @name on @cpu carries. */
static __unused_helper const char *worker_comm(const char *name, int cpu,
					       char *buf, size_t len)
{
	snprintf(buf, len, "%s/%d", name, cpu);
	return buf;
}

#endif /* _TESTS_WORKQUEUE_WORKS_H */
