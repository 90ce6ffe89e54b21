#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * A driver that still builds for 2.0 defines the old name for itself.
 * Nothing converted expands the macro, so it is reported, and does not
 * hold back the rest of the file.
 */
#ifdef OLD_KERNEL
#define schedule_task(t)	queue_task_irq_off(t, &tq_scheduler)
#endif

struct board {
	struct tq_struct reset_task;
	int resets;
};

static void board_reset(void *data)
{
	struct board *b = data;

	b->resets++;
}

void board_init(struct board *b)
{
	INIT_TQUEUE(&b->reset_task, board_reset, b);
}

void board_fault(struct board *b)
{
	schedule_task(&b->reset_task);
}
