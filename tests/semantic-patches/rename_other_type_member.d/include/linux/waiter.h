/* a member named task that is not a task queue's */
struct task_struct;

struct waiter {
	struct task_struct *task;
	int woken;
};
