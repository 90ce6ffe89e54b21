#include <linux/tqueue.h>
#include <linux/slab.h>

/* GNU casts used as lvalues: hidden from the parser, then put back */
struct ring { struct tq_struct tq; char *buf; void *scratch; };

static void ring_drain(void *data);

static void ring_fill(struct ring *r, int n)
{
	(char *)r->scratch += n;
	schedule_task(&r->tq);
}

static int ring_open(struct ring *r)
{
	(void *) r->buf = kmalloc(64, GFP_KERNEL);
	INIT_TQUEUE(&r->tq, ring_drain, r);
	return r->buf ? 0 : -1;
}
