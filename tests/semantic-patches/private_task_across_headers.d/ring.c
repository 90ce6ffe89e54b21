#include <linux/tqueue.h>
#include "ring.h"

/* struct ring's tq is not the private queue's: it converts */
void ring_kick(struct ring *r)
{
	schedule_task(&r->tq);
}
