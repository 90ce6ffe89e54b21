#include <linux/tqueue.h>

static void do_work(void *data);

/* through a pointer to the tq_struct itself */
static void setup(struct tq_struct *t, void *arg)
{
	t->sync = 0;
	t->routine = do_work;
	INIT_LIST_HEAD(&t->list);
	t->data = arg;
	schedule_task(t);
}
