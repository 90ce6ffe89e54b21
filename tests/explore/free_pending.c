/*
 * free_pending.c - an object freed while its work is still pending.
 *
 * A driver queues work on an object and frees the object on the way out
 * without flushing: safe only if the worker happened to run first.  The
 * shim's kfree() knows the memory holds pending work and BUGs, naming it.
 *
 *   free_pending noflush   frees at once: found under some schedule
 *   free_pending flush     flush_scheduled_work() first: safe under all
 */
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

struct gadget {
	work_t work;
	int events;
};

static void gadget_event(void *data)
{
	struct gadget *g = data;

	g->events++;
}

int main(int argc, char **argv)
{
	int flush = argc > 1 && !strcmp(argv[1], "flush");
	struct gadget *g;

	if (argc != 2 || (!flush && strcmp(argv[1], "noflush"))) {
		fprintf(stderr, "usage: %s noflush|flush\n", argv[0]);
		return 2;
	}
	g = kmalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return 1;
	g->events = 0;
	INIT_WORK(&g->work, gadget_event, g);
	schedule_work(&g->work);
	if (flush)
		flush_scheduled_work();
	kfree(g);
	printf("free_pending %s: freed\n", argv[1]);
	return 0;
}
