#include <linux/tqueue.h>

/* another structure's tq: renamed with the rest of the tree */
struct dev {
	struct tq_struct tq;
};
