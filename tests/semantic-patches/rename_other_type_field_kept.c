#include <linux/tqueue.h>

struct task_struct;

/* `task` is renamed where it is a tq_struct, not where it is a task. */
struct commit_task {
	struct tq_struct task;
	int jindex;
};

struct waiter {
	struct task_struct *task;
};

static void commit(void *data);

static void setup(struct commit_task *ct, struct waiter *w)
{
	INIT_TQUEUE(&ct->task, commit, ct);
	w->task = 0;
	schedule_task(&ct->task);
}
