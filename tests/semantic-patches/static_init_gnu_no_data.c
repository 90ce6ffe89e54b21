#include <linux/tqueue.h>

static void console_callback(void *ignored);

/* vt.c: GNU form, no data. */
static struct tq_struct console_callback_tq = {
	routine: console_callback,
};

void schedule_console_callback(void)
{
	schedule_task(&console_callback_tq);
}
