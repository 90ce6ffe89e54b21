#include <linux/tqueue.h>
#include <asm/io.h>

/*
 * A statement macro used without a `;` stops coccinelle's parser in the
 * function that uses it.  That function has nothing to do with the task
 * queue: convert does not give its body to coccinelle at all, so the
 * file converts whole.
 */
#define MARCHUP for (i = 0; i < 16; i++)
#define W0 writeb(0, base + i)

struct board { struct tq_struct tq; char *base; };

static void board_clear(char *base)
{
	int i;

	MARCHUP {W0;}
}

static void board_poll(void *data)
{
	struct board *b = data;

	board_clear(b->base);
}

static void board_start(struct board *b)
{
	INIT_TQUEUE(&b->tq, board_poll, b);
	schedule_task(&b->tq);
}
