/*
 * tty.c - scenarios of the tty port: flip buffer, low latency,
 * TTY_DONT_FLIP, write wakeups, hangup, SAK, consoles, and a storm.
 *
 * Real time throughout: nothing here depends on how long things take,
 * only on their order within a line, which the flip buffer keeps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <world/util.h>
#include <world/uart.h>
#include <world/irq.h>
#include <world/n_record.h>
#include <entry/tty.h>

#include "scenario.h"

#define WAIT_MS 20000

struct line_input {
	unsigned char *buf;
	size_t len;
	u64 digest;
};

static void make_input(struct line_input *in, u64 seed, size_t len)
{
	u64 s = world_prng_seed(seed);

	in->buf = malloc(len);
	in->len = len;
	world_prng_fill(&s, in->buf, len);
	in->digest = world_digest(WORLD_DIGEST_INIT, in->buf, len);
}

/* feed @in through @u in chunks of random sizes, as bursts on a line */
static size_t feed_chunks(struct sim_uart *u, const struct line_input *in,
			  u64 seed)
{
	u64 s = world_prng_seed(seed ^ 0x5151);
	size_t off = 0, sent = 0;

	while (off < in->len) {
		size_t n = 1 + world_prng_below(&s, 1400);

		if (n > in->len - off)
			n = in->len - off;
		sent += sim_uart_feed(u, in->buf + off, n);
		off += n;
	}
	return sent;
}

static void report_line(struct scenario_ctx *ctx, struct tty_struct *tty,
			int line, const struct line_input *in)
{
	struct n_record_stats rs;
	struct tty_port_stats ts;

	n_record_wait_bytes(line, in->len, WAIT_MS);
	n_record_get(line, &rs);
	tty_get_stats(tty, &ts);

	obs_u64(ctx, "bytes", rs.bytes);
	obs_hex(ctx, "digest", rs.digest);
	obs_u64(ctx, "flagged", rs.flagged);
	inv(ctx, "all_bytes_delivered", rs.bytes == in->len);
	inv(ctx, "digest_matches_input", rs.digest == in->digest);
	inv(ctx, "no_hangup", ts.hangups == 0);
	stat_u64(ctx, "deliveries", rs.deliveries);
	stat_u64(ctx, "flip_deferred", ts.flip_deferred);
	stat_u64(ctx, "flip_direct", ts.flip_direct);
	stat_u64(ctx, "flip_resched", ts.flip_resched);
	stat_u64(ctx, "flushes", ts.flushes);
}

/* a burst of characters through one line, normal or low latency */
static void run_burst(struct scenario_ctx *ctx, int low_latency)
{
	struct line_input in;
	struct sim_uart *u;
	struct tty_struct *tty;
	struct sim_uart_stats us;
	struct tty_port_stats ts;
	size_t sent;

	make_input(&in, scn_seed(ctx), scn_size(ctx, 64 * 1024, 4096));
	if (!inv(ctx, "tty_init", tty_init() == 0))
		return;
	u = sim_uart_plug(0, 4, 64, 0);
	tty = tty_open_line(0, low_latency);
	if (!inv(ctx, "opened", u && tty))
		goto out;

	sent = feed_chunks(u, &in, scn_seed(ctx));
	inv(ctx, "uart_took_everything", sent == in.len);
	report_line(ctx, tty, 0, &in);
	tty_get_stats(tty, &ts);
	if (low_latency) {
		/* every push ran flush_to_ldisc at once, in the interrupt */
		obs_u64(ctx, "deferred_pushes", ts.flip_deferred);
		inv(ctx, "nothing_deferred",
		    ts.flip_deferred == 0 && ts.flip_resched == 0);
	} else {
		inv(ctx, "pushes_deferred", ts.flip_deferred > 0);
	}
	sim_uart_get_stats(u, &us);
	obs_u64(ctx, "dropped", us.rx_dropped);
	stat_u64(ctx, "uart_stalls", us.stalls);
	stat_u64(ctx, "irqs", sim_irq_count(4));
out:
	tty_release(tty);
	sim_uart_unplug(u);
	tty_exit();
	free(in.buf);
}

