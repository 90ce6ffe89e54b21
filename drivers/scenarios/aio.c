/*
 * aio.c - scenarios of the aio port: the last fput of a request, done in
 * interrupt context, deferred to process context; everything freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <linux/errno.h>
#include <world/util.h>
#include <world/file.h>
#include <entry/aio.h>

#include "scenario.h"

/* the files' size: 64 KiB, or 8 KiB at exploration size (size_files()) */
static size_t file_size = 64 * 1024;
#define FILE_SIZE file_size

static void size_files(struct scenario_ctx *ctx)
{
	file_size = scn_size(ctx, 64 * 1024, 8 * 1024);
}

struct batch {
	int n;
	struct iocb *cbs;
	struct iocb **ptrs;
	unsigned char **bufs;
};

static void make_batch(struct batch *b, int n, const int *fds, int nfds, u64 *s)
{
	int i;

	b->n = n;
	b->cbs = calloc(n, sizeof(*b->cbs));
	b->ptrs = calloc(n, sizeof(*b->ptrs));
	b->bufs = calloc(n, sizeof(*b->bufs));
	for (i = 0; i < n; i++) {
		struct iocb *cb = &b->cbs[i];
		size_t len = 512 * (1 + world_prng_below(s, 8));

		cb->aio_data = 1000 + i;
		cb->aio_lio_opcode = world_prng_below(s, 2) ? IOCB_CMD_PWRITE :
							      IOCB_CMD_PREAD;
		cb->aio_fildes = fds[world_prng_below(s, nfds)];
		cb->aio_nbytes = len;
		cb->aio_offset =
			512 * world_prng_below(s, (FILE_SIZE - len) / 512);
		b->bufs[i] = malloc(len);
		if (cb->aio_lio_opcode == IOCB_CMD_PWRITE)
			world_prng_fill(s, b->bufs[i], len);
		else
			memset(b->bufs[i], 0, len);
		cb->aio_buf = b->bufs[i];
		b->ptrs[i] = cb;
	}
}

static void free_batch(struct batch *b)
{
	int i;

	for (i = 0; i < b->n; i++)
		free(b->bufs[i]);
	free(b->cbs);
	free(b->ptrs);
	free(b->bufs);
}

static void report_counts(struct scenario_ctx *ctx)
{
	struct aio_stats as;
	struct sim_file_stats fs;

	aio_get_stats(&as);
	sim_file_get_stats(&fs);
	obs_u64(ctx, "requests_freed", as.reqs_freed);
	obs_u64(ctx, "contexts_freed", as.ctxs_freed);
	obs_u64(ctx, "files_released", fs.released);
	obs_hex(ctx, "released_files_digest", fs.released_digest);
	inv(ctx, "every_request_freed", as.reqs_freed == as.reqs_allocated);
	inv(ctx, "every_context_freed", as.ctxs_freed == as.ctxs_allocated);
	inv(ctx, "every_file_released", fs.released == fs.opened);
	inv(ctx, "deferred_fputs_all_done", as.fput_done == as.fput_deferred);
	stat_u64(ctx, "fput_routine_runs", as.fput_runs);
}

