#include <linux/tqueue.h>

/* GNU field: value initialisers inside a macro body */
struct pport { int base; int mode; struct tq_struct tq; };

#define PPORT_EMPTY {	base:	-1,	\
			mode:	0,	\
		     }

static struct pport ports[2] = { PPORT_EMPTY, PPORT_EMPTY };
static struct pport *spare = (struct pport *) NULL;

/* OWNER_THIS_MODULE (kernel-macros.h) is `owner: THIS_MODULE,` */
static struct file_operations pport_fops = {
	OWNER_THIS_MODULE
	open:		pport_open,
	release:	pport_release,
};

static void pport_wake(int n)
{
	schedule_task(&ports[n].tq);
}
