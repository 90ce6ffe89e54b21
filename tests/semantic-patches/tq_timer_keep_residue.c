#include <linux/tqueue.h>

struct tty_flip_buffer { struct tq_struct tqueue; };
struct tty_struct { struct tty_flip_buffer flip; };

/* --tq-timer=keep: tq_timer is left, and reported. */
static void con_schedule_flip(struct tty_struct *t)
{
	queue_task(&t->flip.tqueue, &tq_timer);
}

static void later(struct tty_struct *t)
{
	schedule_task(&t->flip.tqueue);
}
