/*
 * reiserfs.c - scenarios of the reiserfs journal port: asynchronous
 * commits in order, the synchronous fallback when a commit task cannot be
 * allocated, unmount waiting for the commits, and several file systems
 * mounted, used and unmounted at once.
 *
 * Real time: the commits sleep on simulated disks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <linux/errno.h>
#include <world/util.h>
#include <entry/reiserfs.h>

#include "scenario.h"

#define ORDER_MAX 4096

static void report_fs(struct scenario_ctx *ctx, const char *name,
		      struct reiserfs_journal_stats *st, unsigned long *order,
		      unsigned long expect)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_transactions", name);
	obs_u64(ctx, key, st->transactions);
	snprintf(key, sizeof(key), "%s_commits", name);
	obs_u64(ctx, key, st->commits);
	if (order) {
		snprintf(key, sizeof(key), "%s_commit_order", name);
		obs_u64_list(ctx, key, (const uint64_t *) order, st->order_len);
	}
	snprintf(key, sizeof(key), "%s_commits_in_order", name);
	inv(ctx, key, st->order_ok && st->commits == expect);
	snprintf(key, sizeof(key), "%s_async_commits", name);
	stat_u64(ctx, key, st->async_commits);
	snprintf(key, sizeof(key), "%s_async_noops", name);
	stat_u64(ctx, key, st->async_noops);
	snprintf(key, sizeof(key), "%s_sync_commits", name);
	stat_u64(ctx, key, st->sync_commits);
}

/* two file systems, transactions alternating between them */
static void commit_order(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx));
	struct super_block *a, *b;
	struct reiserfs_journal_stats sa, sb;
	unsigned long *oa = calloc(ORDER_MAX, sizeof(*oa));
	unsigned long *ob = calloc(ORDER_MAX, sizeof(*ob));
	int i, mounted;

	a = reiserfs_mount("sda1", 1);
	b = reiserfs_mount("sdb1", 2);
	if (!inv(ctx, "mounted", a && b)) {
		if (a)
			reiserfs_umount(a, &sa, NULL, 0);
		if (b)
			reiserfs_umount(b, &sb, NULL, 0);
		free(oa);
		free(ob);
		return;
	}
	mounted = reiserfs_mounted();
	obs_i64(ctx, "mounted_fs_count", mounted);
	for (i = 0; i < 100; i++) {
		struct super_block *fs = world_prng_below(&s, 2) ? a : b;

		reiserfs_transaction(fs, 1 + world_prng_below(&s, 16), 0);
	}
	reiserfs_umount(a, &sa, oa, ORDER_MAX);
	reiserfs_umount(b, &sb, ob, ORDER_MAX);
	obs_i64(ctx, "mounted_after", reiserfs_mounted());
	report_fs(ctx, "sda1", &sa, oa, sa.transactions);
	report_fs(ctx, "sdb1", &sb, ob, sb.transactions);
	obs_u64(ctx, "commit_tasks", sa.async_scheduled + sb.async_scheduled);
	inv(ctx, "every_commit_task_ran",
	    sa.async_commits + sa.async_noops == sa.async_scheduled &&
		    sb.async_commits + sb.async_noops == sb.async_scheduled);
	inv(ctx, "all_unmounted", reiserfs_mounted() == 0);
	free(oa);
	free(ob);
}
SCENARIO(reiserfs, "commit_order", 0, commit_order,
	 "100 transactions on two mounted file systems, each committed by a "
	 "commit task that sleeps on the disk; unmount waits for them");

