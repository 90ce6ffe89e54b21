#include <linux/tqueue.h>

static void flush_pending(void *data);
static int pending_count;

/* Any order; .sync = 0 says nothing DECLARE_WORK does not. */
static struct tq_struct flush_tq = {
	.data = &pending_count,
	.sync = 0,
	.routine = flush_pending,
};
