/*
 * reiserfs_journal.c - the reiserfs journal's asynchronous commits, as of
 * 2.5.39.
 *
 * A transaction ends by writing its blocks to the log; its commit block
 * is written later, by a commit task: a struct reiserfs_journal_commit_task
 * allocated for that one commit (GFP_NOFS), its tq_struct set up by hand,
 * its routine a function typed for the task and cast to the task queue's
 * type, scheduled with schedule_task().  When the allocation fails, the
 * committer writes the commit itself.  Commit blocks go to disk in
 * transaction order: a commit first commits every older transaction that
 * is still pending.  Unmounting waits for the commit tasks with
 * flush_scheduled_tasks().
 *
 * Commits sleep on the (simulated) disk.  On keventd that delays every
 * other user of the task queue: the latency-isolation story of the
 * workqueue patch, which gave reiserfs its own queue.
 *
 * The commit task runs under the big kernel lock, as 2.5.39's did: a
 * task that sleeps on the disk lets it go, so it keeps commit tasks apart
 * only between sleeps, one at a time on keventd, on every CPU at once on
 * the commit queue's workers.
 *
 * Only the journal is ported; the rest of the file system is a name, a
 * simulated disk and a counter of mounted file systems.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/smp_lock.h>
#include <linux/fs.h>
#include <asm/semaphore.h>
#include <asm/atomic.h>

#include <entry/reiserfs.h>
#include <world/disk.h>

#define CONFIG_REISERFS_CHECK

/* the number of mounted filesystems.  This is used to decide when to
** start and kill the commit thread
*/
static int reiserfs_mounted_fs_count = 0 ;

/* the commits' own queue, so that commits which sleep on the disk do not
** hold up everybody's events work: created on the first mount, destroyed
** on the last unmount
*/
static workqueue_t *commit_wq;

/* serialises mounts and unmounts (the big kernel lock did, in 2.5.39) */
static DECLARE_MUTEX(reiserfs_mount_sem);

#define JOURNAL_LIST_COUNT	64
#define JOURNAL_BLOCK_COUNT	8192	/* blocks of the log, on the disk */
#define JOURNAL_TRANS_MAX	1024
#define JOURNAL_ORDER_MAX	4096	/* commit ids remembered */
#define BLOCK_SIZE		4096

#define FLUSH_ALL		1

#define LIST_FREE		0
#define LIST_COMMIT_PENDING	1
#define LIST_COMMITTED		2

struct reiserfs_journal_list {
	unsigned long j_trans_id;
	int j_len;
	int j_state;
	atomic_t j_commit_left;
	atomic_t j_nonzerolen;
};

struct reiserfs_journal {
	struct semaphore j_lock;		/* one transaction at a time */
	struct semaphore j_commit_lock;		/* commits, in order */
	unsigned long j_trans_id;		/* of the next transaction */
	unsigned long j_last_commit_id;		/* the last one committed */
	unsigned long j_start;			/* next free block of the log */
	int j_len;				/* blocks in the running transaction */
	struct reiserfs_journal_list j_journal_list[JOURNAL_LIST_COUNT];
	struct sim_disk *j_dev;

	/* what the sandbox counts */
	unsigned long j_transactions;
	unsigned long j_commits;
	int j_order_ok;
	unsigned long *j_commit_order;
	unsigned long j_commit_order_len;
	atomic_t j_async_scheduled;
	atomic_t j_async_commits;
	atomic_t j_async_noops;
	atomic_t j_sync_commits;
	atomic_t j_alloc_failures;
	atomic_t j_kmallocs;			/* reiserfs_kmalloc() bytes out */
};

#define SB_JOURNAL(s) ((struct reiserfs_journal *) (s)->s_fs_info)
#define SB_JOURNAL_LIST(s) (SB_JOURNAL(s)->j_journal_list)

struct reiserfs_transaction_handle {
	int t_refcount;
	unsigned long t_trans_id;
	int t_blocks_logged;
	int t_blocks_allocated;
	struct super_block *t_super;
};

