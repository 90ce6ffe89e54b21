#include <linux/tqueue.h>

static struct tq_struct floppy_tq;

struct port { struct tq_struct tqueue; };

static int busy(struct port *info, struct tq_struct *t)
{
	if (floppy_tq.sync)
		return 1;
	if (test_bit(0, &info->tqueue.sync))
		return 1;
	return t->sync != 0;
}
