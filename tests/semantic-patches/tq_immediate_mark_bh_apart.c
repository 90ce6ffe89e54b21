#include <linux/tqueue.h>
#include <linux/interrupt.h>

struct board { struct tq_struct poll_tq; int pending; };

static void board_poll(void *data);

/* The interrupt queues the task; mark_bh is called from a helper. */
static void board_kick(void)
{
	mark_bh(IMMEDIATE_BH);
}

static void board_interrupt(struct board *b)
{
	b->pending++;
	queue_task(&b->poll_tq, &tq_immediate);
	board_kick();
}

static void board_setup(struct board *b)
{
	INIT_TQUEUE(&b->poll_tq, board_poll, b);
}