static void *reiserfs_kmalloc(size_t size, int flags, struct super_block *s)
{
	void *vp = kmalloc(size, flags);

	if (vp)
		atomic_add(size, &SB_JOURNAL(s)->j_kmallocs);
	return vp;
}

static void reiserfs_kfree(const void *vp, size_t size, struct super_block *s)
{
	kfree(vp);
	atomic_sub(size, &SB_JOURNAL(s)->j_kmallocs);
}

#define reiserfs_warning(format, args...) printk(KERN_WARNING format, ##args)

/* the commit block of list @jl: written, then the list is committed */
static void write_commit_block(struct super_block *p_s_sb,
			       struct reiserfs_journal_list *jl)
{
	struct reiserfs_journal *journal = SB_JOURNAL(p_s_sb);
	unsigned long commit[4];

	commit[0] = 0x52654973;		/* "ReIs" */
	commit[1] = jl->j_trans_id;
	commit[2] = jl->j_len;
	commit[3] = jl->j_trans_id ^ 0x636f6d6d;
	sim_disk_write(journal->j_dev,
		       JOURNAL_BLOCK_COUNT + (jl->j_trans_id % JOURNAL_LIST_COUNT),
		       commit, sizeof(commit));
}

/*
** flush_commit_list: write the commit block of @jl, and before it those
** of every older transaction not yet committed, in order.  Returns 1 if
** it wrote @jl's commit, 0 if someone else had.
*/
static int flush_commit_list(struct super_block *s,
			     struct reiserfs_journal_list *jl, int flushall)
{
	struct reiserfs_journal *journal = SB_JOURNAL(s);
	unsigned long trans_id;
	int wrote = 0;

	down(&journal->j_commit_lock);
	trans_id = jl->j_trans_id;	/* the slot may have been reused */
	while (journal->j_last_commit_id < trans_id) {
		unsigned long id = journal->j_last_commit_id + 1;
		struct reiserfs_journal_list *cl =
			SB_JOURNAL_LIST(s) + (id % JOURNAL_LIST_COUNT);

		if (cl->j_trans_id != id || cl->j_state != LIST_COMMIT_PENDING) {
			printk(KERN_ERR "journal-1200: list %lu not pending "
			       "(has %lu, state %d)\n", id, cl->j_trans_id,
			       cl->j_state);
			journal->j_order_ok = 0;
			break;
		}
		write_commit_block(s, cl);
		cl->j_state = LIST_COMMITTED;
		atomic_set(&cl->j_commit_left, 0);
		journal->j_last_commit_id = id;
		journal->j_commits++;
		if (journal->j_commit_order_len < JOURNAL_ORDER_MAX)
			journal->j_commit_order[journal->j_commit_order_len++] = id;
		if (id == trans_id)
			wrote = 1;
	}
	up(&journal->j_commit_lock);
	return wrote;
}

/*
** the commit task: one per asynchronous commit, freed when it is done
*/
struct reiserfs_journal_commit_task {
	struct super_block *p_s_sb;
	int jindex;
	int wake_on_finish;	/* if this is one, we wake the task_done queue, if it
				** is zero, we free the whole struct on finish
				*/
	struct reiserfs_journal_commit_task *self;
	struct work_struct work;
};

static void reiserfs_journal_commit_task_func(void *data)
{
	struct reiserfs_journal_commit_task *ct = data;
	struct reiserfs_journal *journal;
	struct reiserfs_journal_list *jl;

	/* 2.5.39 took it here, unsure whether it was needed */
	lock_kernel();
	journal = SB_JOURNAL(ct->p_s_sb);
	jl = SB_JOURNAL_LIST(ct->p_s_sb) + ct->jindex;

	if (flush_commit_list(ct->p_s_sb, jl, 1))
		atomic_inc(&journal->j_async_commits);
	else
		atomic_inc(&journal->j_async_noops);

	reiserfs_kfree(ct->self, sizeof(struct reiserfs_journal_commit_task),
		       ct->p_s_sb);
	unlock_kernel();
}

