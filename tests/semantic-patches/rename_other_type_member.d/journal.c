#include <linux/commit.h>

/* another file, the same member: no other type is in sight here */
int journal_pending(struct commit_task *ct)
{
	return ct->task.sync;
}
