#include <linux/tqueue.h>

struct flip { struct tq_struct tqueue; int count; };

static void flush_flip(void *data);

/* convert --tq-timer=delayed: one tick later, in process context */
static void flip_push(struct flip *f)
{
	f->count++;
	queue_task(&f->tqueue, &tq_timer);
}

static void flip_init(struct flip *f)
{
	INIT_TQUEUE(&f->tqueue, flush_flip, f);
}
