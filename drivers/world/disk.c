/*
 * disk.c - a simulated block device whose writes take time
 * (see world/disk.h).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/errno.h>
#include <world/util.h>
#include <world/disk.h>

#define SIM_BLOCK_SIZE 4096

struct sim_disk {
	char name[32];
	unsigned long latency;
	spinlock_t lock;
	struct sim_disk_stats st;
};

struct sim_disk_req {
	struct timer_list timer;
	struct completion done;
	struct sim_disk *disk;
	unsigned long block;
	size_t len;
	u64 digest;
};

static void sim_disk_account(struct sim_disk *disk, struct sim_disk_req *req)
{
	unsigned long flags;

	spin_lock_irqsave(&disk->lock, flags);
	disk->st.writes++;
	disk->st.blocks += (req->len + SIM_BLOCK_SIZE - 1) / SIM_BLOCK_SIZE;
	disk->st.digest += world_mix64(req->digest ^ world_mix64(req->block));
	spin_unlock_irqrestore(&disk->lock, flags);
}

/* the disk's interrupt: the write is on the platter */
static void sim_disk_end_io(unsigned long data)
{
	struct sim_disk_req *req = (struct sim_disk_req *) data;

	irq_enter();
	sim_disk_account(req->disk, req);
	complete(&req->done); /* req may be gone after this */
	irq_exit();
}

int sim_disk_write(struct sim_disk *disk, unsigned long block, const void *data,
		   size_t len)
{
	struct sim_disk_req req;
	unsigned long latency;

	might_sleep();
	req.disk = disk;
	req.block = block;
	req.len = len;
	req.digest = world_digest(WORLD_DIGEST_INIT, data, len);
	latency = __atomic_load_n(&disk->latency, __ATOMIC_RELAXED);
	if (!latency) {
		sim_disk_account(disk, &req);
		return 0;
	}
	init_completion(&req.done);
	init_timer(&req.timer);
	req.timer.function = sim_disk_end_io;
	req.timer.data = (unsigned long) &req;
	req.timer.expires = jiffies + latency;
	add_timer(&req.timer);
	wait_for_completion(&req.done);
	return 0;
}

void sim_disk_set_latency(struct sim_disk *disk, unsigned long latency)
{
	__atomic_store_n(&disk->latency, latency, __ATOMIC_RELAXED);
}

void sim_disk_get_stats(struct sim_disk *disk, struct sim_disk_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&disk->lock, flags);
	*st = disk->st;
	spin_unlock_irqrestore(&disk->lock, flags);
}

struct sim_disk *sim_disk_create(const char *name, unsigned long latency)
{
	struct sim_disk *disk = kmalloc(sizeof(*disk), GFP_KERNEL);

	if (!disk)
		return NULL;
	memset(disk, 0, sizeof(*disk));
	snprintf(disk->name, sizeof(disk->name), "%s", name);
	disk->latency = latency;
	spin_lock_init(&disk->lock);
	return disk;
}

void sim_disk_destroy(struct sim_disk *disk)
{
	kfree(disk);
}
