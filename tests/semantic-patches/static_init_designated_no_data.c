#include <linux/tqueue.h>

static void do_mce_timer(void *data);

/* bluesmoke.c: no data, so DECLARE_WORK gets NULL. */
static struct tq_struct mce_task = { 
	.routine = do_mce_timer	
};

static void mce_timerfunc(unsigned long data)
{
	schedule_task(&mce_task); 
}