static void setup_commit_task_arg(struct reiserfs_journal_commit_task *ct,
				  struct super_block *p_s_sb,
				  int jindex)
{
	if (!ct) {
		printk(KERN_EMERG "journal-1360: setup_commit_task_arg called "
		       "with NULL struct\n");
		BUG();
	}
	ct->p_s_sb = p_s_sb;
	ct->jindex = jindex;
	INIT_WORK(&ct->work, reiserfs_journal_commit_task_func, ct);
	ct->self = ct;
}

static void commit_flush_async(struct super_block *p_s_sb, int jindex)
{
	struct reiserfs_journal *journal = SB_JOURNAL(p_s_sb);
	struct reiserfs_journal_commit_task *ct;

	/* using GFP_NOFS, GFP_KERNEL could try to flush inodes, which will try
	** to start/join a transaction, which will deadlock
	*/
	ct = reiserfs_kmalloc(sizeof(struct reiserfs_journal_commit_task),
			      GFP_NOFS, p_s_sb);
	if (ct) {
		setup_commit_task_arg(ct, p_s_sb, jindex);
		atomic_inc(&journal->j_async_scheduled);
		queue_work(commit_wq, &ct->work);
	} else {
#ifdef CONFIG_REISERFS_CHECK
		reiserfs_warning("journal-1540: kmalloc failed, doing sync "
				 "commit\n");
#endif
		atomic_inc(&journal->j_alloc_failures);
		if (flush_commit_list(p_s_sb, SB_JOURNAL_LIST(p_s_sb) + jindex, 1))
			atomic_inc(&journal->j_sync_commits);
	}
}

static int journal_begin(struct reiserfs_transaction_handle *th,
			 struct super_block *p_s_sb, unsigned long nblocks)
{
	struct reiserfs_journal *journal = SB_JOURNAL(p_s_sb);

	if (nblocks > JOURNAL_TRANS_MAX)
		return -EINVAL;
	down(&journal->j_lock);
	th->t_refcount = 1;
	th->t_trans_id = journal->j_trans_id;
	th->t_blocks_logged = 0;
	th->t_blocks_allocated = nblocks;
	th->t_super = p_s_sb;
	journal->j_len = 0;
	return 0;
}

static int journal_mark_dirty(struct reiserfs_transaction_handle *th,
			      struct super_block *p_s_sb, unsigned long blocknr)
{
	struct reiserfs_journal *journal = SB_JOURNAL(p_s_sb);

	if (th->t_blocks_logged >= th->t_blocks_allocated)
		return -ENOSPC;
	th->t_blocks_logged++;
	journal->j_len++;
	(void) blocknr;
	return 0;
}

/*
** do_journal_end: the transaction's blocks go to the log, then its commit
** is written: now (FLUSH_ALL), or by a commit task.
*/
static int do_journal_end(struct reiserfs_transaction_handle *th,
			  struct super_block *p_s_sb, unsigned long nblocks,
			  int flags)
{
	struct reiserfs_journal *journal = SB_JOURNAL(p_s_sb);
	struct reiserfs_journal_list *jl;
	unsigned long desc[4];
	int jindex;

	jindex = journal->j_trans_id % JOURNAL_LIST_COUNT;
	jl = SB_JOURNAL_LIST(p_s_sb) + jindex;

	/* the list's slot still holds an old, uncommitted transaction */
	if (jl->j_state == LIST_COMMIT_PENDING) {
		if (flush_commit_list(p_s_sb, jl, 1))
			atomic_inc(&journal->j_sync_commits);
	}

	/* the descriptor and the logged blocks */
	desc[0] = 0x52654973;
	desc[1] = journal->j_trans_id;
	desc[2] = journal->j_len;
	desc[3] = journal->j_start;
	sim_disk_write(journal->j_dev, journal->j_start % JOURNAL_BLOCK_COUNT,
		       desc, sizeof(desc));
	journal->j_start += journal->j_len + 2;

	/* the list is ready to commit: a commit may now reach it */
	down(&journal->j_commit_lock);
	jl->j_trans_id = journal->j_trans_id;
	jl->j_len = journal->j_len;
	atomic_set(&jl->j_nonzerolen, journal->j_len > 0);
	atomic_set(&jl->j_commit_left, 1);
	jl->j_state = LIST_COMMIT_PENDING;
	up(&journal->j_commit_lock);
	journal->j_trans_id++;
	journal->j_transactions++;
	up(&journal->j_lock);

	if (flags & FLUSH_ALL) {
		if (flush_commit_list(p_s_sb, jl, 1))
			atomic_inc(&journal->j_sync_commits);
	} else {
		commit_flush_async(p_s_sb, jindex);
	}
	return 0;
}

