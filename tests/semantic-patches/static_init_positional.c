#include <linux/tqueue.h>

static void poll_ports(void *data);
static void reset_board(void *data);
static int board_state;

/* 2.4's positional form: list, sync, routine, data */
static struct tq_struct poll_tq = { { NULL, NULL }, 0, poll_ports, NULL };
static struct tq_struct reset_tq = { {0, 0}, 0, reset_board, &board_state };
struct tq_struct spare_tq = { { 0, 0 }, 0 };

void kick(void)
{
	schedule_task(&poll_tq);
	schedule_task(&reset_tq);
}
