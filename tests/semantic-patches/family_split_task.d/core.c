/* The core: one card_state per card, set up before the chip's own init. */
#include <linux/kernel.h>
#include <linux/slab.h>
#include "card.h"

static struct card_state *cards[4];

int card_setup(int nr, int type)
{
	struct card_state *cs;

	cs = kmalloc(sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return -ENOMEM;
	cs->irq = 0;
	cs->event = 0;
	cs->tqueue.sync = 0;
	cs->tqueue.data = cs;
	cs->chip_init = type ? hfc_init : isac_init;
	cs->chip_init(cs);
	cards[nr] = cs;
	return 0;
}
