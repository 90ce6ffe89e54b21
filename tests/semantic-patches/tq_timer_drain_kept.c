#include <linux/tqueue.h>
#include <linux/sched.h>

/*
 * A multiport board whose ports push received characters from a table:
 * the flip task queued on tq_timer is named through the table and the
 * port's line, and the close path that runs tq_timer has neither, so
 * convert cannot name the delayed work to cancel there.  The run stays
 * and is reported with the edit to make by hand; the file is left as it
 * was (all or none).
 */
struct board_port {
	struct tq_struct tqueue;
	int rx_count;
};

static struct board_port port_table[8];

static void board_rx_flip(void *data)
{
	struct board_port *port = data;

	port->rx_count = 0;
}

static void board_receive(int line)
{
	port_table[line].rx_count++;
	queue_task(&port_table[line].tqueue, &tq_timer);
}

static void board_init_port(int line)
{
	INIT_TQUEUE(&port_table[line].tqueue, board_rx_flip, &port_table[line]);
}

static void board_close(struct tty_struct *tty, struct file *filp)
{
	run_task_queue(&tq_timer);
	tty->driver_data = NULL;
}