static void burst(struct scenario_ctx *ctx)
{
	run_burst(ctx, 0);
}
SCENARIO(
	tty, "burst", 0, burst,
	"64 KiB in random bursts into ttyS0; flip buffer pushed via deferred work");

static void low_latency(struct scenario_ctx *ctx)
{
	run_burst(ctx, 1);
}
SCENARIO(
	tty, "low_latency", 0, low_latency,
	"the same burst on a low_latency tty: flush_to_ldisc runs in the interrupt");

struct feeder {
	struct sim_uart *u;
	struct line_input *in;
	u64 seed;
	size_t sent;
};

static void feeder_thread(void *arg, int i)
{
	struct feeder *f = (struct feeder *) arg + i;

	f->sent = feed_chunks(f->u, f->in, f->seed);
}

struct dont_flip_arg {
	struct feeder feed;
	struct tty_struct *tty;
	struct scenario_ctx *ctx;
};

/* thread 0 feeds; thread 1 holds TTY_DONT_FLIP as a reader would */
static void dont_flip_thread(void *arg, int i)
{
	struct dont_flip_arg *a = arg;
	struct tty_port_stats ts;
	struct n_record_stats rs;
	int held;

	if (i == 0) {
		feeder_thread(&a->feed, 0);
		return;
	}
	held = scn_wait_until(
		(tty_get_stats(a->tty, &ts), ts.flip_resched >= 3), WAIT_MS);
	scn_sleep_ms(20);
	n_record_get(0, &rs);
	inv(a->ctx, "flush_rescheduled_itself", held);
	obs_u64(a->ctx, "delivered_while_held", rs.bytes);
	n_record_release_flip(a->tty);
}

static void dont_flip(struct scenario_ctx *ctx)
{
	struct line_input in;
	struct dont_flip_arg a;
	struct sim_uart *u;
	struct tty_struct *tty;

	make_input(&in, scn_seed(ctx), scn_size(ctx, 6000, 3000));
	if (!inv(ctx, "tty_init", tty_init() == 0))
		return;
	u = sim_uart_plug(0, 4, 16, 0);
	tty = tty_open_line(0, 0);
	if (!inv(ctx, "opened", u && tty))
		goto out;

	n_record_hold_flip(tty);
	memset(&a, 0, sizeof(a));
	a.feed.u = u;
	a.feed.in = &in;
	a.feed.seed = scn_seed(ctx);
	a.tty = tty;
	a.ctx = ctx;
	scn_run_threads(2, dont_flip_thread, &a);
	inv(ctx, "uart_took_everything", a.feed.sent == in.len);
	report_line(ctx, tty, 0, &in);
out:
	tty_release(tty);
	sim_uart_unplug(u);
	tty_exit();
	free(in.buf);
}
/*
 * Concurrent: how often flush_to_ldisc requeues itself, and how often the
 * interrupt finds the flip full, depend on how long the reader holds it.
 */
SCENARIO(tty, "dont_flip", 1, dont_flip,
	 "a reader holds TTY_DONT_FLIP while 6000 bytes arrive: flush_to_ldisc "
	 "requeues itself, the interrupt gives up when the flip is full; all "
	 "arrives in order once it lets go");

/*
 * The line is closed while its input still waits in the flip buffer, as a
 * user hangs up mid-stream: the release must run the flip work before the
 * tty goes (release_dev's flush), and no extra quiesce of ours helps it.
 */
static void close_receiving(struct scenario_ctx *ctx)
{
	struct line_input in;
	struct n_record_stats rs;
	struct sim_uart *u;
	struct tty_struct *tty;

	make_input(&in, scn_seed(ctx), 3000);
	if (!inv(ctx, "tty_init", tty_init() == 0))
		return;
	u = sim_uart_plug(0, 4, 16, 0);
	tty = tty_open_line(0, 0);
	if (!inv(ctx, "opened", u && tty))
		goto out;
	inv(ctx, "uart_took_everything",
	    feed_chunks(u, &in, scn_seed(ctx)) == in.len);
	tty_release(tty); /* at once: the driver flushes what is pending */
	tty = NULL;
	n_record_get(0, &rs);
	obs_u64(ctx, "bytes", rs.bytes);
	obs_hex(ctx, "digest", rs.digest);
	inv(ctx, "all_delivered_before_close",
	    rs.bytes == in.len && rs.digest == in.digest);
out:
	if (tty)
		tty_release(tty);
	sim_uart_unplug(u);
	tty_exit();
	free(in.buf);
}
SCENARIO(tty, "close_receiving", 0, close_receiving,
	 "3000 bytes arrive and the line is closed at once: the release runs "
	 "the pending flip work before the tty is freed");

