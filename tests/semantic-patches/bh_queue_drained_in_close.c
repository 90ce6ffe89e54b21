#include <linux/tqueue.h>
#include <linux/timer.h>
#include <linux/tty.h>

/*
 * A queue of the driver's own with no bottom half: its poll timer runs it
 * (the tasks ran in the timer interrupt), and close() runs it so that
 * nothing of the port is left queued when the port goes.  The timer's run
 * goes (keventd runs the work); close() waits with flush_scheduled_work().
 */
static DECLARE_TASK_QUEUE(tq_board);
static struct timer_list board_timer;

struct board_port {
	struct tq_struct tqueue;
	int events;
};

static void board_softint(void *data)
{
	struct board_port *port = data;

	port->events = 0;
}

static void board_event(struct board_port *port)
{
	port->events++;
	queue_task(&port->tqueue, &tq_board);
}

static void board_poll(unsigned long ignored)
{
	run_task_queue(&tq_board);
	mod_timer(&board_timer, jiffies + 1);
}

static void board_close(struct tty_struct *tty, struct file *filp)
{
	run_task_queue(&tq_board);
	tty->driver_data = NULL;
}

static struct tty_driver board_driver = {
	close: board_close,
};

static void board_open_port(struct board_port *port)
{
	INIT_TQUEUE(&port->tqueue, board_softint, port);
	init_timer(&board_timer);
	board_timer.function = board_poll;
	add_timer(&board_timer);
}
