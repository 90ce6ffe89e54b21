#ifndef _LINUX_COMPLETION_H
#define _LINUX_COMPLETION_H

#include <linux/wait.h>

struct completion {
	unsigned int done;
	wait_queue_head_t wait;
};

/* clang-format off */
#define COMPLETION_INITIALIZER(work) \
	{ 0, __WAIT_QUEUE_HEAD_INITIALIZER((work).wait) }
/* clang-format on */

#define DECLARE_COMPLETION(work) \
	struct completion work = COMPLETION_INITIALIZER(work)

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

/* complete() may come before wait_for_completion(): it is counted. */
extern void wait_for_completion(struct completion *x);
extern void complete(struct completion *x);
extern void complete_all(struct completion *x);

#define INIT_COMPLETION(x) ((x).done = 0)

#endif /* _LINUX_COMPLETION_H */