/* write(2) on a loopback line: the data comes back through the receiver */
static void loopback(struct scenario_ctx *ctx)
{
	struct line_input in;
	struct sim_uart *u;
	struct tty_struct *tty;
	struct sim_uart_stats us;
	int written;

	make_input(&in, scn_seed(ctx), scn_size(ctx, 40 * 1024, 6 * 1024));
	if (!inv(ctx, "tty_init", tty_init() == 0))
		return;
	u = sim_uart_plug(1, 3, 16, 1);
	tty = tty_open_line(1, 0);
	if (!inv(ctx, "opened", u && tty))
		goto out;

	written = tty_write_user(tty, in.buf, in.len);
	inv(ctx, "write_complete", written == (int) in.len);
	report_line(ctx, tty, 1, &in);
	sim_uart_get_stats(u, &us);
	obs_u64(ctx, "tx_bytes", us.tx_bytes);
	obs_hex(ctx, "tx_digest", us.tx_digest);
	inv(ctx, "tx_digest_matches", us.tx_digest == in.digest);
	/* the writer had to sleep: 40 KiB do not fit the 4 KiB buffer */
	inv(ctx, "writer_woken_by_bh", serial8250_write_wakeups(1) > 0);
	stat_u64(ctx, "write_wakeups", serial8250_write_wakeups(1));
	/* every received byte is pushed once; the wakeups follow the drain */
	exact_counts(ctx, "flush_to_ldisc");
out:
	tty_release(tty);
	sim_uart_unplug(u);
	tty_exit();
	free(in.buf);
}
/*
 * Concurrent: the writer sleeps while the transmitter drains, and how
 * often it is woken (do_softint) depends on when it does.
 */
SCENARIO(tty, "loopback", 1, loopback,
	 "40 KiB written to a loopback ttyS1: transmit interrupts, write wakeups "
	 "from tq_immediate, and the bytes back through the flip buffer");

static void kbd_char(void *arg)
{
	vt_keyboard_interrupt((unsigned char) (unsigned long) arg);
}

static void switch_in_irq(void *arg)
{
	set_console((int) (long) arg);
}