/* close the files while their requests are in flight */
static void close_early(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx));
	struct kioctx *ioctx;
	struct io_event ev[64];
	struct aio_stats as;
	struct batch b;
	uint64_t data[64];
	int64_t res[64];
	int fds[4], i;
	long n;
	u64 reads = WORLD_DIGEST_INIT;

	size_files(ctx);
	shim_clock_virtual();
	if (!inv(ctx, "aio_setup", aio_setup() == 0))
		return;
	if (!inv(ctx, "io_setup", io_setup(64, &ioctx) == 0)) {
		aio_exit();
		return;
	}
	for (i = 0; i < 4; i++)
		fds[i] = sim_file_open("data", FILE_SIZE, 3 + i,
				       scn_seed(ctx) + i);
	make_batch(&b, 32, fds, 4, &s);
	n = io_submit(ioctx, b.n, b.ptrs);
	obs_i64(ctx, "submitted", n);

	/* the descriptors go: the requests now hold the last references */
	for (i = 0; i < 4; i++)
		sim_file_close(fds[i]);
	shim_clock_advance(10); /* every request completes, in irq context */

	/* as many events as requests went in (an allocation may have failed) */
	n = io_getevents(ioctx, n > 0 ? n : 0, 64, ev);
	obs_i64(ctx, "events", n);
	for (i = 0; i < n; i++) {
		data[i] = ev[i].data;
		res[i] = ev[i].res;
	}
	obs_u64_list(ctx, "event_order", data, n);
	obs_i64_list(ctx, "event_res", res, n);
	for (i = 0; i < b.n; i++)
		if (b.cbs[i].aio_lio_opcode == IOCB_CMD_PREAD)
			reads = world_digest(reads, b.bufs[i],
					     b.cbs[i].aio_nbytes);
	obs_hex(ctx, "read_digest", reads);

	aio_get_stats(&as);
	obs_u64(ctx, "fput_deferred", as.fput_deferred);
	inv(ctx, "each_files_last_fput_deferred", as.fput_deferred == 4);
	inv(ctx, "io_destroy", io_destroy(ioctx) == 0);
	aio_exit();
	report_counts(ctx);
	free_batch(&b);
}
SCENARIO(aio, "close_early", 0, close_early,
	 "32 reads and writes on 4 files whose descriptors are closed while "
	 "the I/O is in flight: each file's last fput comes from the completion "
	 "interrupt and is deferred (fput_tqueue / the aio work)");

/* the same requests, completed at once; the user's close is the last fput */
static void sync_close(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx));
	struct kioctx *ioctx;
	struct io_event ev[64];
	struct aio_stats as;
	struct batch b;
	uint64_t data[64];
	int fds[4], i;
	long n;
	u64 reads = WORLD_DIGEST_INIT;
	struct iocb bad = { .aio_data = 1,
			    .aio_fildes = 63,
			    .aio_nbytes = 512 };
	struct iocb *badp = &bad;

	size_files(ctx);
	shim_clock_virtual();
	if (!inv(ctx, "aio_setup", aio_setup() == 0))
		return;
	if (!inv(ctx, "io_setup", io_setup(64, &ioctx) == 0)) {
		aio_exit();
		return;
	}
	for (i = 0; i < 4; i++)
		fds[i] = sim_file_open("data", FILE_SIZE, 0, scn_seed(ctx) + i);
	make_batch(&b, 32, fds, 4, &s);
	n = io_submit(ioctx, b.n, b.ptrs);
	obs_i64(ctx, "submitted", n);
	n = io_submit(ioctx, 1, &badp);
	obs_i64(ctx, "submit_bad_fd", n);
	inv(ctx, "bad_fd_refused", n == -EBADF);

	/* as many events as requests went in (an allocation may have failed) */
	n = io_getevents(ioctx, n > 0 ? n : 0, 64, ev);
	obs_i64(ctx, "events", n);
	for (i = 0; i < n; i++)
		data[i] = ev[i].data;
	obs_u64_list(ctx, "event_order", data, n);
	for (i = 0; i < b.n; i++)
		if (b.cbs[i].aio_lio_opcode == IOCB_CMD_PREAD)
			reads = world_digest(reads, b.bufs[i],
					     b.cbs[i].aio_nbytes);
	obs_hex(ctx, "read_digest", reads);
	for (i = 0; i < 4; i++)
		sim_file_close(fds[i]);

	aio_get_stats(&as);
	obs_u64(ctx, "fput_deferred", as.fput_deferred);
	inv(ctx, "nothing_deferred", as.fput_deferred == 0);
	inv(ctx, "io_destroy", io_destroy(ioctx) == 0);
	aio_exit();
	report_counts(ctx);
	free_batch(&b);
}
SCENARIO(aio, "sync_close", 0, sync_close,
	 "requests that complete at once, files closed afterwards: the last "
	 "fput is the user's and nothing is deferred");