static int journal_end(struct reiserfs_transaction_handle *th,
		       struct super_block *p_s_sb, unsigned long nblocks)
{
	return do_journal_end(th, p_s_sb, nblocks, 0);
}

static int journal_end_sync(struct reiserfs_transaction_handle *th,
			    struct super_block *p_s_sb, unsigned long nblocks)
{
	return do_journal_end(th, p_s_sb, nblocks, FLUSH_ALL);
}

static void release_journal_dev(struct super_block *super,
				struct reiserfs_journal *journal)
{
	if (journal->j_dev) {
		sim_disk_destroy(journal->j_dev);
		journal->j_dev = NULL;
	}
}

static void free_journal_ram(struct super_block *p_s_sb)
{
	struct reiserfs_journal *journal = SB_JOURNAL(p_s_sb);

	if (atomic_read(&journal->j_kmallocs))
		printk(KERN_WARNING "reiserfs: %s: %d bytes of commit tasks "
		       "still allocated\n", p_s_sb->s_id,
		       atomic_read(&journal->j_kmallocs));
	kfree(journal->j_commit_order);
	kfree(journal);
	p_s_sb->s_fs_info = NULL;
}

static void journal_get_stats(struct super_block *p_s_sb,
			      struct reiserfs_journal_stats *st,
			      unsigned long *order, unsigned long max)
{
	struct reiserfs_journal *journal = SB_JOURNAL(p_s_sb);
	unsigned long i;
	int ok = journal->j_order_ok;

	for (i = 0; i < journal->j_commit_order_len; i++) {
		if (journal->j_commit_order[i] != i + 1)
			ok = 0;
		if (order && i < max)
			order[i] = journal->j_commit_order[i];
	}
	if (journal->j_commits != journal->j_transactions)
		ok = 0;
	st->transactions = journal->j_transactions;
	st->commits = journal->j_commits;
	st->order_ok = ok;
	st->async_scheduled = atomic_read(&journal->j_async_scheduled);
	st->async_commits = atomic_read(&journal->j_async_commits);
	st->async_noops = atomic_read(&journal->j_async_noops);
	st->sync_commits = atomic_read(&journal->j_sync_commits);
	st->alloc_failures = atomic_read(&journal->j_alloc_failures);
	st->order_len = order ? min(max, journal->j_commit_order_len) : 0;
}

/*
** release the journal: the commit tasks must be gone before it is freed.
*/
static int do_journal_release(struct reiserfs_transaction_handle *th,
			      struct super_block *p_s_sb, int error,
			      struct reiserfs_journal_stats *st,
			      unsigned long *order, unsigned long max)
{
	down(&reiserfs_mount_sem);
	reiserfs_mounted_fs_count-- ;
	/* wait for all commits to finish */
	flush_workqueue(commit_wq);
	if (!reiserfs_mounted_fs_count) {
		destroy_workqueue(commit_wq);
		commit_wq = NULL;
	}
	up(&reiserfs_mount_sem);

	if (st)
		journal_get_stats(p_s_sb, st, order, max);
	release_journal_dev(p_s_sb, SB_JOURNAL(p_s_sb));
	free_journal_ram(p_s_sb);
	return 0;
}

int journal_release(struct reiserfs_transaction_handle *th,
		    struct super_block *p_s_sb)
{
	return do_journal_release(th, p_s_sb, 0, NULL, NULL, 0);
}