/* hangup, SAK and the console callback, one after the other */
static void hangup_sak(struct scenario_ctx *ctx)
{
	static const char typed[] = "root\nsecret\n";
	struct line_input in;
	struct sim_uart *u0, *u1;
	struct tty_struct *t0, *t1;
	struct tty_port_stats s0, s1;
	struct n_record_stats rs;
	struct vt_stats vs;
	int64_t log[64];
	unsigned char x = 'x';
	int i, r, blanked;

	make_input(&in, scn_seed(ctx), 3000);
	if (!inv(ctx, "tty_init", tty_init() == 0))
		return;
	u0 = sim_uart_plug(0, 4, 16, 0);
	u1 = sim_uart_plug(1, 3, 16, 0);
	t0 = tty_open_line(0, 0);
	t1 = tty_open_line(1, 0);
	if (!inv(ctx, "opened", u0 && u1 && t0 && t1))
		goto out;

	/* data on ttyS1, then the line hangs up */
	sim_uart_feed(u1, in.buf, in.len);
	n_record_wait_bytes(1, in.len, WAIT_MS);
	tty_hangup(t1);
	tty_quiesce();
	tty_get_stats(t1, &s1);
	n_record_get(1, &rs);
	obs_u64(ctx, "ttyS1_bytes", rs.bytes);
	obs_hex(ctx, "ttyS1_digest", rs.digest);
	obs_u64(ctx, "ttyS1_hangups", s1.hangups);
	obs_u64(ctx, "ttyS1_flushed_by_hangup", rs.flushed);
	inv(ctx, "hangup_ran_once", s1.hangups == 1 && s1.hung_up);
	r = tty_write_user(t1, &x, 1);
	obs_i64(ctx, "write_after_hangup", r);
	inv(ctx, "write_after_hangup_fails", r == -EIO);
	/* a second hangup request finds the line already hung up */
	tty_hangup(t1);
	tty_quiesce();
	tty_get_stats(t1, &s1);
	inv(ctx, "hangup_idempotent", s1.hangups == 1);

	/* the keyboard types into ttyS0, then the user presses SAK */
	vt_attach_tty(t0);
	for (i = 0; typed[i]; i++)
		sim_call_in_irq(kbd_char, (void *) (unsigned long) typed[i]);
	n_record_wait_bytes(0, strlen(typed), WAIT_MS);
	do_SAK(t0);
	tty_quiesce();
	tty_get_stats(t0, &s0);
	n_record_get(0, &rs);
	obs_u64(ctx, "ttyS0_typed", rs.bytes);
	obs_hex(ctx, "ttyS0_digest", rs.digest);
	obs_u64(ctx, "ttyS0_saks", s0.saks);
	obs_u64(ctx, "ttyS0_flushed_by_sak", rs.flushed);
	obs_i64(ctx, "ttyS0_session_after_sak", s0.session);
	inv(ctx, "sak_ran_once", s0.saks == 1);
	inv(ctx, "sak_killed_session", s0.session == 0);
	vt_attach_tty(NULL);

	/* console switches, from process and interrupt context */
	set_console(2);
	vt_quiesce();
	sim_call_in_irq(switch_in_irq, (void *) 3L);
	vt_quiesce();
	set_console(7); /* not allocated: ignored */
	vt_quiesce();
	set_console(0);
	vt_quiesce();

	/* the blank timer, then a key brings the screen back */
	vt_set_blank_interval(5);
	blanked = scn_wait_until((vt_get_stats(&vs), vs.blanked), WAIT_MS);
	vt_set_blank_interval(0);
	inv(ctx, "screen_blanked", blanked);
	sim_call_in_irq(kbd_char, (void *) (unsigned long) ' ');
	vt_quiesce();
	vt_get_stats(&vs);
	for (i = 0; i < vs.log_len; i++)
		log[i] = vs.log[i];
	obs_i64_list(ctx, "console_switches", log, vs.log_len);
	obs_i64(ctx, "fg_console", vs.fg_console);
	obs_u64(ctx, "blanks", vs.blanks);
	obs_u64(ctx, "unblanks", vs.unblanks);
	obs_u64(ctx, "blanked_at_end", vs.blanked);
	inv(ctx, "switches_in_order",
	    vs.log_len == 3 && vs.log[0] == 2 && vs.log[1] == 3 &&
		    vs.log[2] == 0);
	inv(ctx, "unblanked_by_key",
	    vs.blanks == 1 && vs.unblanks == 1 && !vs.blanked);
	stat_u64(ctx, "console_callbacks", vs.callbacks);
out:
	tty_release(t0);
	tty_release(t1);
	sim_uart_unplug(u0);
	sim_uart_unplug(u1);
	tty_exit();
	free(in.buf);
}
SCENARIO(tty, "hangup_sak", 0, hangup_sak,
	 "hangup work, SAK via PREPARE_TQUEUE/PREPARE_WORK, keyboard flips, "
	 "console switches and blanking through the console callback");

/* @n bytes of @in through @u, all delivered to the line discipline */
static void feed_delivered(struct sim_uart *u, int line,
			   const struct line_input *in, size_t n)
{
	sim_uart_feed(u, in->buf, n);
	n_record_wait_bytes(line, n, WAIT_MS);
}

/*
 * Teardown with work still to do: each line is closed, and the module
 * unloaded, right after deferred work was asked for, with no quiesce of
 * ours: the release's flush (and vt_exit()'s) must run it first, on a tty
 * whose port is already shut down.  And the synchronous hangup, vhangup().
 */
