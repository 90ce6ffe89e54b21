/*
 * floppy.c - scenarios of the floppy port: reads and writes driven to
 * completion by the controller's interrupts and the bottom halves, a lost
 * interrupt caught by the watchdog (cancel_activity, reset), failing
 * sectors, no controller, and several writers at once.
 *
 * All on the virtual clock: the scenario advances it one tick at a time
 * and lets the floppy's deferred work settle in between, so each request
 * completes at the same jiffy on every run and on both stacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <linux/errno.h>
#include <world/util.h>
#include <world/fdc.h>
#include <entry/floppy.h>

#include "scenario.h"

#define FLOPPY_IRQ 6
#define MAX_TICKS 200000UL

static unsigned long start_jiffies;

/* the virtual clock, from the test API: jiffies as kernel code sees them */
extern unsigned long shim_jiffies(void);

static int all_done(struct fd_request *reqs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!__atomic_load_n(&reqs[i].done, __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

/* advance the clock until @n requests are done; 0 if it took too long */
static int run_until_done(struct fd_request *reqs, int n)
{
	unsigned long t;

	floppy_settle();
	for (t = 0; !all_done(reqs, n) && t < MAX_TICKS; t++) {
		shim_clock_advance(1);
		floppy_settle();
	}
	return all_done(reqs, n);
}

/* the init reset's interrupt comes a tick later */
static int start(struct scenario_ctx *ctx, struct sim_fdc **fdc)
{
	shim_clock_virtual();
	*fdc = sim_fdc_plug(FLOPPY_IRQ);
	if (!inv(ctx, "controller_plugged", *fdc != NULL))
		return 0;
	if (!inv(ctx, "init", floppy_init() == 0)) {
		sim_fdc_unplug(*fdc);
		return 0;
	}
	shim_clock_advance(1);
	floppy_settle();
	start_jiffies = shim_jiffies();
	return 1;
}

static void stop(struct sim_fdc *fdc)
{
	floppy_exit();
	sim_fdc_unplug(fdc);
}

/* a workload: writes of seeded data, then reads of the same ranges */
struct workload {
	int n;
	struct fd_request *reqs;
	unsigned char *model; /* what the disk should hold */
};

static void make_workload(struct workload *w, u64 seed, int writes)
{
	u64 s = world_prng_seed(seed);
	int i;

	w->n = 2 * writes;
	w->reqs = calloc(w->n, sizeof(*w->reqs));
	w->model = malloc((size_t) FD_TOTAL * FD_SECTSIZE);
	memset(w->model, 0xf6, (size_t) FD_TOTAL * FD_SECTSIZE);
	for (i = 0; i < writes; i++) {
		struct fd_request *wr = &w->reqs[i], *rd = &w->reqs[writes + i];
		unsigned int n = 1 + world_prng_below(&s, 40);
		unsigned long sector = world_prng_below(&s, FD_TOTAL - n);

		wr->cmd = FD_WRITE_REQ;
		wr->sector = sector;
		wr->nr_sectors = n;
		wr->buffer = malloc(n * FD_SECTSIZE);
		world_prng_fill(&s, wr->buffer, n * FD_SECTSIZE);
		memcpy(w->model + sector * FD_SECTSIZE, wr->buffer,
		       n * FD_SECTSIZE);

		rd->cmd = FD_READ_REQ;
		rd->sector = sector;
		rd->nr_sectors = n;
		rd->buffer = malloc(n * FD_SECTSIZE);
	}
}

static void free_workload(struct workload *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		free(w->reqs[i].buffer);
	free(w->reqs);
	free(w->model);
}

/* the observables of a finished workload; @expect_fail: requests meant to fail */
static void report_workload(struct scenario_ctx *ctx, struct sim_fdc *fdc,
			    struct workload *w, int expect_fail)
{
	uint64_t *done = calloc(w->n, sizeof(*done));
	int64_t *res = calloc(w->n, sizeof(*res));
	u64 reads = WORLD_DIGEST_INIT;
	int i, reads_ok = 1, failed = 0;
	struct floppy_stats fs;
	struct sim_fdc_stats hs;

	for (i = 0; i < w->n; i++) {
		struct fd_request *r = &w->reqs[i];

		done[i] = r->done_jiffies - start_jiffies;
		res[i] = r->result;
		if (r->result)
			failed++;
		if (r->cmd == FD_READ_REQ && !r->result) {
			reads = world_digest(reads, r->buffer,
					     r->nr_sectors * FD_SECTSIZE);
			/* a later write may have overlapped: compare with the
			 * model only where the workload's writes all came first */
			if (memcmp(r->buffer,
				   w->model + r->sector * FD_SECTSIZE,
				   r->nr_sectors * FD_SECTSIZE))
				reads_ok = 0;
		}
	}
	floppy_get_stats(&fs);
	sim_fdc_get_stats(fdc, &hs);
	obs_u64(ctx, "requests", w->n);
	obs_u64(ctx, "completed", fs.completed);
	obs_u64(ctx, "failed", fs.failed);
	obs_i64_list(ctx, "results", res, w->n);
	obs_u64_list(ctx, "done_at_jiffy", done, w->n);
	obs_hex(ctx, "read_digest", reads);
	obs_hex(ctx, "image_digest", sim_fdc_image_digest(fdc));
	obs_u64(ctx, "interrupts", fs.interrupts);
	obs_u64(ctx, "bottom_halves", fs.bh_scheduled);
	obs_u64(ctx, "seeks", fs.seeks);
	obs_u64(ctx, "recalibrations", fs.recals);
	obs_u64(ctx, "spinups", fs.spinups);
	obs_u64(ctx, "resets", fs.resets);
	obs_u64(ctx, "timeouts", fs.timeouts);
	obs_u64(ctx, "retries", fs.retries);
	obs_u64(ctx, "sectors_read", hs.sectors_read);
	obs_u64(ctx, "sectors_written", hs.sectors_written);
	inv(ctx, "reads_return_what_was_written", reads_ok);
	inv(ctx, "completed_plus_failed",
	    fs.completed + fs.failed == (unsigned long) w->n);
	inv(ctx, "failures_as_expected", failed == expect_fail);
	inv(ctx, "bh_idle_at_end", !fs.bh_pending);
	free(done);
	free(res);
}

static void run_workload(struct scenario_ctx *ctx, struct workload *w)
{
	int i, ok = 1;

	for (i = 0; i < w->n; i++)
		ok &= floppy_submit(&w->reqs[i]) == 0;
	inv(ctx, "submitted", ok);
	inv(ctx, "all_done", run_until_done(w->reqs, w->n));
}

static void rw(struct scenario_ctx *ctx)
{
	struct sim_fdc *fdc;
	struct workload w;

	if (!start(ctx, &fdc))
		return;
	make_workload(&w, scn_seed(ctx), scn_size(ctx, 12, 3));
	run_workload(ctx, &w);
	report_workload(ctx, fdc, &w, 0);
	stop(fdc);
	free_workload(&w);
}
SCENARIO(floppy, "rw", 0, rw,
	 "12 seeded writes then 12 reads of the same ranges, each carried by "
	 "interrupts and schedule_bh() steps; completion jiffies and digests");

static void lost_irq(struct scenario_ctx *ctx)
{
	struct sim_fdc *fdc;
	struct workload w;

	if (!start(ctx, &fdc))
		return;
	make_workload(&w, scn_seed(ctx), 6);
	/* the 9th command from now completes without its interrupt */
	sim_fdc_lose_irq(fdc, 9);
	run_workload(ctx, &w);
	report_workload(ctx, fdc, &w, 0);
	{
		struct floppy_stats fs;

		floppy_get_stats(&fs);
		inv(ctx, "watchdog_fired_once", fs.timeouts == 1);
		inv(ctx, "controller_reset_again", fs.resets == 2);
	}
	stop(fdc);
	free_workload(&w);
}
SCENARIO(floppy, "lost_irq", 0, lost_irq,
	 "an interrupt never comes: the watchdog cancels the pending activity "
	 "(cancel_activity), shows the state (.sync), resets, and the request "
	 "is retried");

struct stall_arg {
	struct scenario_ctx *ctx;
	struct sim_fdc *fdc;
	struct workload *w;
	struct floppy_stats during;
};

/* thread 0 drives the clock; thread 1 looks while a bottom half is held */
static void stall_thread(void *arg, int i)
{
	struct stall_arg *a = arg;

	if (i == 0) {
		run_workload(a->ctx, a->w);
		return;
	}
	sim_fdc_wait_stalled(a->fdc);
	floppy_get_stats(&a->during);
	show_floppy(); /* the state dump names the queued bottom half */
	sim_fdc_unstall(a->fdc);
}

/*
 * A bottom half is held in the controller's handshake after the command's
 * interrupt came: the bottom half that interrupt scheduled waits queued
 * behind it (keventd runs one task at a time; a work queued from its own
 * worker stays on that CPU), which is what the state dump then shows.
 */
static void stalled_bh(struct scenario_ctx *ctx)
{
	struct stall_arg a;
	struct sim_fdc *fdc;
	struct workload w;

	if (!start(ctx, &fdc))
		return;
	make_workload(&w, scn_seed(ctx), 3);
	memset(&a, 0, sizeof(a));
	a.ctx = ctx;
	a.fdc = fdc;
	a.w = &w;
	sim_fdc_stall(fdc);
	scn_run_threads(2, stall_thread, &a);
	obs_u64(ctx, "bh_pending_while_held", a.during.bh_pending);
	inv(ctx, "bh_queued_behind_the_held_one", a.during.bh_pending == 1);
	report_workload(ctx, fdc, &w, 0);
	stop(fdc);
	free_workload(&w);
}
SCENARIO(floppy, "stalled_bh", 0, stalled_bh,
	 "a bottom half is held in the controller's handshake after its "
	 "command's interrupt scheduled the next one: the state dump shows "
	 "that one queued (floppy_tq.sync / the work's pending bit)");

static int init_once(void *arg)
{
	int ret = floppy_init();

	if (!ret)
		floppy_exit();
	return ret;
}

/* floppy_init's allocations, then its threads: none today (see tty's) */
static void init_nomem(struct scenario_ctx *ctx)
{
	struct sim_fdc *fdc;

	shim_clock_virtual();
	fdc = sim_fdc_plug(FLOPPY_IRQ);
	if (!inv(ctx, "controller_plugged", fdc != NULL))
		return;
	obs_i64(ctx, "init_despite_kmalloc_failures",
		scn_fail_in_turn(ctx, "init_kmalloc", 0, init_once, NULL));
	obs_i64(ctx, "init_despite_kthread_failures",
		scn_fail_in_turn(ctx, "init_kthread", 1, init_once, NULL));
	sim_fdc_unplug(fdc);
}
SCENARIO(floppy, "init_nomem", 0, init_nomem,
	 "floppy_init's allocations, then its threads, fail in turn: -ENOMEM "
	 "each time, nothing left behind, and a later init works");

/* is @sector in request @owner of the first @n writes, and in no other? */
static int sector_owned_by(struct workload *w, int n, int sector, int owner)
{
	int i;

	for (i = 0; i < n; i++) {
		int in = sector >= w->reqs[i].sector &&
			 sector < w->reqs[i].sector + w->reqs[i].nr_sectors;

		if (in != (i == owner))
			return 0;
	}
	return 1;
}

static void bad_sectors(struct scenario_ctx *ctx)
{
	struct sim_fdc *fdc;
	struct workload w;
	uint64_t seed;
	int i, victim;

	if (!start(ctx, &fdc))
		return;
	/* each bad sector must belong to its own request only: skip the
	 * seeds whose workload overlaps them (the seed stays reproducible) */
	victim = 3;
	for (seed = scn_seed(ctx);; seed++) {
		make_workload(&w, seed, 6);
		if (sector_owned_by(&w, 6, w.reqs[1].sector, 1) &&
		    sector_owned_by(&w, 6,
				    w.reqs[victim].sector +
					    w.reqs[victim].nr_sectors - 1,
				    victim))
			break;
		free_workload(&w);
	}
	/* the 2nd write's first sector fails twice, then works; the 4th
	 * write's last sector never works: it fails, and so does its read */
	sim_fdc_bad_sector(fdc, w.reqs[1].sector, 2);
	sim_fdc_bad_sector(
		fdc, w.reqs[victim].sector + w.reqs[victim].nr_sectors - 1,
		1000);
	/* what the model expects: the failed write stopped at the bad sector */
	memset(w.model, 0xf6, (size_t) FD_TOTAL * FD_SECTSIZE);
	for (i = 0; i < 6; i++)
		memcpy(w.model + w.reqs[i].sector * FD_SECTSIZE,
		       w.reqs[i].buffer,
		       (w.reqs[i].nr_sectors - (i == victim)) * FD_SECTSIZE);
	run_workload(ctx, &w);
	report_workload(ctx, fdc, &w, 2);
	inv(ctx, "victim_failed",
	    w.reqs[victim].result == -EIO && w.reqs[6 + victim].result == -EIO);
	inv(ctx, "recovered_after_retries", w.reqs[1].result == 0);
	stop(fdc);
	free_workload(&w);
}
SCENARIO(floppy, "bad_sectors", 0, bad_sectors,
	 "CRC errors: a sector that recovers after retries, one that never "
	 "does (the request fails with -EIO after MAX_ERRORS)");

static void no_controller(struct scenario_ctx *ctx)
{
	struct fd_request req;
	unsigned char buf[FD_SECTSIZE];
	int ret;

	shim_clock_virtual();
	ret = floppy_init();
	obs_i64(ctx, "init", ret);
	inv(ctx, "init_fails_enodev", ret == -ENODEV);
	memset(&req, 0, sizeof(req));
	req.cmd = FD_READ_REQ;
	req.nr_sectors = 1;
	req.buffer = buf;
	ret = floppy_submit(&req);
	obs_i64(ctx, "submit", ret);
	inv(ctx, "submit_refused", ret == -ENODEV);
}
SCENARIO(floppy, "no_controller", 0, no_controller,
	 "no controller found: init flushes the scheduled tasks, releases the "
	 "interrupt and fails");

#define STORM_WRITERS 4
#define STORM_ROUNDS 6
#define STORM_REGION 360 /* sectors: 5 cylinders each */

struct storm {
	struct scenario_ctx *ctx;
	volatile int writers;
	int verify_failed;
	unsigned long requests;
};

static void storm_thread(void *arg, int i)
{
	struct storm *st = arg;
	unsigned char *wbuf, *rbuf;
	u64 s;
	int r, rounds = scn_size(st->ctx, STORM_ROUNDS, 3);

	if (i == STORM_WRITERS) {
		/* the clock: one tick, then let the bottom halves run */
		while (__atomic_load_n(&st->writers, __ATOMIC_SEQ_CST)) {
			shim_clock_advance(1);
			floppy_settle();
		}
		return;
	}
	s = world_prng_seed(scn_seed(st->ctx) * 13 + i);
	wbuf = malloc(40 * FD_SECTSIZE);
	rbuf = malloc(40 * FD_SECTSIZE);
	for (r = 0; r < rounds; r++) {
		struct fd_request wr, rd;
		unsigned int n = 1 + world_prng_below(&s, 40);
		unsigned long sector = i * STORM_REGION +
				       world_prng_below(&s, STORM_REGION - n);

		world_prng_fill(&s, wbuf, n * FD_SECTSIZE);
		memset(&wr, 0, sizeof(wr));
		wr.cmd = FD_WRITE_REQ;
		wr.sector = sector;
		wr.nr_sectors = n;
		wr.buffer = wbuf;
		memset(&rd, 0, sizeof(rd));
		rd.cmd = FD_READ_REQ;
		rd.sector = sector;
		rd.nr_sectors = n;
		rd.buffer = rbuf;
		if (floppy_submit(&wr) || floppy_submit(&rd)) {
			__atomic_store_n(&st->verify_failed, 1,
					 __ATOMIC_SEQ_CST);
			break;
		}
		floppy_wait(&wr);
		floppy_wait(&rd);
		__atomic_add_fetch(&st->requests, 2, __ATOMIC_SEQ_CST);
		if (wr.result || rd.result ||
		    memcmp(wbuf, rbuf, n * FD_SECTSIZE))
			__atomic_store_n(&st->verify_failed, 1,
					 __ATOMIC_SEQ_CST);
	}
	free(wbuf);
	free(rbuf);
	__atomic_sub_fetch(&st->writers, 1, __ATOMIC_SEQ_CST);
}

static void storm(struct scenario_ctx *ctx)
{
	struct sim_fdc *fdc;
	struct floppy_stats fs;
	struct storm st;

	if (!start(ctx, &fdc))
		return;
	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.writers = STORM_WRITERS;
	scn_run_threads(STORM_WRITERS + 1, storm_thread, &st);
	floppy_settle();
	floppy_get_stats(&fs);
	obs_u64(ctx, "requests", st.requests);
	obs_u64(ctx, "completed", fs.completed);
	obs_u64(ctx, "failed", fs.failed);
	obs_hex(ctx, "image_digest", sim_fdc_image_digest(fdc));
	inv(ctx, "every_request_completed",
	    fs.completed == STORM_WRITERS * scn_size(ctx, STORM_ROUNDS, 3) * 2);
	inv(ctx, "reads_see_own_writes", !st.verify_failed);
	inv(ctx, "bh_idle_at_end", !fs.bh_pending);
	stat_u64(ctx, "interrupts", fs.interrupts);
	stat_u64(ctx, "bottom_halves", fs.bh_scheduled);
	stat_u64(ctx, "seeks", fs.seeks);
	stat_u64(ctx, "timeouts", fs.timeouts);
	stat_u64(ctx, "virtual_ticks", shim_jiffies() - start_jiffies);
	stop(fdc);
}
SCENARIO(floppy, "storm", 1, storm,
	 "4 writers on disjoint regions submit write+read pairs at once while "
	 "a clock thread drives the controller; each reads back its own data");