struct destroy_arg {
	struct kioctx *ioctx;
	int ret;
	volatile int destroyed;
};

/* thread 0 destroys the context while thread 1 moves the clock */
static void destroy_thread(void *arg, int i)
{
	struct destroy_arg *a = arg;
	int t;

	if (i == 0) {
		a->ret = io_destroy(a->ioctx);
		__atomic_store_n(&a->destroyed, 1, __ATOMIC_SEQ_CST);
		return;
	}
	for (t = 0;
	     t < 100000 && !__atomic_load_n(&a->destroyed, __ATOMIC_SEQ_CST);
	     t++) {
		shim_clock_advance(1);
		aio_quiesce();
	}
}

static void destroy_inflight(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx));
	struct destroy_arg a;
	struct aio_stats as;
	struct batch b;
	int fds[2], i;
	long n;

	size_files(ctx);
	shim_clock_virtual();
	if (!inv(ctx, "aio_setup", aio_setup() == 0))
		return;
	memset(&a, 0, sizeof(a));
	if (!inv(ctx, "io_setup", io_setup(32, &a.ioctx) == 0)) {
		aio_exit();
		return;
	}
	for (i = 0; i < 2; i++)
		fds[i] =
			sim_file_open("data", FILE_SIZE, 50, scn_seed(ctx) + i);
	make_batch(&b, 16, fds, 2, &s);
	n = io_submit(a.ioctx, b.n, b.ptrs);
	obs_i64(ctx, "submitted", n);
	for (i = 0; i < 2; i++)
		sim_file_close(fds[i]);
	scn_run_threads(2, destroy_thread, &a);
	obs_i64(ctx, "io_destroy", a.ret);
	inv(ctx, "destroyed_after_inflight_io", a.ret == 0 && a.destroyed);
	aio_get_stats(&as);
	obs_u64(ctx, "fput_deferred", as.fput_deferred);
	obs_u64(ctx, "events_discarded", as.events);
	aio_exit();
	report_counts(ctx);
	free_batch(&b);
}
SCENARIO(
	aio, "destroy_inflight", 0, destroy_inflight,
	"io_destroy while 16 requests are in flight on closed files: it waits "
	"for them and for the deferred fputs; the context is freed by the last put");

static int setup_once(void *arg)
{
	int ret = aio_setup();

	if (!ret)
		aio_exit();
	return ret;
}

/* aio_setup's allocations, then its threads (a queue's workers), fail in turn */
static void setup_nomem(struct scenario_ctx *ctx)
{
	obs_i64(ctx, "setup_despite_kmalloc_failures",
		scn_fail_in_turn(ctx, "setup_kmalloc", 0, setup_once, NULL));
	obs_i64(ctx, "setup_despite_kthread_failures",
		scn_fail_in_turn(ctx, "setup_kthread", 1, setup_once, NULL));
}
SCENARIO(aio, "setup_nomem", 0, setup_nomem,
	 "aio_setup's allocations, then its threads, fail in turn: -ENOMEM "
	 "each time, nothing left behind, and a later setup works");

struct exit_arg {
	volatile int gone;
};

/* thread 0 unloads the module; thread 1 moves the clock meanwhile */
static void exit_thread(void *arg, int i)
{
	struct exit_arg *a = arg;
	int t;

	if (i == 0) {
		aio_exit();
		__atomic_store_n(&a->gone, 1, __ATOMIC_SEQ_CST);
		return;
	}
	for (t = 0; t < 100000 && !__atomic_load_n(&a->gone, __ATOMIC_SEQ_CST);
	     t++)
		shim_clock_advance(1);
}

/*
 * The process goes away, and aio with it, while two contexts are still
 * set up and their requests in flight on files already closed: exit_aio
 * destroys each context, waits for its requests, and the deferred final
 * fputs run before the module's caches go.
 */
