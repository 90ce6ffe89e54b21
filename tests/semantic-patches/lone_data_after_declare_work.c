#include <linux/tqueue.h>

struct entropy_store;
static struct entropy_store *random_state;
static void batch_entropy_process(void *private_);

/* random.c after the seed: the routine is fixed, only the data moves. */
static struct tq_struct batch_tqueue = {
	.routine = batch_entropy_process,
};

static int batch_entropy_init(int size, struct entropy_store *r)
{
	batch_tqueue.data = r;
	return 0;
}

static void change_pool(struct entropy_store *new_store)
{
	random_state = batch_tqueue.data = new_store;
	schedule_task(&batch_tqueue);
}
