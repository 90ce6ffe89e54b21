/*
 * scenarios/gizmo.c - interrupts, each handled later, one at a time: the
 * next waits until the driver says the last one was handled.
 */
#include <linux/kernel.h>
#include <linux/interrupt.h>
#include "scenario.h"

int gizmo_init(void);
void gizmo_exit(void);
void gizmo_interrupt(void);
unsigned long gizmo_seen(void);

static void one_by_one(struct scenario_ctx *ctx)
{
	int i;

	if (!inv(ctx, "init", gizmo_init() == 0))
		return;
	for (i = 0; i < 20; i++) {
		irq_enter();
		gizmo_interrupt();
		irq_exit();
		scn_wait_until(gizmo_seen() == (unsigned long) i + 1, 5000);
	}
	obs_u64(ctx, "handled", gizmo_seen());
	gizmo_exit();
}
SCENARIO(gizmo, "one_by_one", 0, one_by_one,
	 "20 interrupts, each handled later, one by one");
