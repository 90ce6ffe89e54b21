/*
 * mixed.c - scenarios across drivers, in the "all" binary.
 *
 * isolation: the seed's latency story.  Four file systems on slow disks
 * end transactions at once; their commits sleep on the disks; on the old
 * stack they all run on keventd, one after the other, and the tty's
 * flip-buffer work queues up behind them.  Each character's delay from the line to
 * the line discipline is measured; the figures are stats (timing), the
 * bytes, digests and commit counts observables.
 *
 * everything: all the real-time drivers at once on one process, each
 * checking its own invariants.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <shim/stats.h>
#include <linux/errno.h>
#include <world/util.h>
#include <world/uart.h>
#include <world/irq.h>
#include <world/n_record.h>
#include <world/file.h>
#include <world/umh.h>
#include <entry/tty.h>
#include <entry/reiserfs.h>
#include <entry/random.h>
#include <entry/aio.h>
#include <entry/kmod.h>

#include "scenario.h"

#define ISO_WRITERS 4
#define ISO_TRANS 10
#define ISO_LATENCY 20 /* ticks (ms) per disk write */
#define ISO_BYTES 160

struct isolation {
	struct scenario_ctx *ctx;
	struct super_block *fs[ISO_WRITERS];
	struct sim_uart *u;
	unsigned char data[ISO_BYTES];
	uint64_t sent_ns[ISO_BYTES];
	uint64_t lat_us[ISO_BYTES];
	int delivered;
};

static void isolation_thread(void *arg, int i)
{
	struct isolation *iso = arg;
	int n;

	if (i < ISO_WRITERS) {
		for (n = 0; n < ISO_TRANS; n++)
			reiserfs_transaction(iso->fs[i], 4, 0);
		return;
	}
	if (i == ISO_WRITERS) {
		/* the typist: a character every 5 ms, whatever happens */
		for (n = 0; n < ISO_BYTES; n++) {
			iso->sent_ns[n] = scn_now_ns();
			sim_uart_feed(iso->u, &iso->data[n], 1);
			scn_sleep_ms(5);
		}
		return;
	}
	/* the watcher: when each character reaches the line discipline */
	for (n = 0; n < ISO_BYTES; n++) {
		if (n_record_wait_bytes(0, n + 1, 20000) < (u64) n + 1)
			break;
		iso->lat_us[n] =
			(scn_now_ns() -
			 __atomic_load_n(&iso->sent_ns[n], __ATOMIC_SEQ_CST)) /
			1000;
		iso->delivered++;
	}
}

static void isolation(struct scenario_ctx *ctx)
{
	struct isolation iso;
	struct reiserfs_journal_stats js;
	struct n_record_stats rs;
	struct tty_struct *tty;
	u64 s = world_prng_seed(scn_seed(ctx));
	uint64_t sum = 0;
	unsigned long commits = 0, async_commits = 0;
	int i, ok = 1, in_order = 1;

	memset(&iso, 0, sizeof(iso));
	iso.ctx = ctx;
	world_prng_fill(&s, iso.data, ISO_BYTES);
	if (!inv(ctx, "tty_init", tty_init() == 0))
		return;
	iso.u = sim_uart_plug(0, 4, 16, 0);
	tty = tty_open_line(0, 0);
	for (i = 0; i < ISO_WRITERS; i++) {
		char name[16];

		snprintf(name, sizeof(name), "slow%d", i);
		iso.fs[i] = reiserfs_mount(name, ISO_LATENCY);
		ok &= iso.fs[i] != NULL;
	}
	if (!inv(ctx, "opened", iso.u && tty && ok)) {
		for (i = 0; i < ISO_WRITERS; i++)
			if (iso.fs[i])
				reiserfs_umount(iso.fs[i], NULL, NULL, 0);
		goto out;
	}

	scn_run_threads(ISO_WRITERS + 2, isolation_thread, &iso);

	n_record_get(0, &rs);
	obs_u64(ctx, "bytes", rs.bytes);
	obs_hex(ctx, "digest", rs.digest);
	inv(ctx, "every_character_delivered_in_order",
	    iso.delivered == ISO_BYTES &&
		    rs.digest == world_digest(WORLD_DIGEST_INIT, iso.data,
					      ISO_BYTES));

	for (i = 0; i < ISO_WRITERS; i++) {
		reiserfs_umount(iso.fs[i], &js, NULL, 0);
		commits += js.commits;
		async_commits += js.async_commits;
		in_order &= js.order_ok && js.commits == ISO_TRANS;
	}
	obs_u64(ctx, "commits", commits);
	inv(ctx, "commits_in_order", in_order);

	for (i = 0; i < iso.delivered; i++)
		sum += iso.lat_us[i];
	if (iso.delivered) {
		stat_u64(ctx, "tty_latency_us_mean", sum / iso.delivered);
		stat_u64(ctx, "tty_latency_us_p50",
			 shim_percentile(iso.lat_us, iso.delivered, 50));
		stat_u64(ctx, "tty_latency_us_p90",
			 shim_percentile(iso.lat_us, iso.delivered, 90));
		stat_u64(ctx, "tty_latency_us_max",
			 shim_percentile(iso.lat_us, iso.delivered, 100));
	}
	stat_u64(ctx, "commit_ms_each", ISO_LATENCY);
	stat_u64(ctx, "async_commits", async_commits);
out:
	tty_release(tty);
	sim_uart_unplug(iso.u);
	tty_exit();
}
SCENARIO(mixed, "isolation", 1, isolation,
	 "4 file systems end 10 transactions each, whose commits sleep 20 ms, while "
	 "a typist sends a character to ttyS0 every 5 ms: how long each waits "
	 "for flush_to_ldisc (stats), behind the commits on keventd");

