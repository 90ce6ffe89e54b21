/*
 * random.c - scenarios of the random port: the batch entropy ring, the
 * mixing task, the pool-size sysctl, and a storm of interrupts.
 *
 * The single-threaded ones run on the virtual clock: the entropy credited
 * depends on the jiffies between samples, so they are reproducible only
 * if time is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <world/util.h>
#include <world/irq.h>
#include <entry/random.h>

#include "scenario.h"

#define NR_SOURCES 4 /* interrupt lines 1..4 feed the pool */

struct event {
	int kind; /* 0..NR_SOURCES-1: irq, NR_SOURCES: keyboard, +1: mouse */
	u32 value;
};

static void raise_event(void *arg)
{
	struct event *ev = arg;

	if (ev->kind < NR_SOURCES)
		add_interrupt_randomness(1 + ev->kind);
	else if (ev->kind == NR_SOURCES)
		add_keyboard_randomness((unsigned char) ev->value);
	else
		add_mouse_randomness(ev->value);
}

/* @n events, seeded, a random number of ticks apart; quiesce every @every */
static void trickle_events(u64 *s, int n, int every)
{
	int i;

	for (i = 0; i < n; i++) {
		struct event ev;

		shim_clock_advance(1 + world_prng_below(s, 40));
		ev.kind = world_prng_below(s, NR_SOURCES + 2);
		ev.value = (u32) world_prng_next(s);
		sim_call_in_irq(raise_event, &ev);
		if (every && (i + 1) % every == 0)
			random_quiesce();
	}
	random_quiesce();
}

/* one more sample from interrupt context, then the module's exit at once */
static void exit_with_sample_queued(void)
{
	struct event ev = { 0, 0 };

	sim_call_in_irq(raise_event, &ev);
	random_exit();
}

static void report_pools(struct scenario_ctx *ctx, const char *prefix)
{
	struct random_stats st;
	char key[64];

	random_get_stats(&st);
#define KEY(k) (snprintf(key, sizeof(key), "%s%s", prefix, k), key)
	obs_u64(ctx, KEY("primary_words"), st.primary_words);
	obs_u64(ctx, KEY("primary_entropy"), st.primary_entropy);
	obs_hex(ctx, KEY("primary_digest"), st.primary_digest);
	obs_u64(ctx, KEY("secondary_entropy"), st.secondary_entropy);
	obs_hex(ctx, KEY("secondary_digest"), st.secondary_digest);
	obs_u64(ctx, KEY("stored"), st.stored);
	obs_u64(ctx, KEY("dropped"), st.dropped);
	obs_u64(ctx, KEY("mixed"), st.mixed);
#undef KEY
	inv(ctx, "entropy_within_pools",
	    st.primary_entropy >= 0 &&
		    st.primary_entropy <= st.primary_words * 32 &&
		    st.secondary_entropy >= 0 &&
		    st.secondary_entropy <= st.secondary_words * 32);
	inv(ctx, "every_sample_mixed_once", st.mixed == st.stored);
	stat_u64(ctx, "batch_runs", st.runs);
}

/*
 * Extraction feeds its own timing back through the batch ring from inside
 * its hashing loop, so the batch task may stir a pool while it is being
 * hashed: what a read returns depends on that timing, on either stack.
 * The entropy accounting does not (those samples credit nothing), so it
 * is an observable; the bytes read and the pools after are stats.  (The
 * nomem scenario reads without a batch ring: reproducible bytes.)
 */
static void extract(struct scenario_ctx *ctx, int n)
{
	unsigned char buf[256];
	struct random_stats st;

	get_random_bytes(buf, n);
	random_quiesce();
	random_get_stats(&st);
	obs_u64(ctx, "bytes_read", n);
	obs_u64(ctx, "primary_entropy_after_read", st.primary_entropy);
	obs_u64(ctx, "secondary_entropy_after_read", st.secondary_entropy);
	stat_u64(ctx, "extracted_digest",
		 world_digest(WORLD_DIGEST_INIT, buf, n));
	stat_u64(ctx, "primary_digest_after_read", st.primary_digest);
}

static int setup(struct scenario_ctx *ctx)
{
	int i, ok = 1;

	shim_clock_virtual();
	if (!inv(ctx, "init", rand_initialize() == 0))
		return 0;
	for (i = 0; i < NR_SOURCES; i++)
		ok &= rand_initialize_irq(1 + i) == 0;
	if (!inv(ctx, "irq_sources", ok)) {
		random_exit();
		return 0;
	}
	return 1;
}

