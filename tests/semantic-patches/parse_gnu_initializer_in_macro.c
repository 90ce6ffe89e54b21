#include <linux/tqueue.h>

/* GNU field: value initialisers inside a macro body */
struct pport { int base; int mode; struct tq_struct tq; };

#define PPORT_EMPTY {	base:	-1,	\
			mode:	0,	\
		     }

static struct pport ports[2] = { PPORT_EMPTY, PPORT_EMPTY };

static void pport_wake(int n)
{
	schedule_task(&ports[n].tq);
}
