/*
 * flood-taskqueue.c - the same flood on the task queue.
 *
 * Two threads schedule 100,000 tasks on keventd, then the main thread
 * flushes; every task must have run exactly once.
 *
 *   cc $(make -s cflags STACK=taskqueue) examples/flood-taskqueue.c \
 *      $(make -s ldlibs STACK=taskqueue) -o flood-taskqueue
 */
#include <stdio.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/tqueue.h>
#include <shim/test.h>

#define PER_THREAD 50000

static struct tq_struct tasks[2][PER_THREAD];
static int ran[2][PER_THREAD];

static void count_run(void *data)
{
	__atomic_add_fetch((int *) data, 1, __ATOMIC_RELAXED);
}

static void producer(void *arg)
{
	long t = (long) arg;
	int i;

	for (i = 0; i < PER_THREAD; i++) {
		INIT_TQUEUE(&tasks[t][i], count_run, &ran[t][i]);
		schedule_task(&tasks[t][i]);
	}
}

int main(void)
{
	struct shim_thread *thread[2];
	long t, wrong = 0;
	int i;

	for (t = 0; t < 2; t++)
		thread[t] = shim_thread_start("producer", producer, (void *) t);
	for (t = 0; t < 2; t++)
		shim_thread_join(thread[t]);
	flush_scheduled_tasks();

	for (t = 0; t < 2; t++)
		for (i = 0; i < PER_THREAD; i++)
			wrong += ran[t][i] != 1;
	printf("flood-taskqueue: %d tasks scheduled, %ld ran other than once\n",
	       2 * PER_THREAD, wrong);
	return wrong != 0;
}
