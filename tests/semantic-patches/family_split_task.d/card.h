/* A card's state, shared by the core and the chip drivers. */
#include <linux/tqueue.h>

struct card_state {
	int irq;
	unsigned long event;
	struct tq_struct tqueue;
	void (*chip_init)(struct card_state *cs);
};

extern void isac_init(struct card_state *cs);
extern void hfc_init(struct card_state *cs);
