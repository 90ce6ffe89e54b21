#include <linux/tqueue.h>

/* Members keep their names; only the type changes (drmP.h, serialP.h). */
struct drm_device {
	int		  last_checked;
	unsigned long	  last_switch;
	struct tq_struct  tq;
	int		  irq;
};

struct async_struct {
	int			line;
	struct tq_struct	tqueue;
};
