/*
 * linux/aio.h - asynchronous I/O contexts and requests, 2.5.39-style.
 */
#ifndef _LINUX_AIO_H
#define _LINUX_AIO_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <asm/atomic.h>

#define EIOCBQUEUED 529 /* the request is queued; aio_complete() will follow */

#define IOCB_CMD_PREAD 0
#define IOCB_CMD_PWRITE 1

/* what user space submits */
struct iocb {
	__u64 aio_data; /* returned in the event */
	__u32 aio_key;
	__u16 aio_lio_opcode;
	__u32 aio_fildes;
	void *aio_buf;
	__u64 aio_nbytes;
	__s64 aio_offset;
};

/* what it gets back */
struct io_event {
	__u64 data; /* the data field from the iocb */
	__u64 obj;  /* what iocb this event came from */
	__s64 res;  /* result code for this event */
	__s64 res2; /* secondary result */
};

struct kioctx;

struct kiocb {
	struct list_head ki_run_list;
	long ki_flags;
	int ki_users;
	unsigned ki_key; /* id of this request */

	struct file *ki_filp;
	struct kioctx *ki_ctx; /* may be NULL for sync ops */
	int (*ki_cancel)(struct kiocb *, struct io_event *);

	struct list_head ki_list; /* the aio core uses this
						 * for cancellation */

	void *ki_user_obj;  /* pointer to userland's iocb */
	__u64 ki_user_data; /* user's data for completion */
	loff_t ki_pos;

	void *private; /* the file's, while in flight */
};

#define AIO_RING_PAGES 8

struct aio_ring_info {
	struct io_event *ring;
	unsigned nr;
	unsigned head;
	unsigned tail;
	spinlock_t ring_lock;
};

struct kioctx {
	atomic_t users;
	int dead;
	struct kioctx *next;

	wait_queue_head_t wait;

	spinlock_t ctx_lock;

	int reqs_active;
	struct list_head active_reqs; /* used for cancellation */

	unsigned max_reqs;

	struct aio_ring_info ring_info;
};

extern int aio_complete(struct kiocb *iocb, long res, long res2);
extern int aio_put_req(struct kiocb *iocb);

#endif /* _LINUX_AIO_H */
