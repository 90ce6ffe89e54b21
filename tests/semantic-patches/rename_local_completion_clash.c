#include <linux/tqueue.h>
#include <linux/sched.h>
#include <linux/completion.h>

/*
 * kmod's way: a task on the stack, scheduled and waited for through a
 * completion that already has the task's new name.  The seed renamed
 * the completion (work -> done) so that the task could be work.
 */
struct subprocess_info {
	struct completion *complete;
	int retval;
};

static void __call_usermodehelper(void *data)
{
	struct subprocess_info *sub_info = data;

	complete(sub_info->complete);
}

int call_usermodehelper(void)
{
	DECLARE_COMPLETION(work);
	struct subprocess_info sub_info = {
		.complete	= &work,
		.retval		= 0,
	};
	struct tq_struct tqs = {
		.routine	= __call_usermodehelper,
		.data		= &sub_info,
	};

	schedule_task(&tqs);
	wait_for_completion(&work);
	return sub_info.retval;
}