/* a commit task that cannot be allocated: the committer commits itself */
static void nomem(struct scenario_ctx *ctx)
{
	struct super_block *a;
	struct reiserfs_journal_stats sa;
	unsigned long *oa = calloc(ORDER_MAX, sizeof(*oa));
	int i;

	a = reiserfs_mount("sda1", 2);
	if (!inv(ctx, "mounted", a != NULL)) {
		free(oa);
		return;
	}
	/* the only allocations from here on are the commit tasks */
	shim_fail_kmalloc_nth(7);
	for (i = 0; i < 20; i++)
		reiserfs_transaction(a, 4, 0);
	shim_fail_kmalloc_nth(0);
	reiserfs_umount(a, &sa, oa, ORDER_MAX);
	report_fs(ctx, "sda1", &sa, oa, 20);
	obs_u64(ctx, "commit_tasks", sa.async_scheduled);
	obs_u64(ctx, "alloc_failures", sa.alloc_failures);
	inv(ctx, "one_sync_fallback",
	    sa.alloc_failures == 1 && sa.async_scheduled == 19);
	inv(ctx, "every_commit_task_ran",
	    sa.async_commits + sa.async_noops == sa.async_scheduled);
	free(oa);
}
SCENARIO(reiserfs, "nomem", 0, nomem,
	 "the 7th commit task cannot be allocated (GFP_NOFS fails): that "
	 "transaction is committed synchronously, still in order");

struct mount_try {
	struct super_block *s;
	int clean; /* nothing counted as mounted after a failure */
};

static int mount_once(void *arg)
{
	struct mount_try *m = arg;

	m->s = reiserfs_mount("sda1", 2);
	if (m->s)
		return 0;
	m->clean &= reiserfs_mounted() == 0;
	return -ENOMEM;
}

/*
 * The first mount's allocations, then its threads (a commit queue's
 * workers), fail in turn; then an unmount while the commits of 20
 * transactions are still queued or sleeping on the disk, through
 * put_super's journal_release(): it waits for them all.
 */
static void mount_nomem(struct scenario_ctx *ctx)
{
	struct mount_try m = { NULL, 1 };
	int i;

	scn_fail_in_turn(ctx, "mount_kmalloc", 0, mount_once, &m);
	obs_u64(ctx, "mounted_despite_kmalloc_failures", m.s != NULL);
	if (m.s)
		reiserfs_umount(m.s, NULL, NULL, 0);
	m.s = NULL;
	scn_fail_in_turn(ctx, "mount_kthread", 1, mount_once, &m);
	obs_u64(ctx, "mounted_despite_kthread_failures", m.s != NULL);
	inv(ctx, "failed_mounts_not_counted", m.clean);
	if (!m.s)
		return;
	for (i = 0; i < 20; i++)
		reiserfs_transaction(m.s, 1 + i % 5, 0);
	reiserfs_umount(m.s, NULL, NULL, 0); /* the commits are still going */
	obs_i64(ctx, "mounted_after", reiserfs_mounted());
	inv(ctx, "all_unmounted", reiserfs_mounted() == 0);
}
SCENARIO(reiserfs, "mount_nomem", 0, mount_nomem,
	 "the first mount's allocations, then its threads, fail in turn and "
	 "leave nothing behind; then an unmount while 20 commits are queued or "
	 "sleeping on the disk waits for them");

/* sync transactions mixed in: FLUSH_ALL commits everything before */
static void sync_mix(struct scenario_ctx *ctx)
{
	u64 s = world_prng_seed(scn_seed(ctx));
	struct super_block *a;
	struct reiserfs_journal_stats sa;
	unsigned long *oa = calloc(ORDER_MAX, sizeof(*oa));
	int i, syncs = 0, n = scn_size(ctx, 150, 100);

	a = reiserfs_mount("sda1", 1);
	if (!inv(ctx, "mounted", a != NULL)) {
		free(oa);
		return;
	}
	/* more than the 64 journal lists: slots are reused */
	for (i = 0; i < n; i++) {
		int sync = world_prng_below(&s, 10) == 0;

		syncs += sync;
		reiserfs_transaction(a, 1 + world_prng_below(&s, 8), sync);
	}
	reiserfs_umount(a, &sa, oa, ORDER_MAX);
	report_fs(ctx, "sda1", &sa, oa, n);
	obs_u64(ctx, "sync_transactions", syncs);
	obs_u64(ctx, "commit_tasks", sa.async_scheduled);
	inv(ctx, "every_commit_task_ran",
	    sa.async_commits + sa.async_noops == sa.async_scheduled);
	free(oa);
}
SCENARIO(reiserfs, "sync_mix", 0, sync_mix,
	 "150 transactions, one in ten synchronous, wrapping the 64 journal "
	 "lists: commits stay in order whoever writes them");

