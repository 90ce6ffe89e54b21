#include <linux/tqueue.h>

struct board { int irqs; };
static struct board the_board;

static void board_bh(struct board *b);

/* cast to the exact function-pointer type */
static struct tq_struct board_tq = {
	routine:	(void (*)(void *)) board_bh,
	data:		&the_board,
};

static void board_bh(struct board *b)
{
	b->irqs = 0;
}