static void exit_live(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx));
	struct kioctx *ioctx[2];
	struct exit_arg a;
	struct aio_stats as;
	struct batch b[2];
	int64_t submitted[2];
	int fds[2], i;

	size_files(ctx);
	shim_clock_virtual();
	if (!inv(ctx, "aio_setup", aio_setup() == 0))
		return;
	/* if the second cannot be set up, the exit still takes the first */
	if (!inv(ctx, "io_setup",
		 io_setup(16, &ioctx[0]) == 0 &&
			 io_setup(16, &ioctx[1]) == 0)) {
		aio_exit();
		return;
	}
	for (i = 0; i < 2; i++)
		fds[i] = sim_file_open("data", FILE_SIZE, 20 + 10 * i,
				       scn_seed(ctx) + i);
	for (i = 0; i < 2; i++) {
		/* each context's requests on both files */
		make_batch(&b[i], 8, fds, 2, &s);
		submitted[i] = io_submit(ioctx[i], b[i].n, b[i].ptrs);
	}
	obs_i64_list(ctx, "submitted", submitted, 2);
	for (i = 0; i < 2; i++)
		sim_file_close(fds[i]);
	memset(&a, 0, sizeof(a));
	scn_run_threads(2, exit_thread, &a);
	aio_get_stats(&as);
	obs_u64(ctx, "fput_deferred", as.fput_deferred);
	inv(ctx, "each_files_last_fput_deferred", as.fput_deferred == 2);
	report_counts(ctx);
	for (i = 0; i < 2; i++)
		free_batch(&b[i]);
}
SCENARIO(aio, "exit_live", 0, exit_live,
	 "the module goes while two contexts are set up and 16 requests in "
	 "flight on closed files: exit destroys the contexts, waits for the "
	 "requests, and the deferred fputs run before its caches go");

/*
 * The module goes while the process still has its files open and three
 * contexts set up, each in another state: one never used, one whose
 * requests completed with their events never reaped, one with requests
 * still in flight.  No fput is the last here, so nothing is deferred:
 * exit_aio must still destroy every context, wait for the requests in
 * flight and for every context's last reference before the caches go.
 * The files are closed after the module is gone.
 */
static void exit_open(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx) * 7);
	struct kioctx *ioctx[3];
	struct exit_arg a;
	struct aio_stats as;
	struct batch b[2];
	int64_t submitted[2];
	int fds[2], i;

	shim_clock_virtual();
	if (!inv(ctx, "aio_setup", aio_setup() == 0))
		return;
	for (i = 0; i < 3; i++)
		if (io_setup(16, &ioctx[i]))
			break;
	if (!inv(ctx, "io_setup", i == 3)) {
		aio_exit();
		return;
	}
	for (i = 0; i < 2; i++)
		fds[i] = sim_file_open("data", FILE_SIZE, 5 + 10 * i,
				       scn_seed(ctx) + 3 + i);
	/* ioctx[1]: every request done, its events left in the ring */
	make_batch(&b[0], 6, fds, 2, &s);
	submitted[0] = io_submit(ioctx[1], b[0].n, b[0].ptrs);
	shim_clock_advance(40);
	/* ioctx[2]: requests still in flight at the exit */
	make_batch(&b[1], 6, fds, 2, &s);
	submitted[1] = io_submit(ioctx[2], b[1].n, b[1].ptrs);
	obs_i64_list(ctx, "submitted", submitted, 2);
	memset(&a, 0, sizeof(a));
	scn_run_threads(2, exit_thread, &a);
	aio_get_stats(&as);
	obs_u64(ctx, "fput_deferred", as.fput_deferred);
	inv(ctx, "no_fput_was_the_last", as.fput_deferred == 0);
	obs_u64(ctx, "contexts_freed_at_exit", as.ctxs_freed);
	for (i = 0; i < 2; i++)
		sim_file_close(fds[i]);
	report_counts(ctx);
	for (i = 0; i < 2; i++)
		free_batch(&b[i]);
}
SCENARIO(aio, "exit_open", 0, exit_open,
	 "the module goes while the files are still open and three contexts "
	 "are set up: one unused, one with unreaped events, one with requests "
	 "in flight; exit frees them all, nothing is deferred");

