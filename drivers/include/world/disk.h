/*
 * world/disk.h - a simulated block device whose writes take time.
 *
 * sim_disk_write() starts the write and sleeps until the disk's interrupt
 * (a timer, @latency ticks later) completes it, as a buffer-head write
 * followed by wait_on_buffer() did.  The disk keeps an order-independent
 * digest of what was written where.
 */
#ifndef _WORLD_DISK_H
#define _WORLD_DISK_H

#include <linux/types.h>

struct sim_disk;

struct sim_disk_stats {
	unsigned long writes;
	unsigned long blocks;
	u64 digest; /* sum of mixes of (block, data) per write */
};

extern struct sim_disk *sim_disk_create(const char *name,
					unsigned long latency);
extern void sim_disk_destroy(struct sim_disk *disk);
extern void sim_disk_set_latency(struct sim_disk *disk, unsigned long latency);
/* process context: sleeps until the write is done */
extern int sim_disk_write(struct sim_disk *disk, unsigned long block,
			  const void *data, size_t len);
extern void sim_disk_get_stats(struct sim_disk *disk,
			       struct sim_disk_stats *st);

#endif /* _WORLD_DISK_H */
