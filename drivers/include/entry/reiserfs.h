/*
 * ports/reiserfs.h - the reiserfs journal port's entry points, for
 * scenarios: mount, transactions, unmount.
 */
#ifndef _PORTS_REISERFS_H
#define _PORTS_REISERFS_H

struct super_block;

struct reiserfs_journal_stats {
	unsigned long transactions; /* journal_end() calls */
	unsigned long commits;	    /* commit blocks written */
	int order_ok; /* commits went in transaction order, none missing */
	unsigned long async_scheduled; /* commit tasks queued */
	unsigned long async_commits;   /* commits written by a commit task */
	unsigned long async_noops;  /* tasks that found their list committed */
	unsigned long sync_commits; /* commits written by the committer itself */
	unsigned long
		alloc_failures;	 /* commit tasks that could not be allocated */
	unsigned long order_len; /* entries copied to @order */
};

/* mount a file system on a new simulated disk whose writes take @latency ticks */
extern struct super_block *reiserfs_mount(const char *name,
					  unsigned long latency);
/* unmount: waits for the commits; fills @st and up to @max ids of the commit order */
extern int reiserfs_umount(struct super_block *sb,
			   struct reiserfs_journal_stats *st,
			   unsigned long *order, unsigned long max);
/* one transaction logging @nblocks blocks; @sync: commit before returning */
extern long reiserfs_transaction(struct super_block *sb, int nblocks, int sync);
extern int reiserfs_mounted(void);
extern void reiserfs_set_latency(struct super_block *sb, unsigned long latency);

#endif /* _PORTS_REISERFS_H */