static void close_pending(struct scenario_ctx *ctx)
{
	struct line_input in;
	struct sim_uart *u[3];
	struct tty_struct *t[3];
	struct tty_port_stats ts;
	struct n_record_stats rs[3];
	struct vt_stats vs;
	unsigned char x = 'x';
	int i, r, ok = 1;

	make_input(&in, scn_seed(ctx), 600);
	if (!inv(ctx, "tty_init", tty_init() == 0))
		return;
	for (i = 0; i < 3; i++) {
		u[i] = sim_uart_plug(i, 4 + i, 16, 0);
		t[i] = tty_open_line(i, 0);
		ok &= u[i] && t[i];
	}
	if (!inv(ctx, "opened", ok))
		goto out;
	for (i = 0; i < 3; i++)
		feed_delivered(u[i], i, &in, 200 * (i + 1));

	/* ttyS0: SAK, and the line closed at once */
	do_SAK(t[0]);
	tty_release(t[0]);
	t[0] = NULL;
	/* ttyS1: a hangup asked for, and the line closed at once */
	tty_hangup(t[1]);
	tty_release(t[1]);
	t[1] = NULL;
	/* ttyS2: vhangup(2), done by the caller; a later hangup finds it done */
	tty_vhangup(t[2]);
	r = tty_write_user(t[2], &x, 1);
	tty_hangup(t[2]);
	tty_quiesce();
	tty_get_stats(t[2], &ts);
	obs_i64(ctx, "ttyS2_write_after_vhangup", r);
	obs_u64(ctx, "ttyS2_hangups", ts.hangups);
	inv(ctx, "vhangup_once", ts.hangups == 1 && ts.hung_up && r == -EIO);
	tty_release(t[2]);
	t[2] = NULL;
	for (i = 0; i < 3; i++)
		n_record_get(i, &rs[i]);
	obs_u64(ctx, "ttyS0_flushed_by_sak", rs[0].flushed);
	obs_u64(ctx, "ttyS1_flushed_by_hangup", rs[1].flushed);
	obs_u64(ctx, "ttyS2_flushed_by_vhangup", rs[2].flushed);
	inv(ctx, "pending_work_ran_before_the_tty_went",
	    rs[0].flushed == 200 && rs[1].flushed == 400);
	inv(ctx, "vhangup_flushed", rs[2].flushed == 600);

	/* a console switch asked for, and the module unloaded at once */
	set_console(3);
out:
	for (i = 0; i < 3; i++) {
		if (t[i])
			tty_release(t[i]);
		sim_uart_unplug(u[i]);
	}
	tty_exit();
	vt_get_stats(&vs);
	obs_i64(ctx, "fg_console_after_exit", vs.fg_console);
	inv(ctx, "switch_done_by_exit", vs.fg_console == 3);
	free(in.buf);
}
SCENARIO(tty, "close_pending", 0, close_pending,
	 "lines closed right after a SAK and a hangup were asked for, a "
	 "vhangup, and the module unloaded right after a console switch: "
	 "each teardown's flush runs the pending work first");

static int init_once(void *arg)
{
	int ret = tty_init();

	if (!ret)
		tty_exit();
	return ret;
}

/*
 * tty_init's allocations, then the threads it may start, fail in turn:
 * nothing of it needs either today, but a design change that gives the
 * console or the flip work a queue of its own adds both, and its failure
 * path must then run somewhere.
 */
static void init_nomem(struct scenario_ctx *ctx)
{
	obs_i64(ctx, "init_despite_kmalloc_failures",
		scn_fail_in_turn(ctx, "init_kmalloc", 0, init_once, NULL));
	obs_i64(ctx, "init_despite_kthread_failures",
		scn_fail_in_turn(ctx, "init_kthread", 1, init_once, NULL));
}
SCENARIO(tty, "init_nomem", 0, init_nomem,
	 "tty_init's allocations, then its threads, fail in turn: -ENOMEM "
	 "each time, nothing left behind, and a later init works");

#define SH_LINES 4
#define SH_SAKS 24

struct sak_hangup {
	struct tty_struct *tty[SH_LINES];
	int pressing[SH_LINES];
};

static void sak_in_irq(void *arg)
{
	do_SAK(arg);
}

/*
 * thread 0 is the keyboard, pressing SAK on each line again and again,
 * then hanging the line up; thread 1 the modem, whose carrier drops on
 * each line meanwhile: a hangup asked on two CPUs
 */
