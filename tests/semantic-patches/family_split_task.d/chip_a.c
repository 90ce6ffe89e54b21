/* A chip whose events go to the immediate bottom half. */
#include <linux/kernel.h>
#include <linux/interrupt.h>
#include "card.h"

static void isac_bh(struct card_state *cs)
{
	if (test_and_clear_bit(0, &cs->event))
		printk(KERN_DEBUG "isac: event\n");
}

void isac_interrupt(struct card_state *cs)
{
	set_bit(0, &cs->event);
	queue_task(&cs->tqueue, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
}

void isac_init(struct card_state *cs)
{
	cs->tqueue.routine = (void *) (void *) isac_bh;
	cs->irq = 5;
}
