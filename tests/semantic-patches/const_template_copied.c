#include <linux/tqueue.h>

/* hamradio style: a const task with its routine and data, copied into
 * the device's task when it opens; DECLARE_WORK takes no const */
struct modem {
	struct tq_struct run;
	int running;
};

static void modem_bh(void *data);

static void modem_irq(struct modem *m)
{
	queue_task(&m->run, &tq_timer);
}

int modem_open(struct modem *m)
{
	const struct tq_struct run = {
		routine: modem_bh,
		data: m
	};

	m->run = run;
	m->running = 1;
	queue_task(&m->run, &tq_timer);
	return 0;
}

int modem_close(struct modem *m)
{
	m->running = 0;
	run_task_queue(&tq_timer);
	return 0;
}