static void sak_hangup_thread(void *arg, int i)
{
	struct sak_hangup *sh = arg;
	unsigned long cpus = cpu_online_map;
	int l, n;

	/* each on a CPU of its own: the works go to two workers */
	if (i == 1 && (cpus & (cpus - 1)))
		cpus &= cpus - 1;
	set_cpus_allowed(current, cpus & -cpus);
	for (l = 0; l < SH_LINES; l++) {
		if (i == 1) {
			scn_wait_until(__atomic_load_n(&sh->pressing[l],
						       __ATOMIC_SEQ_CST),
				       WAIT_MS);
			tty_hangup(sh->tty[l]);
			continue;
		}
		for (n = 0; n < SH_SAKS; n++) {
			sim_call_in_irq(sak_in_irq, sh->tty[l]);
			if (n == 2)
				__atomic_store_n(&sh->pressing[l], 1,
						 __ATOMIC_SEQ_CST);
			if (n % 4 == 3)
				scn_sleep_ms(1);
		}
		tty_hangup(sh->tty[l]);
	}
}

/*
 * The SAK work and the hangup work of one line: keventd ran them one
 * after the other, the events workers of two CPUs run them at once.  Both
 * kill the session and flush the buffers, which only their locks keep
 * apart now.
 */
static void sak_hangup(struct scenario_ctx *ctx)
{
	struct sak_hangup sh;
	struct sim_uart *u[SH_LINES];
	uint64_t hangups[SH_LINES];
	int64_t sessions[SH_LINES];
	int i, ok = 1, saks_ok = 1;

	memset(&sh, 0, sizeof(sh));
	if (!inv(ctx, "tty_init", tty_init() == 0))
		return;
	for (i = 0; i < SH_LINES; i++) {
		u[i] = sim_uart_plug(i, 4 + i, 16, 0);
		sh.tty[i] = tty_open_line(i, 0);
		ok &= u[i] && sh.tty[i];
	}
	if (!inv(ctx, "opened", ok))
		goto out;
	scn_run_threads(2, sak_hangup_thread, &sh);
	tty_quiesce();
	for (i = 0; i < SH_LINES; i++) {
		struct tty_port_stats ts;

		tty_get_stats(sh.tty[i], &ts);
		hangups[i] = ts.hangups;
		sessions[i] = ts.session;
		if (ts.saks < 1 || ts.saks > SH_SAKS)
			saks_ok = 0;
	}
	obs_u64_list(ctx, "hangups_per_line", hangups, SH_LINES);
	obs_i64_list(ctx, "session_per_line", sessions, SH_LINES);
	inv(ctx, "saks_coalesced_not_lost", saks_ok);
	exact_counts(ctx, "do_tty_hangup");
out:
	for (i = 0; i < SH_LINES; i++) {
		if (sh.tty[i])
			tty_release(sh.tty[i]);
		sim_uart_unplug(u[i]);
	}
	tty_exit();
}
SCENARIO(tty, "sak_hangup", 1, sak_hangup,
	 "SAK pressed again and again on 4 lines, then a hangup, while their "
	 "carrier drops: the SAK work and the hangup work of a line, and its "
	 "two hangups, run at once on two CPUs");

#define STORM_LINES 4
#define STORM_KEYS 2

struct storm {
	struct scenario_ctx *ctx;
	struct feeder feed[STORM_LINES];
	struct tty_struct *tty[STORM_LINES];
	unsigned long sak_requests[STORM_LINES];
	unsigned long switch_requests;
	int requested[8];
	volatile int feeding;
};

/* threads 0..3 feed a line each; the rest press keys: SAK, Alt-Fn */
static void storm_thread(void *arg, int i)
{
	struct storm *st = arg;
	u64 s;
	int n;

	if (i < STORM_LINES) {
		feeder_thread(st->feed, i);
		__atomic_sub_fetch(&st->feeding, 1, __ATOMIC_SEQ_CST);
		return;
	}
	s = world_prng_seed(scn_seed(st->ctx) * 31 + i);
	/*
	 * while the lines are fed, and a few keys whatever the feeders' pace,
	 * the first a SAK: each side runs the SAK work, however fast the
	 * lines were fed (a routine seen on one side only is a difference)
	 */
	for (n = 0;
	     (n < 8 || __atomic_load_n(&st->feeding, __ATOMIC_SEQ_CST)) &&
	     n < 400;
	     n++) {
		int line = world_prng_below(&s, STORM_LINES);
		int con = world_prng_below(&s, 6);

		if (n == 0 || world_prng_below(&s, 4) == 0) {
			do_SAK(st->tty[line]);
			__atomic_add_fetch(&st->sak_requests[line], 1,
					   __ATOMIC_SEQ_CST);
		}
		sim_call_in_irq(switch_in_irq, (void *) (long) con);
		__atomic_store_n(&st->requested[con], 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&st->switch_requests, 1, __ATOMIC_SEQ_CST);
		scn_sleep_ms(1);
	}
}

