/*
 * init_pending.c - INIT_WORK on a work another CPU may have queued.
 *
 * Two CPUs press SAK at once: each sets the work up again with INIT_WORK
 * and schedules it.  If the other's is still pending, INIT_WORK rewrites a
 * work that sits on a worker's list; the shim BUGs, naming it.  Setting it
 * up once and only scheduling it (or PREPARE_WORK) is safe.
 *
 *   init_pending reinit   INIT_WORK each time: found under some schedule
 *   init_pending once     INIT_WORK once, at set-up: safe under all
 */
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/workqueue.h>
#include <shim/test.h>

static work_t sak_work;
static atomic_t saks = ATOMIC_INIT(0);
static int reinit;

static void do_sak(void *unused)
{
	atomic_inc(&saks);
}

static void press_sak(void *unused)
{
	if (reinit)
		INIT_WORK(&sak_work, do_sak, NULL);
	schedule_work(&sak_work);
}

int main(int argc, char **argv)
{
	struct shim_thread *t[2];
	int i;

	reinit = argc > 1 && !strcmp(argv[1], "reinit");
	if (argc != 2 || (!reinit && strcmp(argv[1], "once"))) {
		fprintf(stderr, "usage: %s reinit|once\n", argv[0]);
		return 2;
	}
	INIT_WORK(&sak_work, do_sak, NULL);
	for (i = 0; i < 2; i++)
		t[i] = shim_thread_start("sak", press_sak, NULL);
	for (i = 0; i < 2; i++)
		shim_thread_join(t[i]);
	flush_scheduled_work();
	printf("init_pending %s: %d SAK runs\n", argv[1], atomic_read(&saks));
	return 0;
}
