#include <linux/tqueue.h>

struct entropy_store;
static void batch_entropy_process(void *private_);

/* random.c before the seed: a bare static, set up at init time. */
static struct tq_struct batch_tqueue;

static int batch_entropy_init(int size, struct entropy_store *r)
{
	batch_tqueue.routine = batch_entropy_process;
	batch_tqueue.data = r;
	return 0;
}

void batch_entropy_store(void)
{
	schedule_task(&batch_tqueue);
}
