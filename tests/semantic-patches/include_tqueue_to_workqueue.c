/* The task-queue header becomes the workqueue header. */
#include <linux/kernel.h>
#include <linux/tqueue.h>
#include <linux/sched.h>

static int users;