/* everything at once: each part checks itself */
struct everything {
	struct scenario_ctx *ctx;
	struct tty_struct *tty;
	struct sim_uart *u;
	unsigned char *tty_data;
	size_t tty_len;
	struct super_block *fs;
	unsigned long aio_events, aio_submitted, kmod_errors;
	int transactions, aio_files, modules; /* scn_size() */
	volatile int running;
};

static void random_irq(void *arg)
{
	add_interrupt_randomness((int) (long) arg);
}

static void hotplug_irq(void *arg)
{
	kmod_hotplug_event("usb", "add");
}

static void everything_thread(void *arg, int i)
{
	struct everything *ev = arg;
	u64 s = world_prng_seed(scn_seed(ev->ctx) * 3 + i);
	int n;

	switch (i) {
	case 0: /* the tty line */
		sim_uart_feed(ev->u, ev->tty_data, ev->tty_len);
		break;
	case 1: /* the journal */
		for (n = 0; n < ev->transactions; n++)
			reiserfs_transaction(ev->fs, 3, n % 9 == 8);
		break;
	case 2: /* interrupts feeding the entropy pool */
		for (n = 0; n < (int) scn_size(ev->ctx, 2000, 200); n++) {
			sim_call_in_irq(random_irq, (void *) 1L);
			if (n % 50 == 0)
				scn_sleep_ms(1);
		}
		break;
	case 3: { /* asynchronous I/O, files closed early */
		struct kioctx *ioctx;
		static char buf[8][4096];

		if (io_setup(16, &ioctx))
			break;
		for (n = 0; n < ev->aio_files; n++) {
			int fd = sim_file_open("aio", 65536, 1 + n % 3, s + n);
			struct iocb cbs[8], *ptrs[8];
			struct io_event evs[8];
			long got = 0, k;

			if (fd < 0)
				continue;

			for (k = 0; k < 8; k++) {
				memset(&cbs[k], 0, sizeof(cbs[k]));
				cbs[k].aio_data = k;
				cbs[k].aio_lio_opcode =
					k & 1 ? IOCB_CMD_PWRITE :
						IOCB_CMD_PREAD;
				cbs[k].aio_fildes = fd;
				cbs[k].aio_buf = buf[k];
				cbs[k].aio_nbytes = 4096;
				cbs[k].aio_offset =
					4096 * world_prng_below(&s, 16);
				ptrs[k] = &cbs[k];
			}
			/* requests whose last fput is still deferred count as
			 * active: a full context says -EAGAIN; reap and retry */
			for (k = 0; got < 8;) {
				long r = k < 8 ? io_submit(ioctx, 8 - k,
							   ptrs + k) :
						 0;

				if (r > 0)
					k += r;
				/* closed before any wait: I/O still in flight,
				 * the last fput is a completion's */
				if (k == 8 && fd >= 0) {
					sim_file_close(fd);
					fd = -1;
				}
				if (got < k) {
					long g = io_getevents(ioctx, 1, 8, evs);

					if (g > 0)
						got += g;
				} else if (r <= 0) {
					scn_sleep_ms(1);
				}
			}
			ev->aio_submitted += k;
			ev->aio_events += got;
		}
		io_destroy(ioctx);
		break;
	}
	case 4: /* modules and hotplug */
		for (n = 0; n < ev->modules; n++) {
			char name[32];

			snprintf(name, sizeof(name), "mix-%d", n);
			if (request_module(name))
				ev->kmod_errors++;
			sim_call_in_irq(hotplug_irq, NULL);
		}
		break;
	case 5: /* SAKs and console switches from the keyboard */
		for (n = 0; n < (int) scn_size(ev->ctx, 50, 10); n++) {
			if (n % 5 == 0)
				do_SAK(ev->tty);
			set_console(world_prng_below(&s, 6));
			scn_sleep_ms(1);
		}
		break;
	}
}

