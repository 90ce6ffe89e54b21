/*
 * scenarios/leds.c - the scenarios of the example LED driver.
 *
 * They call the driver's own functions only, never a deferred-work API,
 * so the same file runs against the legacy and the converted driver.
 */
#include <linux/kernel.h>
#include <linux/interrupt.h>
#include "scenario.h"

void leds_event(unsigned int leds);
void leds_sync(void);
unsigned int leds_state(void);
int leds_write_count(void);

/* one key at a time: every state reaches the controller */
static void leds_one_by_one(struct scenario_ctx *ctx)
{
	unsigned int seed = scn_seed(ctx), i, last = 0;

	for (i = 0; i < 20; i++) {
		seed = seed * 1103515245u + 12345u;
		last = (seed >> 16) & 7;
		irq_enter();
		leds_event(last);
		irq_exit();
		leds_sync();
	}
	obs_u64(ctx, "final_state", leds_state());
	obs_u64(ctx, "writes", leds_write_count());
	inv(ctx, "shows_last_state", leds_state() == last);
}

static void leds_typing(void *arg, int i)
{
	unsigned int k;

	for (k = 0; k < 200; k++) {
		irq_enter();
		leds_event((k + i) & 7);
		irq_exit();
	}
}

/* two keyboards at once: writes coalesce, the last state still shows */
static void leds_storm(struct scenario_ctx *ctx)
{
	scn_run_threads(2, leds_typing, NULL);
	irq_enter();
	leds_event(5);
	irq_exit();
	leds_sync();
	obs_u64(ctx, "final_state", leds_state());
	inv(ctx, "some_writes_coalesced", leds_write_count() < 401);
}

SCENARIO(leds, "one_by_one", 0, leds_one_by_one,
	 "20 LED changes from interrupt context, each synced");
SCENARIO(leds, "storm", 1, leds_storm,
	 "two keyboards change the LEDs at once; the last state wins");
