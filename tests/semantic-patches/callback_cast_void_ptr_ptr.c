#include <linux/tqueue.h>

struct commit_task {
	struct tq_struct task;
	int jindex;
};

static void commit_task_func(struct commit_task *ct);

/* journal.c: typed callback through (void *)(void *). */
static void commit_task_func(struct commit_task *ct) {

  ct->jindex = 0 ;
}

static void setup(struct commit_task *ct)
{
	INIT_TQUEUE(&ct->task, (void *)(void *)commit_task_func, (void *)ct);
}