static void everything(struct scenario_ctx *ctx)
{
	struct everything ev;
	struct n_record_stats rs;
	struct reiserfs_journal_stats js;
	struct random_stats ranst;
	struct aio_stats as;
	struct kmod_stats ks;
	struct sim_file_stats fs;
	u64 s = world_prng_seed(scn_seed(ctx));
	int ok;

	memset(&ev, 0, sizeof(ev));
	ev.ctx = ctx;
	ev.tty_len = scn_size(ctx, 32 * 1024, 2048);
	ev.transactions = scn_size(ctx, 30, 10);
	/* all 20 files even when small: with fewer, keventd's deferred
	 * fputs never fill a context (the -EAGAIN path) */
	ev.aio_files = 20;
	ev.modules = scn_size(ctx, 20, 5);
	ev.tty_data = malloc(ev.tty_len);
	world_prng_fill(&s, ev.tty_data, ev.tty_len);

	ok = tty_init() == 0;
	ev.u = sim_uart_plug(0, 4, 64, 0);
	ev.tty = tty_open_line(0, 0);
	ev.fs = reiserfs_mount("sda1", 2);
	ok &= rand_initialize() == 0 && rand_initialize_irq(1) == 0;
	ok &= aio_setup() == 0;
	kmod_init();
	kmod_set_system_running(1);
	if (!inv(ctx, "all_up", ok && ev.u && ev.tty && ev.fs)) {
		if (ev.fs)
			reiserfs_umount(ev.fs, NULL, NULL, 0);
		goto out;
	}

	scn_run_threads(6, everything_thread, &ev);

	n_record_wait_bytes(0, ev.tty_len, 20000);
	n_record_get(0, &rs);
	obs_u64(ctx, "tty_bytes", rs.bytes);
	obs_hex(ctx, "tty_digest", rs.digest);
	inv(ctx, "tty_in_order",
	    rs.bytes == ev.tty_len &&
		    rs.digest == world_digest(WORLD_DIGEST_INIT, ev.tty_data,
					      ev.tty_len));

	reiserfs_umount(ev.fs, &js, NULL, 0);
	obs_u64(ctx, "journal_commits", js.commits);
	inv(ctx, "journal_in_order",
	    js.order_ok && js.commits == ev.transactions);

	random_quiesce();
	random_get_stats(&ranst);
	inv(ctx, "entropy_all_mixed", ranst.mixed == ranst.stored);

	sim_file_sync(); /* the disk's completions have all returned */
	obs_u64(ctx, "aio_events", ev.aio_events);
	inv(ctx, "aio_all_completed",
	    ev.aio_events == 8 * ev.aio_files &&
		    ev.aio_submitted == 8 * ev.aio_files);

	kmod_quiesce();
	kmod_get_stats(&ks);
	obs_u64(ctx, "helper_calls", sim_umh_count());
	inv(ctx, "kmod_all_ran",
	    sim_umh_count() == 2 * ev.modules && !ev.kmod_errors &&
		    ks.from_keventd == ev.modules);

out:
	tty_release(ev.tty);
	sim_uart_unplug(ev.u);
	tty_exit();
	random_exit();
	aio_exit();
	kmod_exit();

	aio_get_stats(&as);
	sim_file_get_stats(&fs);
	inv(ctx, "aio_all_freed",
	    as.reqs_freed == as.reqs_allocated &&
		    as.ctxs_freed == as.ctxs_allocated &&
		    fs.released == fs.opened);
	stat_u64(ctx, "aio_fput_deferred", as.fput_deferred);
	stat_u64(ctx, "entropy_samples", ranst.stored);
	free(ev.tty_data);
}
SCENARIO(mixed, "everything", 1, everything,
	 "tty, journal, entropy, aio, kmod and the consoles all at once on one "
	 "deferred-work stack; each checks its own invariants");
