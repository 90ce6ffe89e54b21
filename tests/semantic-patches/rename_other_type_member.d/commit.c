#include <linux/commit.h>
#include <linux/waiter.h>

/* ct->task is a task, w->task a task_struct: only the first is renamed */
static void commit(void *data)
{
	struct commit_task *ct = data;

	ct->jindex++;
}

void commit_start(struct commit_task *ct)
{
	INIT_TQUEUE(&ct->task, commit, ct);
	schedule_task(&ct->task);
}

void commit_wait(struct commit_task *ct, struct waiter *w)
{
	if (w->task)
		w->woken = 1;
	flush_scheduled_tasks();
	ct->jindex = 0;
}
