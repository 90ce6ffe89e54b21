/*
 * ports/floppy.h - the floppy port's entry points, for scenarios.
 */
#ifndef _PORTS_FLOPPY_H
#define _PORTS_FLOPPY_H

#include <linux/list.h>
#include <linux/completion.h>

#define FD_READ_REQ 0
#define FD_WRITE_REQ 1

/* a block request: whole 512-byte sectors, from @sector on */
struct fd_request {
	struct list_head queue;
	int cmd; /* FD_READ_REQ or FD_WRITE_REQ */
	unsigned long sector;
	unsigned int nr_sectors;
	unsigned char *buffer;
	/* filled in by the driver */
	int errors;
	int result; /* 0, or -EIO */
	int done;
	unsigned long done_jiffies;
	unsigned long sector_pos; /* where the transfer has got to */
	unsigned int left;
	unsigned char *pos;
	struct completion completion;
};

struct floppy_stats {
	unsigned long submitted, completed, failed;
	unsigned long interrupts, unexpected;
	unsigned long bh_scheduled; /* schedule_bh() calls */
	unsigned long seeks, recals, spinups, resets, timeouts, retries;
	int bh_pending; /* the bottom half was queued (state dump) */
};

extern int floppy_init(void);
extern void floppy_exit(void);
extern int floppy_submit(struct fd_request *req);
extern void floppy_wait(struct fd_request *req);
/* run the floppy's deferred work until none is left (virtual clock) */
extern void floppy_settle(void);
extern void floppy_get_stats(struct floppy_stats *st);
/* the state dump of the driver, to the kernel log */
extern void show_floppy(void);

#endif /* _PORTS_FLOPPY_H */
