/*
 * ordering.c - what ThreadSanitizer is told orders a bottom half before
 * a process, on the task queue.
 *
 * A routine on tq_immediate, marked from an interrupt, writes x; the
 * process waits until it has run and every task sleeps again, and then
 * reads x.  No kernel lock orders the two, so ThreadSanitizer must report
 * the race, whatever the process does between them that the kernel did
 * not order with a bottom half (tests/tsan/run reads its report):
 *   timer   the process deletes a timer: ksoftirqd must not have taken
 *           the timer list after the bottom half when no timer was due
 *           (2.4 ran TIMER_BH at the tick, not after every bottom half);
 *   wake    the process wakes a sleeping task: the sandbox's count of
 *           tasks that can run (shim_quiesce()) is no order;
 * and it must report none where the order is the kernel's or a quiesce's:
 *   lock    the routine wrote x under a spinlock the process then takes;
 *   quiesce the process reads x after shim_quiesce(), which waits for
 *           every task to fall asleep and so sees what each did.
 * Each mode prints "ordering: MODE done" at its end.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/tqueue.h>
#include <asm/processor.h>
#include <shim/test.h>
#include <stdio.h>
#include <string.h>

#ifdef __SANITIZE_THREAD__
extern void AnnotateIgnoreSyncBegin(const char *file, int line);
extern void AnnotateIgnoreSyncEnd(const char *file, int line);
#endif
/* the shim's, lock-free (shim/sched.c, shim/softirq.c) */
extern void shim_wait_awake_alone(int (*idle)(void));
extern int shim_bh_pending(void);

static int x;
static int routine_done;
static spinlock_t x_lock = SPIN_LOCK_UNLOCKED;
static int locked;

static void bh_writes_x(void *unused)
{
	if (locked)
		spin_lock(&x_lock);
	x = 1;
	if (locked)
		spin_unlock(&x_lock);
	/* relaxed: that it ran orders nothing */
	__atomic_store_n(&routine_done, 1, __ATOMIC_RELAXED);
}

static struct tq_struct writer = {
	routine : bh_writes_x,
};

static DECLARE_COMPLETION(go);
static DECLARE_COMPLETION(gone);

/* a task asleep until the process wakes it */
static int sleeper(void *unused)
{
	wait_for_completion(&go);
	complete(&gone);
	return 0;
}

static int no_bh_marked(void)
{
	return !shim_bh_pending();
}

/*
 * Until the routine has run and every other task sleeps: by
 * shim_quiesce() if @seen, else as a bystander that takes no lock and
 * whose waiting ThreadSanitizer does not see.
 */
static void wait_quiet(int seen)
{
	while (!__atomic_load_n(&routine_done, __ATOMIC_RELAXED))
		cpu_relax();
	if (seen) {
		shim_quiesce();
		return;
	}
#ifdef __SANITIZE_THREAD__
	AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
#endif
	shim_wait_awake_alone(no_bh_marked);
#ifdef __SANITIZE_THREAD__
	AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
#endif
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct timer_list timer;
	int seen;

	if (strcmp(mode, "timer") && strcmp(mode, "wake") &&
	    strcmp(mode, "lock") && strcmp(mode, "quiesce")) {
		fprintf(stderr, "usage: ordering timer|wake|lock|quiesce\n");
		return 2;
	}
	locked = !strcmp(mode, "lock");
	seen = !strcmp(mode, "quiesce");
	if (kernel_thread(sleeper, NULL, 0) < 0)
		return 1;
	init_timer(&timer);

	irq_enter();
	queue_task(&writer, &tq_immediate);
	mark_bh(IMMEDIATE_BH);
	irq_exit();
	wait_quiet(seen);

	if (!strcmp(mode, "timer"))
		del_timer(&timer);
	if (!strcmp(mode, "wake"))
		complete(&go);
	if (locked)
		spin_lock(&x_lock);
	printf("ordering: x is %d\n", x);
	if (locked)
		spin_unlock(&x_lock);

	if (strcmp(mode, "wake"))
		complete(&go);
	wait_for_completion(&gone);
	printf("ordering: %s done\n", mode);
	return 0;
}
