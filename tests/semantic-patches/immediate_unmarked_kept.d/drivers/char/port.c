#include <linux/tqueue.h>

struct port { struct tq_struct tqueue; };

/* No mark_bh in the file nor in its driver's directory: reported, not
 * guessed at. */
static void rs_interrupt(struct port *info, int more)
{
	queue_task(&info->tqueue, &tq_immediate);
	if (more)
		return;
}
