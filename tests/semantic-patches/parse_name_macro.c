#include <linux/tqueue.h>

/* function-like macros used as names (DRM(x) and HOSTDATA(h), both from a
 * header convert is not given) */

struct board_priv { struct tq_struct tq; int irq; };
struct board_host { void *hostdata; };

static void DRM(dma_bh)(void *data);

int DRM(irq_install)(struct board_host *host, int irq)
{
	HOSTDATA(host)->irq = irq;
	INIT_TQUEUE(&HOSTDATA(host)->tq, DRM(dma_bh), host);
	return 0;
}

static void DRM(dma_service)(struct board_host *host)
{
	schedule_task(&HOSTDATA(host)->tq);
}
