#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * Two tasks: one handed to keventd, which converts, and one queued on
 * tq_immediate with no mark_bh(IMMEDIATE_BH) anywhere in the file or its
 * directory, which cannot.  Converting the first alone would leave a
 * work_t beside a tq_struct and tqueue.h beside workqueue.h: the file
 * stays as it is, the blocker named.
 */
struct card {
	struct tq_struct reset_tq;
	struct tq_struct rx_tq;
	int resets;
};

static void card_reset(void *data)
{
	struct card *c = data;

	c->resets++;
}

static void card_rx(void *data)
{
}

void card_setup(struct card *c)
{
	INIT_TQUEUE(&c->reset_tq, card_reset, c);
	INIT_TQUEUE(&c->rx_tq, card_rx, c);
}

void card_error(struct card *c)
{
	schedule_task(&c->reset_tq);
}

void card_interrupt(struct card *c)
{
	queue_task(&c->rx_tq, &tq_immediate);
}
