/* A chip whose events go to keventd. */
#include <linux/kernel.h>
#include <linux/sched.h>
#include "card.h"

static void hfc_bh(struct card_state *cs)
{
	if (test_and_clear_bit(0, &cs->event))
		printk(KERN_DEBUG "hfc: event\n");
}

void hfc_interrupt(struct card_state *cs)
{
	set_bit(0, &cs->event);
	schedule_task(&cs->tqueue);
}

void hfc_init(struct card_state *cs)
{
	cs->irq = 9;
	cs->tqueue.routine = (void *) (void *) hfc_bh;
}