/*
** must be called once on fs mount.  calls journal_read for you
*/
static int journal_init(struct super_block *p_s_sb, unsigned long latency)
{
	struct reiserfs_journal *journal;
	int i;

	journal = kmalloc(sizeof(struct reiserfs_journal), GFP_KERNEL);
	if (!journal)
		return -ENOMEM;
	memset(journal, 0, sizeof(struct reiserfs_journal));
	journal->j_commit_order = kmalloc(JOURNAL_ORDER_MAX *
					  sizeof(unsigned long), GFP_KERNEL);
	journal->j_dev = sim_disk_create(p_s_sb->s_id, latency);
	if (!journal->j_commit_order || !journal->j_dev) {
		if (journal->j_dev)
			sim_disk_destroy(journal->j_dev);
		kfree(journal->j_commit_order);
		kfree(journal);
		return -ENOMEM;
	}
	init_MUTEX(&journal->j_lock);
	init_MUTEX(&journal->j_commit_lock);
	journal->j_trans_id = 1;
	journal->j_last_commit_id = 0;
	journal->j_order_ok = 1;
	for (i = 0; i < JOURNAL_LIST_COUNT; i++)
		journal->j_journal_list[i].j_state = LIST_FREE;
	p_s_sb->s_fs_info = journal;

	down(&reiserfs_mount_sem);
	if (!reiserfs_mounted_fs_count) {
		commit_wq = create_workqueue("reiserfs");
		if (!commit_wq) {
			up(&reiserfs_mount_sem);
			p_s_sb->s_fs_info = NULL;
			sim_disk_destroy(journal->j_dev);
			kfree(journal->j_commit_order);
			kfree(journal);
			return -ENOMEM;
		}
	}
	reiserfs_mounted_fs_count++ ;
	up(&reiserfs_mount_sem);
	return 0 ;
}

/* mount(2): a super block on a new disk, and its journal */
struct super_block *reiserfs_mount(const char *name, unsigned long latency)
{
	struct super_block *s;

	s = kmalloc(sizeof(struct super_block), GFP_KERNEL);
	if (!s)
		return NULL;
	memset(s, 0, sizeof(struct super_block));
	INIT_LIST_HEAD(&s->s_list);
	snprintf(s->s_id, sizeof(s->s_id), "%s", name);
	if (journal_init(s, latency)) {
		kfree(s);
		return NULL;
	}
	return s;
}

/*
 * umount(2): put_super's journal_release(), or, when the caller wants the
 * journal's figures (@st), the release that takes them on the way.
 */
int reiserfs_umount(struct super_block *s, struct reiserfs_journal_stats *st,
		    unsigned long *order, unsigned long max)
{
	struct reiserfs_transaction_handle th;

	if (st)
		do_journal_release(&th, s, 0, st, order, max);
	else
		journal_release(&th, s);
	kfree(s);
	return 0;
}

/* one transaction: @nblocks blocks logged, then committed */
long reiserfs_transaction(struct super_block *s, int nblocks, int sync)
{
	struct reiserfs_transaction_handle th;
	unsigned long id;
	int i, ret;

	ret = journal_begin(&th, s, nblocks);
	if (ret)
		return ret;
	for (i = 0; i < nblocks; i++)
		journal_mark_dirty(&th, s, 1000 + i);
	id = th.t_trans_id;
	if (sync)
		ret = journal_end_sync(&th, s, nblocks);
	else
		ret = journal_end(&th, s, nblocks);
	return ret ? ret : (long) id;
}

int reiserfs_mounted(void)
{
	int n;

	down(&reiserfs_mount_sem);
	n = reiserfs_mounted_fs_count;
	up(&reiserfs_mount_sem);
	return n;
}

void reiserfs_set_latency(struct super_block *s, unsigned long latency)
{
	sim_disk_set_latency(SB_JOURNAL(s)->j_dev, latency);
}

MODULE_LICENSE("GPL");
