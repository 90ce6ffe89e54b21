#include <linux/tqueue.h>

static void (*do_floppy)(void);

static void empty(void)
{
}

/* floppy.c: the data is never set, so re-pointing is PREPARE_WORK(.., NULL). */
static struct tq_struct floppy_tq;

static void schedule_bh( void (*handler)(void*) )
{
	floppy_tq.routine = (void *)(void *) handler;
	schedule_task(&floppy_tq);
}

static void cancel_activity(void)
{
	do_floppy = NULL;
	floppy_tq.routine = (void *)(void *) empty;
}

static void show_floppy(void)
{
	if (floppy_tq.sync)
		printk("floppy_tq.routine=%p\n", floppy_tq.routine);
}
