/*
 * scenarios/stats.c - interrupts on two CPUs at once, each deferring its
 * statistics update; every event must be counted.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/interrupt.h>
#include "scenario.h"

void stats_rx_irq(void);
void stats_tx_irq(void);
void stats_sync(void);
unsigned long stats_events(void);
unsigned long stats_runs(void);
unsigned long stats_peek(void);

#define ROUNDS 400

/* a CPU's interrupts; a pending update absorbs the next request */
static void nic_cpu(void *arg, int i)
{
	int k;

	/* each direction's interrupts arrive on a CPU of their own */
	set_cpus_allowed(current, 1UL << (i % num_online_cpus()));
	for (k = 0; k < ROUNDS; k++) {
		irq_enter();
		if (i)
			stats_tx_irq();
		else
			stats_rx_irq();
		irq_exit();
		if (k % 8 == 7) {
			stats_peek();
			scn_sleep_ms(1);
		}
	}
}

static void both_directions(struct scenario_ctx *ctx)
{
	scn_run_threads(2, nic_cpu, NULL);
	stats_sync();
	obs_u64(ctx, "some_events_counted", stats_events() > 0);
	inv(ctx, "every_update_counted", stats_events() == stats_runs());
	stat_u64(ctx, "updates", stats_runs());
}
SCENARIO(stats, "both_directions", 1, both_directions,
	 "receive and transmit interrupts on two CPUs, each deferring a "
	 "statistics update; every event counted");

/*
 * One task asks for both updates, back to back, from process context: the
 * free run puts both works on the worker of the CPU the host keeps the
 * task on, one after the other, and never shows them overlap; a task
 * that moves between CPUs meanwhile puts them on two.  The race check
 * must look, though no run saw two works at once (tests/demo/run).
 */
static void from_one_task(struct scenario_ctx *ctx)
{
	int k;

	for (k = 0; k < ROUNDS / 4; k++) {
		stats_rx_irq();
		stats_tx_irq();
		if (k % 8 == 7)
			stats_sync();
	}
	stats_sync();
	obs_u64(ctx, "some_events_counted", stats_events() > 0);
	stat_u64(ctx, "updates", stats_runs());
}
SCENARIO(stats, "from_one_task", 1, from_one_task,
	 "one task asks for a receive and a transmit update again and "
	 "again: the two works run one after the other, or on two CPUs");
