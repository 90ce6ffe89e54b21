/* Both headers included: the task-queue one just goes. */
#include <linux/tqueue.h>
#include <linux/workqueue.h>

extern int hits;
