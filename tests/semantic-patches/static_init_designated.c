#include <linux/tqueue.h>

struct stats { int n; };
static struct stats board_stats;
static void board_poll(void *data);

/* C99 designated initialiser, with data. */
static struct tq_struct board_tq = {
	.routine	= board_poll,
	.data		= &board_stats,
};
