#include <linux/tqueue.h>

/* a request completes on its packet's own task queue, run in place */
struct req {
	struct tq_struct tq;
	int done;
};

struct packet {
	task_queue complete_tq;
};
