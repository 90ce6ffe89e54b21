/*
 * leds.c - a made-up keyboard LED driver, written against the task-queue
 * API the way a 2.4 driver would be: an example of bringing your own
 * legacy code to `make demo EXTRA=examples/mydriver`.
 *
 * The "interrupt" (leds_event) may not sleep, so it defers the slow part,
 * talking to the controller, to keventd with schedule_task().
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/module.h>
#include <linux/interrupt.h>
#include <linux/tqueue.h>

#define LED_HISTORY 64

static void leds_update(void *data);

static struct tq_struct leds_tq = {
	routine : leds_update,
};

static spinlock_t leds_lock = SPIN_LOCK_UNLOCKED;
static unsigned int leds_wanted; /* what the keyboard asked for */
static unsigned int leds_shown;	 /* what the controller shows */
static unsigned int leds_history[LED_HISTORY];
static int leds_writes;

/* process context: the controller is slow, and we may sleep for it */
static void leds_update(void *data)
{
	unsigned long flags;
	unsigned int want;

	spin_lock_irqsave(&leds_lock, flags);
	want = leds_wanted;
	spin_unlock_irqrestore(&leds_lock, flags);

	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_timeout(1); /* the controller takes a jiffy */

	leds_shown = want;
	if (leds_writes < LED_HISTORY)
		leds_history[leds_writes] = want;
	leds_writes++;
}

/* interrupt context: note the new state and defer the write */
void leds_event(unsigned int leds)
{
	unsigned long flags;

	spin_lock_irqsave(&leds_lock, flags);
	leds_wanted = leds;
	spin_unlock_irqrestore(&leds_lock, flags);
	schedule_task(&leds_tq);
}

/* wait until the controller shows the last state asked for */
void leds_sync(void)
{
	flush_scheduled_tasks();
}

unsigned int leds_state(void)
{
	return leds_shown;
}

int leds_write_count(void)
{
	return leds_writes;
}

MODULE_LICENSE("GPL");
