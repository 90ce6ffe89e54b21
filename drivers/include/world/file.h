/*
 * world/file.h - simulated files, for the aio port.
 *
 * A file is a block of memory behind a descriptor.  Its asynchronous reads
 * and writes complete after @latency ticks, in interrupt context (a timer
 * raising the "disk" interrupt), with aio_complete(); with latency 0 they
 * complete at once, in the submitter's context.  Releasing a file (the
 * last fput) may sleep, as a real file system's release may: it checks.
 */
#ifndef _WORLD_FILE_H
#define _WORLD_FILE_H

#include <linux/types.h>

#define SIM_NR_FILES 64

struct sim_file_stats {
	unsigned long opened, released;
	unsigned long reads, writes; /* completed asynchronous requests */
	unsigned long queued; /* ... that were queued, not done at once */
	u64 released_digest;  /* sum of mixes of each released file's content */
};

/* a new file of @size bytes, seeded content; returns its descriptor or -errno */
extern int sim_file_open(const char *name, size_t size, unsigned long latency,
			 u64 seed);
/* close(2): drop the descriptor's reference */
extern int sim_file_close(int fd);
extern void sim_file_get_stats(struct sim_file_stats *st);
/* Wait until no transfer is in flight and every completion has returned. */
extern void sim_file_sync(void);

#endif /* _WORLD_FILE_H */