static void trickle(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx));

	if (!setup(ctx))
		return;
	trickle_events(&s, scn_size(ctx, 3000, 600), 100);
	report_pools(ctx, "");
	extract(ctx, 200);
	/*
	 * A last interrupt as the module goes, as in the kernel: nothing but
	 * random_exit()'s own flush waits for the batch work it queues.
	 */
	exit_with_sample_queued();
}
SCENARIO(random, "trickle", 0, trickle,
	 "3000 seeded interrupt, keyboard and mouse samples on the virtual "
	 "clock, mixed by the batch task; both pools' entropy and digests");

static void resize(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx));
	struct random_stats before, after;

	if (!setup(ctx))
		return;
	trickle_events(&s, scn_size(ctx, 1000, 300), 64);
	random_get_stats(&before);
	/* the trickle ended flushed: nothing holds the store freed here */
	inv(ctx, "sysctl_poolsize", random_sysctl_poolsize(2048) == 0);
	random_get_stats(&after);
	obs_u64(ctx, "entropy_before_resize", before.primary_entropy);
	obs_u64(ctx, "entropy_after_resize", after.primary_entropy);
	inv(ctx, "entropy_carried_over",
	    after.primary_entropy == before.primary_entropy);
	inv(ctx, "pool_resized", after.primary_words == 512);
	trickle_events(&s, scn_size(ctx, 2000, 400), 64);
	report_pools(ctx, "");
	random_get_stats(&after);
	obs_u64(ctx, "mixed_into_retired", after.mixed_into_retired);
	extract(ctx, 64);
	random_exit();
}
SCENARIO(random, "resize", 0, resize,
	 "the poolsize sysctl swaps the store the batch task is given "
	 "(random_state = batch data = new store) between two trickles");

static int init_once(void *arg)
{
	int ret = rand_initialize();

	if (!ret)
		random_exit();
	return ret;
}

/* what rand_initialize() does when memory runs out */
static void nomem(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx));
	struct random_stats st;
	unsigned char buf[32];
	int i, ret;

	shim_clock_virtual();
	/* every allocation in turn until one fails that init can do without,
	 * then the threads it may start (none today; see tty's init_nomem) */
	obs_i64(ctx, "init_despite_kmalloc_failures",
		scn_fail_in_turn(ctx, "init_kmalloc", 0, init_once, NULL));
	obs_i64(ctx, "init_despite_kthread_failures",
		scn_fail_in_turn(ctx, "init_kthread", 1, init_once, NULL));
	/* the 6th allocation is the secondary pool's: init fails whole */
	shim_fail_kmalloc_nth(6);
	ret = rand_initialize();
	shim_fail_kmalloc_nth(0);
	obs_i64(ctx, "init_without_secondary", ret);
	inv(ctx, "init_failed_cleanly",
	    ret != 0 && shim_kmalloc_outstanding() == 0);

	/* the 3rd is the batch ring's: the driver runs without batching */
	shim_fail_kmalloc_nth(3);
	ret = rand_initialize();
	shim_fail_kmalloc_nth(0);
	obs_i64(ctx, "init_without_batch", ret);
	if (!inv(ctx, "init_without_batch_ok", ret == 0))
		return;
	for (i = 0; i < NR_SOURCES; i++)
		rand_initialize_irq(1 +
				    i); /* no state: that source is ignored */
	trickle_events(&s, 500, 50);
	random_get_stats(&st);
	obs_u64(ctx, "batch_enabled", st.batch_enabled);
	obs_u64(ctx, "stored", st.stored);
	obs_u64(ctx, "primary_entropy", st.primary_entropy);
	inv(ctx, "samples_ignored",
	    !st.batch_enabled && st.stored == 0 && st.primary_entropy == 0);
	get_random_bytes(buf, sizeof(buf));
	obs_hex(ctx, "extracted_digest",
		world_digest(WORLD_DIGEST_INIT, buf, sizeof(buf)));
	random_exit();
}
SCENARIO(random, "nomem", 0, nomem,
	 "allocation failures in rand_initialize: without the secondary pool "
	 "init fails and frees all; without the batch ring samples are ignored");

#define STORM_PRODUCERS 4
#define STORM_EVENTS 1500

struct storm {
	struct scenario_ctx *ctx;
	volatile int producing;
	/* held by each sample source (4 lines, the reader) while it adds */
	struct shim_mutex adding[STORM_PRODUCERS + 1];
	unsigned long events[STORM_PRODUCERS];
	unsigned long read_bytes, read_calls, resizes_ok;
};

/*
 * 2.5.39's sysctl frees the old pool without waiting for the batch task,
 * which may have been given it: resizing while samples come in is a use
 * after free, on either stack.  So the sysctl resizes at a quiet moment
 * only: every source held between two samples, the batch task flushed.
 */
