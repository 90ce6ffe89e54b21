#include <linux/tqueue.h>

/* `task` is renamed in every file where it is a tq_struct */
struct commit_task {
	struct tq_struct task;
	int jindex;
};

extern void commit_start(struct commit_task *ct);