#define STORM_THREADS 6
#define STORM_ROUNDS 60
#define STORM_BATCH 8

struct storm {
	struct scenario_ctx *ctx;
	unsigned long submitted, events, errors;
};

static void storm_thread(void *arg, int t)
{
	struct storm *st = arg;
	u64 s = world_prng_seed(scn_seed(st->ctx) * 17 + t);
	struct kioctx *ioctx;
	struct io_event ev[STORM_BATCH];
	int fds[2], r, i, rounds = scn_size(st->ctx, STORM_ROUNDS, 20);

	if (io_setup(2 * STORM_BATCH, &ioctx)) {
		__atomic_add_fetch(&st->errors, 1, __ATOMIC_SEQ_CST);
		return;
	}
	for (i = 0; i < 2; i++)
		fds[i] = sim_file_open("data", FILE_SIZE, 1 + (t + i) % 3,
				       s + i);
	for (r = 0; r < rounds; r++) {
		struct batch b;
		long n, got = 0;
		int replaced = 0;

		make_batch(&b, STORM_BATCH, fds, 2, &s);
		/* requests whose last fput is still deferred count as active:
		 * a full context says -EAGAIN; reap and submit the rest */
		for (n = 0; got < b.n;) {
			long k = n < b.n ?
					 io_submit(ioctx, b.n - n, b.ptrs + n) :
					 0;

			if (k > 0)
				n += k;
			else if (k < 0 && k != -EAGAIN)
				break;
			if (got < n) {
				long g =
					io_getevents(ioctx, 1, STORM_BATCH, ev);

				if (g > 0)
					got += g;
			} else if (k <= 0) {
				scn_sleep_ms(1);
			}
			if (n == b.n && r % 10 == 9 && !replaced) {
				/* replace a file while its requests are in flight */
				int which = world_prng_below(&s, 2);

				sim_file_close(fds[which]);
				fds[which] = sim_file_open("data", FILE_SIZE,
							   1 + t % 3,
							   world_prng_next(&s));
				replaced = 1;
			}
		}
		if (n != b.n)
			__atomic_add_fetch(&st->errors, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&st->submitted, n, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&st->events, got, __ATOMIC_SEQ_CST);
		free_batch(&b);
	}
	for (i = 0; i < 2; i++)
		sim_file_close(fds[i]);
	if (io_destroy(ioctx))
		__atomic_add_fetch(&st->errors, 1, __ATOMIC_SEQ_CST);
}

static void storm(struct scenario_ctx *ctx)
{
	struct storm st;
	struct aio_stats as;

	size_files(ctx);
	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	if (!inv(ctx, "aio_setup", aio_setup() == 0))
		return;
	scn_run_threads(STORM_THREADS, storm_thread, &st);
	/* the disk is idle: a completion may still hold a context's last reference */
	sim_file_sync();
	aio_get_stats(&as);
	obs_u64(ctx, "submitted", st.submitted);
	obs_u64(ctx, "events", st.events);
	obs_u64(ctx, "errors", st.errors);
	inv(ctx, "every_request_completed",
	    st.events == st.submitted &&
		    st.submitted == STORM_THREADS * STORM_BATCH *
					    scn_size(ctx, STORM_ROUNDS, 20));
	inv(ctx, "no_errors", st.errors == 0);
	stat_u64(ctx, "fput_deferred", as.fput_deferred);
	aio_exit();
	report_counts(ctx);
}
SCENARIO(aio, "storm", 1, storm,
	 "6 processes each with its own context submit 480 requests on 2 files, "
	 "replacing files while their I/O is in flight; all freed at the end");
