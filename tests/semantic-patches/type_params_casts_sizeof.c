#include <linux/tqueue.h>

typedef struct tq_struct tq_t;
extern struct tq_struct shared_task;

static struct tq_struct *pick(struct tq_struct *a, void *b)
{
	struct tq_struct *t = (struct tq_struct *)b;

	if (sizeof(struct tq_struct) > 64)
		return a;
	return t;
}
