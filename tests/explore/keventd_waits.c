/*
 * keventd_waits.c - a task that waits for a task it scheduled itself.
 *
 * keventd runs one task at a time: a task that schedules another and
 * waits for it waits for ever, and so does whoever flushes.  2.4 drivers
 * hit this (a request_module() from keventd was the classic); the
 * controlled scheduler reports it as a deadlock, naming keventd and where
 * it waits.
 */
#include <stdio.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/completion.h>
#include <linux/tqueue.h>

static DECLARE_COMPLETION(inner_done);

static void inner(void *unused)
{
	complete(&inner_done);
}

static struct tq_struct inner_task = { .routine = inner };

static void outer(void *unused)
{
	schedule_task(&inner_task);
	wait_for_completion(&inner_done);
}

static struct tq_struct outer_task = { .routine = outer };

int main(void)
{
	INIT_LIST_HEAD(&inner_task.list);
	INIT_LIST_HEAD(&outer_task.list);
	schedule_task(&outer_task);
	flush_scheduled_tasks();
	printf("keventd_waits: the flush returned\n");
	return 0;
}