static void storm(struct scenario_ctx *ctx)
{
	struct line_input in[STORM_LINES];
	struct sim_uart *u[STORM_LINES];
	struct storm st;
	struct vt_stats vs;
	uint64_t bytes[STORM_LINES];
	const char *digests[STORM_LINES];
	char dig[STORM_LINES][20];
	int i, ok = 1, saks_ok = 1;
	unsigned long saks_total = 0, sak_requests = 0;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	if (!inv(ctx, "tty_init", tty_init() == 0))
		return;
	for (i = 0; i < STORM_LINES; i++) {
		make_input(&in[i], scn_seed(ctx) * 100 + i,
			   scn_size(ctx, 48 * 1024, 3 * 1024));
		u[i] = sim_uart_plug(i, 4 + i, 16 << i, 0);
		/* lines 2 and 3 are low latency: flushes in the interrupt */
		st.tty[i] = tty_open_line(i, i >= 2);
		if (!u[i] || !st.tty[i])
			ok = 0;
		st.feed[i].u = u[i];
		st.feed[i].in = &in[i];
		st.feed[i].seed = scn_seed(ctx) + i;
	}
	if (!inv(ctx, "opened", ok))
		goto out;
	st.feeding = STORM_LINES;
	scn_run_threads(STORM_LINES + STORM_KEYS, storm_thread, &st);

	for (i = 0; i < STORM_LINES; i++) {
		struct n_record_stats rs;
		struct tty_port_stats ts;

		n_record_wait_bytes(i, in[i].len, WAIT_MS);
		n_record_get(i, &rs);
		/* a SAK asked for runs on its own time: wait for it, no flush */
		if (st.sak_requests[i])
			scn_wait_until((tty_get_stats(st.tty[i], &ts),
					ts.saks >= 1),
				       WAIT_MS);
		tty_get_stats(st.tty[i], &ts);
		bytes[i] = rs.bytes;
		snprintf(dig[i], sizeof(dig[i]), "%016llx",
			 (unsigned long long) rs.digest);
		digests[i] = dig[i];
		if (rs.bytes != in[i].len || rs.digest != in[i].digest)
			ok = 0;
		/* SAKs coalesce while pending: at least one ran per line asked */
		if (st.sak_requests[i] &&
		    (ts.saks < 1 || ts.saks > st.sak_requests[i]))
			saks_ok = 0;
		if (!st.sak_requests[i] && ts.saks)
			saks_ok = 0;
		saks_total += ts.saks;
		sak_requests += st.sak_requests[i];
	}
	obs_u64_list(ctx, "bytes_per_line", bytes, STORM_LINES);
	obs_str_list(ctx, "digest_per_line", digests, STORM_LINES);
	inv(ctx, "every_line_in_order", ok);
	inv(ctx, "saks_coalesced_not_lost", saks_ok);

	vt_get_stats(&vs);
	inv(ctx, "fg_console_was_requested",
	    vs.fg_console == 0 || st.requested[vs.fg_console]);
	inv(ctx, "switches_at_most_requests",
	    vs.switches <= st.switch_requests);
	stat_u64(ctx, "sak_requests", sak_requests);
	stat_u64(ctx, "saks_run", saks_total);
	stat_u64(ctx, "switch_requests", st.switch_requests);
	stat_u64(ctx, "switches", vs.switches);
	stat_u64(ctx, "console_callbacks", vs.callbacks);
out:
	for (i = 0; i < STORM_LINES; i++) {
		tty_release(st.tty[i]);
		sim_uart_unplug(u[i]);
		free(in[i].buf);
	}
	tty_exit();
}
SCENARIO(tty, "storm", 1, storm,
	 "4 lines fed at once (2 low latency) while 2 keyboards press SAK and "
	 "Alt-Fn from interrupt context: every line's bytes in order");
