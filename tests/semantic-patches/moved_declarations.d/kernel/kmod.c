#include <linux/sched.h>
#include <linux/completion.h>

/*
 * kmod, 2.4 style: a helper that must not wait for keventd from keventd
 * itself; current_is_keventd() came from <linux/sched.h>.
 */
struct subprocess_info {
	struct completion *complete;
	int retval;
};

static void __call_usermodehelper(void *data)
{
	struct subprocess_info *sub_info = data;

	sub_info->retval = 0;
}

int call_usermodehelper(struct subprocess_info *sub_info)
{
	static struct tq_struct tqs;

	if (current_is_keventd()) {
		__call_usermodehelper(sub_info);
	} else {
		tqs.routine = __call_usermodehelper;
		tqs.data = sub_info;
		schedule_task(&tqs);
	}
	return sub_info->retval;
}