static int resize_quietly(struct storm *st, int bytes)
{
	int i, ret;

	for (i = 0; i <= STORM_PRODUCERS; i++)
		shim_mutex_lock(&st->adding[i]);
	random_quiesce();
	ret = random_sysctl_poolsize(bytes);
	for (i = 0; i <= STORM_PRODUCERS; i++)
		shim_mutex_unlock(&st->adding[i]);
	return ret;
}

static void add_irq(void *arg)
{
	add_interrupt_randomness((int) (long) arg);
}

/* threads 0..3: an interrupt line each; 4: a reader; 5: the sysctl */
static void storm_thread(void *arg, int i)
{
	struct storm *st = arg;
	u64 s = world_prng_seed(scn_seed(st->ctx) * 7 + i);
	unsigned char buf[64];
	int n;

	if (i < STORM_PRODUCERS) {
		for (n = 0; n < (int) scn_size(st->ctx, STORM_EVENTS, 300);
		     n++) {
			shim_mutex_lock(&st->adding[i]);
			sim_call_in_irq(add_irq, (void *) (long) (1 + i));
			shim_mutex_unlock(&st->adding[i]);
			st->events[i]++;
			if (world_prng_below(&s, 8) == 0)
				scn_sleep_ms(1);
		}
		__atomic_sub_fetch(&st->producing, 1, __ATOMIC_SEQ_CST);
	} else if (i == STORM_PRODUCERS) {
		while (__atomic_load_n(&st->producing, __ATOMIC_SEQ_CST)) {
			int r;

			/* extraction feeds its timing back as samples */
			shim_mutex_lock(&st->adding[STORM_PRODUCERS]);
			get_random_bytes(buf,
					 1 + world_prng_below(&s, sizeof(buf)));
			r = random_read(buf, sizeof(buf), 1);
			shim_mutex_unlock(&st->adding[STORM_PRODUCERS]);
			if (r > 0)
				st->read_bytes += r;
			st->read_calls++;
			scn_sleep_ms(1);
		}
	} else {
		static const int sizes[] = { 1024, 256, 2048, 512 };

		for (n = 0;
		     n < 4 && __atomic_load_n(&st->producing, __ATOMIC_SEQ_CST);
		     n++) {
			scn_sleep_ms(20 + world_prng_below(&s, 20));
			if (resize_quietly(st, sizes[n]) == 0)
				st->resizes_ok++;
		}
	}
}

static void storm(struct scenario_ctx *ctx)
{
	struct storm st;
	struct random_stats rs;
	unsigned long events = 0;
	int i, ok = 1;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	if (!inv(ctx, "init", rand_initialize() == 0))
		return;
	for (i = 0; i < STORM_PRODUCERS; i++)
		ok &= rand_initialize_irq(1 + i) == 0;
	inv(ctx, "irq_sources", ok);
	st.producing = STORM_PRODUCERS;
	scn_run_threads(STORM_PRODUCERS + 2, storm_thread, &st);
	random_quiesce();

	for (i = 0; i < STORM_PRODUCERS; i++)
		events += st.events[i];
	random_get_stats(&rs);
	obs_u64(ctx, "interrupt_samples", events);
	inv(ctx, "every_sample_stored_or_dropped",
	    rs.stored + rs.dropped >= events); /* extraction adds its own */
	inv(ctx, "every_stored_sample_mixed", rs.mixed == rs.stored);
	inv(ctx, "entropy_within_pools",
	    rs.primary_entropy >= 0 &&
		    rs.primary_entropy <= rs.primary_words * 32 &&
		    rs.secondary_entropy >= 0 &&
		    rs.secondary_entropy <= rs.secondary_words * 32);
	inv(ctx, "resizes_done", rs.resizes == st.resizes_ok);
	stat_u64(ctx, "stored", rs.stored);
	stat_u64(ctx, "dropped", rs.dropped);
	stat_u64(ctx, "mixed", rs.mixed);
	stat_u64(ctx, "mixed_into_retired", rs.mixed_into_retired);
	stat_u64(ctx, "batch_runs", rs.runs);
	stat_u64(ctx, "resizes", rs.resizes);
	stat_u64(ctx, "read_bytes", st.read_bytes);
	stat_u64(ctx, "primary_entropy", rs.primary_entropy);
	random_exit();
}
SCENARIO(random, "storm", 1, storm,
	 "4 interrupt lines adding samples at once, a reader, and the poolsize "
	 "sysctl swapping the batch task's store at quiet moments between "
	 "samples (2.5.39 frees the old store without waiting for the task)");
