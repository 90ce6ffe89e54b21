#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * TQ_ACTIVE as a feature test in a file that tests no kernel version:
 * convert does not bring <linux/version.h> in by itself; the line says
 * what to write, and the file is left as it was (all or none).
 */
#ifdef TQ_ACTIVE
#define card_defer(t)	schedule_task(t)
#else
#define card_defer(t)	queue_task(t, &tq_scheduler)
#endif

struct card {
	struct tq_struct reset;
};

static void card_reset(void *data)
{
}

void card_error(struct card *c)
{
	INIT_TQUEUE(&c->reset, card_reset, c);
	card_defer(&c->reset);
}
