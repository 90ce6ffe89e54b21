#include <linux/tqueue.h>

/* The new name is taken: the old one stays (and is reported). */
struct drm_device {
	struct tq_struct tq;
	int work;
};

static struct tq_struct floppy_tq;
static int floppy_work;

static void kick(struct drm_device *dev)
{
	dev->work = floppy_work;
	schedule_task(&dev->tq);
	schedule_task(&floppy_tq);
}
