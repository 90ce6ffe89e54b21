/*
 * ports/aio.h - the aio port's entry points, for scenarios.
 * The system calls take kernel pointers in place of user handles.
 */
#ifndef _PORTS_AIO_H
#define _PORTS_AIO_H

#include <linux/aio.h>

struct aio_stats {
	unsigned long reqs_allocated, reqs_freed;
	unsigned long ctxs_allocated, ctxs_freed;
	unsigned long fput_deferred; /* last fputs handed to deferred work */
	unsigned long fput_done;     /* ... and done there */
	unsigned long fput_runs;     /* aio_fput_routine() calls */
	unsigned long events;	     /* completion events added */
};

extern int aio_setup(void);
extern void aio_exit(void);

extern int io_setup(unsigned nr_events, struct kioctx **ctxp);
extern int io_destroy(struct kioctx *ctx);
extern long io_submit(struct kioctx *ctx, long nr, struct iocb **iocbpp);
extern long io_getevents(struct kioctx *ctx, long min_nr, long nr,
			 struct io_event *events);

extern void aio_get_stats(struct aio_stats *st);
/* wait until the deferred fputs queued so far have been done */
extern void aio_quiesce(void);

#endif /* _PORTS_AIO_H */
