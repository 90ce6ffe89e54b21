#include <linux/tqueue.h>

struct drm_device {
	struct tq_struct tq;
	int irq;
};

static void dma_immediate_bh(void *dev);

/* drm_dma.h: list, sync, routine, data. */
int irq_install(struct drm_device *dev, int irq)
{
	dev->irq = irq;
	INIT_LIST_HEAD( &dev->tq.list );
	dev->tq.sync = 0;
	dev->tq.routine = dma_immediate_bh;
	dev->tq.data = dev;
	return 0;
}