#define STORM_FS 3
#define STORM_WRITERS 2 /* per file system */
#define STORM_TRANS 40
#define STORM_CYCLES 8

struct storm {
	struct scenario_ctx *ctx;
	struct super_block *fs[STORM_FS];
	unsigned long cycled_commits, cycled_trans;
	int cycle_order_ok;
	int trans, cycles; /* STORM_TRANS and STORM_CYCLES, or scn_size()'s */
};

static void storm_thread(void *arg, int i)
{
	struct storm *st = arg;
	u64 s = world_prng_seed(scn_seed(st->ctx) * 11 + i);
	int n;

	if (i < STORM_FS * STORM_WRITERS) {
		struct super_block *fs = st->fs[i / STORM_WRITERS];

		for (n = 0; n < st->trans; n++)
			reiserfs_transaction(fs, 1 + world_prng_below(&s, 8),
					     world_prng_below(&s, 7) == 0);
		return;
	}
	/* a file system mounted and unmounted over and over meanwhile */
	for (n = 0; n < st->cycles; n++) {
		struct reiserfs_journal_stats js;
		struct super_block *fs = reiserfs_mount("sdz1", 1);
		int t;

		if (!fs) {
			st->cycle_order_ok = 0;
			return;
		}
		for (t = 0; t < 5; t++)
			reiserfs_transaction(fs, 2, 0);
		reiserfs_umount(fs, &js, NULL, 0);
		st->cycled_commits += js.commits;
		st->cycled_trans += js.transactions;
		if (!js.order_ok)
			st->cycle_order_ok = 0;
	}
}

static void storm(struct scenario_ctx *ctx)
{
	static const char *names[STORM_FS] = { "sda1", "sdb1", "sdc1" };
	struct storm st;
	uint64_t commits[STORM_FS];
	int i, ok = 1, in_order = 1, tasks_ok = 1;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.cycle_order_ok = 1;
	st.trans = scn_size(ctx, STORM_TRANS, 10);
	st.cycles = scn_size(ctx, STORM_CYCLES, 2);
	for (i = 0; i < STORM_FS; i++) {
		st.fs[i] = reiserfs_mount(names[i], 1 + i);
		ok &= st.fs[i] != NULL;
	}
	if (!inv(ctx, "mounted", ok)) {
		for (i = 0; i < STORM_FS; i++)
			if (st.fs[i])
				reiserfs_umount(st.fs[i], NULL, NULL, 0);
		return;
	}
	scn_run_threads(STORM_FS * STORM_WRITERS + 1, storm_thread, &st);
	for (i = 0; i < STORM_FS; i++) {
		struct reiserfs_journal_stats js;

		reiserfs_umount(st.fs[i], &js, NULL, 0);
		commits[i] = js.commits;
		in_order &= js.order_ok &&
			    js.commits == STORM_WRITERS * st.trans;
		tasks_ok &= js.async_commits + js.async_noops ==
			    js.async_scheduled;
	}
	obs_u64_list(ctx, "commits_per_fs", commits, STORM_FS);
	obs_u64(ctx, "cycled_fs_commits", st.cycled_commits);
	inv(ctx, "every_fs_in_order", in_order);
	inv(ctx, "every_commit_task_ran", tasks_ok);
	inv(ctx, "cycled_fs_in_order",
	    st.cycle_order_ok && st.cycled_commits == st.cycled_trans &&
		    st.cycled_trans == st.cycles * 5);
	inv(ctx, "all_unmounted", reiserfs_mounted() == 0);
}
SCENARIO(reiserfs, "storm", 1, storm,
	 "3 file systems with 2 writers each (one transaction in 7 synchronous) "
	 "while a 4th is mounted and unmounted 8 times: every journal commits "
	 "in order, every task runs, nothing is left mounted");
