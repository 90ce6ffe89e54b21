/*
 * aio.c - asynchronous I/O contexts and requests, as of 2.5.39, with the
 * rare fput completion deferred to the task queue.
 *
 * A request (kiocb) holds a reference to its file.  It is put for the
 * last time with the context's lock held, possibly from the interrupt
 * that completed it; if that also drops the file's last reference, the
 * file cannot be released there (release may sleep), so the request is
 * put on fput_head under fput_lock and fput_tqueue is scheduled:
 * aio_fput_routine() releases the file and frees the request in process
 * context.  Requests, files and contexts are all freed in the end.
 *
 * User space is the scenario: io_setup/io_submit/io_getevents/io_destroy
 * take kernel pointers instead of user handles.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/compiler.h>
#include <linux/workqueue.h>
#include <linux/fs.h>
#include <linux/aio.h>

#include <entry/aio.h>

#define dprintk(x...)	do { ; } while (0)
#define pr_debug(x...)	do { ; } while (0)

static kmem_cache_t	*kiocb_cachep;
static kmem_cache_t	*kioctx_cachep;

static workqueue_t *aio_wq;

/* Used for rare fput completion. */
static void aio_fput_routine(void *);
static DECLARE_WORK(fput_work, aio_fput_routine, NULL);

static spinlock_t	fput_lock = SPIN_LOCK_UNLOCKED;
LIST_HEAD(fput_head);

/* the contexts of the (one) process */
static spinlock_t	ioctx_list_lock = SPIN_LOCK_UNLOCKED;
static struct kioctx	*ioctx_list;

/* what the sandbox counts */
static atomic_t reqs_allocated, reqs_freed, ctxs_allocated, ctxs_freed;
static atomic_t fput_deferred, fput_done, fput_runs, events_added;

/* aio_exit waits here for the last reference of every context */
static DECLARE_WAIT_QUEUE_HEAD(ctx_free_wait);

/* aio_setup
 *	Creates the slab caches used by the aio routines.  2.5.39 panicked
 *	on failure, this being done early during the boot sequence; here it
 *	fails cleanly, so that allocation-failure tests can go on.
 */
int __init aio_setup(void)
{
	kiocb_cachep = kmem_cache_create("kiocb", sizeof(struct kiocb),
				0, SLAB_HWCACHE_ALIGN, NULL, NULL);
	if (!kiocb_cachep) {
		printk(KERN_ERR "aio_setup: unable to create kiocb cache\n");
		return -ENOMEM;
	}

	kioctx_cachep = kmem_cache_create("kioctx", sizeof(struct kioctx),
				0, SLAB_HWCACHE_ALIGN, NULL, NULL);
	if (!kioctx_cachep) {
		printk(KERN_ERR "aio_setup: unable to create kioctx cache\n");
		kmem_cache_destroy(kiocb_cachep);
		kiocb_cachep = NULL;
		return -ENOMEM;
	}

	aio_wq = create_workqueue("aio");
	if (!aio_wq) {
		printk(KERN_ERR "aio_setup: unable to create the aio workqueue\n");
		kmem_cache_destroy(kioctx_cachep);
		kmem_cache_destroy(kiocb_cachep);
		kioctx_cachep = kiocb_cachep = NULL;
		return -ENOMEM;
	}

	atomic_set(&reqs_allocated, 0);
	atomic_set(&reqs_freed, 0);
	atomic_set(&ctxs_allocated, 0);
	atomic_set(&ctxs_freed, 0);
	atomic_set(&fput_deferred, 0);
	atomic_set(&fput_done, 0);
	atomic_set(&fput_runs, 0);
	atomic_set(&events_added, 0);

	printk(KERN_NOTICE "aio_setup: sizeof(struct kiocb) = %d\n",
	       (int) sizeof(struct kiocb));

	return 0;
}

static void aio_free_ring(struct kioctx *ctx)
{
	struct aio_ring_info *info = &ctx->ring_info;

	kfree(info->ring);
	info->ring = NULL;
	info->nr = 0;
}

static int aio_setup_ring(struct kioctx *ctx)
{
	struct aio_ring_info *info = &ctx->ring_info;
	unsigned nr_events = ctx->max_reqs;

	/* one slot more than requests: head == tail means empty */
	nr_events += 1;
	info->ring = kmalloc(nr_events * sizeof(struct io_event), GFP_KERNEL);
	if (!info->ring)
		return -ENOMEM;
	memset(info->ring, 0, nr_events * sizeof(struct io_event));
	info->nr = nr_events;
	info->head = info->tail = 0;
	spin_lock_init(&info->ring_lock);
	return 0;
}

static inline void get_ioctx(struct kioctx *kioctx)
{
	atomic_inc(&kioctx->users);
}

/* __put_ioctx
 *	Called when the last user of an aio context has gone away,
 *	and the struct needs to be freed.
 */
static void __put_ioctx(struct kioctx *ctx)
{
	if (unlikely(ctx->reqs_active))
		BUG();

	aio_free_ring(ctx);
	pr_debug("__put_ioctx: freeing %p\n", ctx);
	kmem_cache_free(kioctx_cachep, ctx);
	atomic_inc(&ctxs_freed);
	wake_up(&ctx_free_wait);
}

static inline void put_ioctx(struct kioctx *kioctx)
{
	if (unlikely(atomic_read(&kioctx->users) <= 0))
		BUG();
	if (unlikely(atomic_dec_and_test(&kioctx->users)))
		__put_ioctx(kioctx);
}

/* ioctx_alloc
 *	Allocates and initializes an ioctx.  Returns an ERR_PTR if it failed.
 */
static struct kioctx *ioctx_alloc(unsigned nr_events)
{
	struct kioctx *ctx;

	/* Prevent overflows */
	if ((nr_events > (0x10000000U / sizeof(struct io_event))) ||
	    (nr_events > (0x10000000U / sizeof(struct kiocb)))) {
		pr_debug("ENOMEM: nr_events too high\n");
		return ERR_PTR(-EINVAL);
	}
	if (!nr_events)
		return ERR_PTR(-EINVAL);

	ctx = kmem_cache_alloc(kioctx_cachep, GFP_KERNEL);
	if (!ctx)
		return ERR_PTR(-ENOMEM);

	memset(ctx, 0, sizeof(*ctx));
	ctx->max_reqs = nr_events;

	atomic_set(&ctx->users, 1);
	spin_lock_init(&ctx->ctx_lock);
	init_waitqueue_head(&ctx->wait);

	INIT_LIST_HEAD(&ctx->active_reqs);

	if (aio_setup_ring(ctx) < 0)
		goto out_freectx;

	/* now link into global list.  kludge.  FIXME */
	spin_lock(&ioctx_list_lock);
	ctx->next = ioctx_list;
	ioctx_list = ctx;
	spin_unlock(&ioctx_list_lock);

	atomic_inc(&ctxs_allocated);
	dprintk("aio: allocated ioctx %p[%ld]: mm=%p mask=0x%x\n",
		ctx, ctx->user_id, current->mm, ctx->ring_info.ring->nr);
	return ctx;

out_freectx:
	kmem_cache_free(kioctx_cachep, ctx);
	ctx = ERR_PTR(-ENOMEM);

	dprintk("aio: error allocating ioctx %p\n", ctx);
	return ctx;
}

/* aio_cancel_all
 *	Cancels all outstanding aio requests on an aio context.  Used
 *	when the processes owning a context have all exited to encourage
 *	the rapid destruction of the kioctx.
 */
static void aio_cancel_all(struct kioctx *ctx)
{
	int (*cancel)(struct kiocb *, struct io_event *);
	struct io_event res;

	spin_lock_irq(&ctx->ctx_lock);
	ctx->dead = 1;
	while (!list_empty(&ctx->active_reqs)) {
		struct list_head *pos = ctx->active_reqs.next;
		struct kiocb *iocb = list_entry(pos, struct kiocb, ki_list);

		list_del_init(&iocb->ki_list);
		cancel = iocb->ki_cancel;
		if (cancel) {
			iocb->ki_users++;
			spin_unlock_irq(&ctx->ctx_lock);
			cancel(iocb, &res);
			spin_lock_irq(&ctx->ctx_lock);
		}
	}
	spin_unlock_irq(&ctx->ctx_lock);
}

static int reqs_active(struct kioctx *ctx)
{
	int n;

	spin_lock_irq(&ctx->ctx_lock);
	n = ctx->reqs_active;
	spin_unlock_irq(&ctx->ctx_lock);
	return n;
}

static void wait_for_all_aios(struct kioctx *ctx)
{
	if (!reqs_active(ctx))
		return;
	wait_event(ctx->wait, !reqs_active(ctx));
}

/* aio_get_req
 *	Allocate a slot for an aio request.  Increments the users count
 * of the kioctx so that the kioctx stays around until all requests are
 * complete.  Returns NULL if no requests are free.
 */
static struct kiocb *__aio_get_req(struct kioctx *ctx)
{
	struct kiocb *req = NULL;
	struct aio_ring_info *info = &ctx->ring_info;
	unsigned used;
	int okay = 0;

	req = kmem_cache_alloc(kiocb_cachep, GFP_KERNEL);
	if (unlikely(!req))
		return NULL;

	req->ki_flags = 0;
	req->ki_users = 2;	/* one for the submitter, one for completion */
	req->ki_key = 0;
	req->ki_ctx = ctx;
	req->ki_cancel = NULL;
	req->ki_user_obj = NULL;
	req->ki_filp = NULL;
	req->private = NULL;
	INIT_LIST_HEAD(&req->ki_run_list);

	/* Check if the completion queue has enough free space to
	 * accept an event from this io.
	 */
	spin_lock_irq(&ctx->ctx_lock);
	used = (info->tail + info->nr - info->head) % info->nr;
	if (ctx->reqs_active + used < ctx->max_reqs && !ctx->dead) {
		list_add(&req->ki_list, &ctx->active_reqs);
		get_ioctx(ctx);
		ctx->reqs_active++;
		okay = 1;
	}
	spin_unlock_irq(&ctx->ctx_lock);

	if (!okay) {
		kmem_cache_free(kiocb_cachep, req);
		req = NULL;
	} else {
		atomic_inc(&reqs_allocated);
	}

	return req;
}

static inline struct kiocb *aio_get_req(struct kioctx *ctx)
{
	return __aio_get_req(ctx);
}

static inline void really_put_req(struct kioctx *ctx, struct kiocb *req)
{
	req->ki_filp = NULL;
	req->ki_user_obj = NULL;
	kmem_cache_free(kiocb_cachep, req);
	atomic_inc(&reqs_freed);
	ctx->reqs_active--;

	if (unlikely(!ctx->reqs_active && ctx->dead))
		wake_up(&ctx->wait);
}

#define list_kiocb(x)	list_entry(x, struct kiocb, ki_list)

static void aio_fput_routine(void *data)
{
	atomic_inc(&fput_runs);
	spin_lock_irq(&fput_lock);
	while (likely(!list_empty(&fput_head))) {
		struct kiocb *req = list_kiocb(fput_head.next);
		struct kioctx *ctx = req->ki_ctx;

		list_del(&req->ki_list);
		spin_unlock_irq(&fput_lock);

		/* Complete the fput */
		__fput(req->ki_filp);
		atomic_inc(&fput_done);

		/* Link the iocb into the context's free list */
		spin_lock_irq(&ctx->ctx_lock);
		really_put_req(ctx, req);
		spin_unlock_irq(&ctx->ctx_lock);

		put_ioctx(ctx);
		spin_lock_irq(&fput_lock);
	}
	spin_unlock_irq(&fput_lock);
}

/* __aio_put_req
 *	Returns true if this put was the last user of the request.
 */
static int __aio_put_req(struct kioctx *ctx, struct kiocb *req)
{
	dprintk(KERN_DEBUG "aio_put(%p): f_count=%d\n",
		req, atomic_read(&req->ki_filp->f_count));

	req->ki_users --;
	if (unlikely(req->ki_users < 0))
		BUG();
	if (likely(req->ki_users))
		return 0;
	list_del(&req->ki_list);		/* remove from active_reqs */
	req->ki_cancel = NULL;

	/* Must be done under the lock to serialise against cancellation.
	 * Call this aio_fput as it duplicates fput via the fput_tqueue.
	 */
	if (unlikely(atomic_dec_and_test(&req->ki_filp->f_count))) {
		get_ioctx(ctx);
		spin_lock(&fput_lock);
		list_add(&req->ki_list, &fput_head);
		spin_unlock(&fput_lock);
		atomic_inc(&fput_deferred);
		queue_work(aio_wq, &fput_work);
	} else
		really_put_req(ctx, req);
	return 1;
}

/* aio_put_req
 *	Returns true if this put was the last user of the kiocb,
 *	false if the request is still in use.
 */
int aio_put_req(struct kiocb *req)
{
	struct kioctx *ctx = req->ki_ctx;
	int ret;

	spin_lock_irq(&ctx->ctx_lock);
	ret = __aio_put_req(ctx, req);
	spin_unlock_irq(&ctx->ctx_lock);
	if (ret)
		put_ioctx(ctx);
	return ret;
}

/* aio_complete
 *	Called when the io request on the given iocb is complete.
 *	Returns true if this is the last user of the request.  The
 *	only other user of the request can be the cancellation code.
 */
int aio_complete(struct kiocb *iocb, long res, long res2)
{
	struct kioctx	*ctx = iocb->ki_ctx;
	struct aio_ring_info	*info;
	struct io_event	*event;
	unsigned long	flags;
	unsigned	tail;
	int		ret;

	/* add a completion event to the ring buffer.
	 * must be done holding ctx->ctx_lock to prevent
	 * other code from messing with the tail
	 * pointer since we might be called from irq
	 * context.
	 */
	spin_lock_irqsave(&ctx->ctx_lock, flags);

	info = &ctx->ring_info;
	tail = info->tail;
	event = &info->ring[tail];
	if (++tail >= info->nr)
		tail = 0;

	event->obj = (u64)(unsigned long)iocb->ki_user_obj;
	event->data = iocb->ki_user_data;
	event->res = res;
	event->res2 = res2;

	dprintk("aio_complete: %p[%lu]: %p: %p %Lx %lx %lx\n",
		ctx, tail, iocb, iocb->ki_user_obj, iocb->ki_user_data,
		res, res2);

	/* after flagging the request as done, we
	 * must never even look at it again
	 */
	wmb();	/* make event visible before updating tail */

	spin_lock(&info->ring_lock);
	info->tail = tail;
	spin_unlock(&info->ring_lock);
	atomic_inc(&events_added);

	pr_debug("added to ring %p at [%lu]\n", iocb, tail);

	/* everything turned out well, dispose of the aiocb. */
	ret = __aio_put_req(ctx, iocb);

	spin_unlock_irqrestore(&ctx->ctx_lock, flags);

	if (waitqueue_active(&ctx->wait))
		wake_up(&ctx->wait);

	if (ret)
		put_ioctx(ctx);

	return ret;
}

/* aio_read_evt
 *	Pull an event off of the ioctx's event ring.  Returns the number of
 *	events fetched (0 or 1 ;-)
 */
static int aio_read_evt(struct kioctx *ioctx, struct io_event *ent)
{
	struct aio_ring_info *info = &ioctx->ring_info;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&info->ring_lock, flags);
	if (info->head != info->tail) {
		*ent = info->ring[info->head];
		info->head = (info->head + 1) % info->nr;
		ret = 1;
	}
	spin_unlock_irqrestore(&info->ring_lock, flags);
	return ret;
}

static int aio_events_available(struct kioctx *ctx)
{
	struct aio_ring_info *info = &ctx->ring_info;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&info->ring_lock, flags);
	ret = info->head != info->tail;
	spin_unlock_irqrestore(&info->ring_lock, flags);
	return ret;
}

long io_getevents(struct kioctx *ctx, long min_nr, long nr,
		  struct io_event *event)
{
	long i = 0;
	struct io_event ent;

	if (nr < 0 || min_nr < 0 || min_nr > nr)
		return -EINVAL;
	while (likely(i < nr)) {
		if (aio_read_evt(ctx, &ent)) {
			event[i++] = ent;
			continue;
		}
		if (i >= min_nr)
			break;
		wait_event(ctx->wait, aio_events_available(ctx) ||
			   !reqs_active(ctx));
		if (!aio_events_available(ctx) && !reqs_active(ctx))
			break;	/* nothing more can come */
	}
	return i;
}

static ssize_t aio_pread(struct kiocb *iocb, struct iocb *user)
{
	struct file *file = iocb->ki_filp;

	if (!file->f_op->aio_read)
		return -EINVAL;
	return file->f_op->aio_read(iocb, user->aio_buf, user->aio_nbytes,
				    iocb->ki_pos);
}

static ssize_t aio_pwrite(struct kiocb *iocb, struct iocb *user)
{
	struct file *file = iocb->ki_filp;

	if (!file->f_op->aio_write)
		return -EINVAL;
	return file->f_op->aio_write(iocb, user->aio_buf, user->aio_nbytes,
				     iocb->ki_pos);
}

static int io_submit_one(struct kioctx *ctx, struct iocb *iocb)
{
	struct kiocb *req;
	struct file *file;
	ssize_t ret;

	file = fget(iocb->aio_fildes);
	if (unlikely(!file))
		return -EBADF;

	req = aio_get_req(ctx);		/* returns with 2 references to req */
	if (unlikely(!req)) {
		fput(file);
		return -EAGAIN;
	}

	req->ki_filp = file;
	req->ki_user_obj = iocb;
	req->ki_user_data = iocb->aio_data;
	req->ki_pos = iocb->aio_offset;

	switch (iocb->aio_lio_opcode) {
	case IOCB_CMD_PREAD:
		ret = aio_pread(req, iocb);
		break;
	case IOCB_CMD_PWRITE:
		ret = aio_pwrite(req, iocb);
		break;
	default:
		dprintk("EINVAL: io_submit: no operation provided\n");
		ret = -EINVAL;
	}

	if (likely(-EIOCBQUEUED == ret)) {
		aio_put_req(req);	/* drop extra ref to req */
		return 0;
	}
	aio_complete(req, ret, 0);	/* will drop the completion ref */
	aio_put_req(req);		/* drop extra ref to req */
	return 0;
}

/* io_setup: a context for @nr_events requests in flight */
int io_setup(unsigned nr_events, struct kioctx **ctxp)
{
	struct kioctx *ioctx;

	ioctx = ioctx_alloc(nr_events);
	if (IS_ERR(ioctx))
		return PTR_ERR(ioctx);
	*ctxp = ioctx;
	return 0;
}

/* io_submit: the number of requests queued, or the first error */
long io_submit(struct kioctx *ctx, long nr, struct iocb **iocbpp)
{
	long i;
	int ret = 0;

	if (unlikely(nr < 0))
		return -EINVAL;

	get_ioctx(ctx);
	for (i = 0; i < nr; i++) {
		ret = io_submit_one(ctx, iocbpp[i]);
		if (ret)
			break;
	}
	put_ioctx(ctx);
	return i ? i : ret;
}

/* io_destroy: wait for what is in flight, then drop the context */
int io_destroy(struct kioctx *ioctx)
{
	struct kioctx **tmp;
	int was_dead = 0;

	spin_lock(&ioctx_list_lock);
	for (tmp = &ioctx_list; *tmp; tmp = &(*tmp)->next) {
		if (*tmp == ioctx) {
			*tmp = ioctx->next;
			was_dead = ioctx->dead;
			ioctx->dead = 1;
			break;
		}
	}
	spin_unlock(&ioctx_list_lock);

	dprintk("aio_release(%p)\n", ioctx);
	if (likely(!was_dead)) {
		aio_cancel_all(ioctx);
		wait_for_all_aios(ioctx);
		put_ioctx(ioctx);	/* once for the list */
	}
	return was_dead ? -EINVAL : 0;
}

void aio_get_stats(struct aio_stats *st)
{
	st->reqs_allocated = atomic_read(&reqs_allocated);
	st->reqs_freed = atomic_read(&reqs_freed);
	st->ctxs_allocated = atomic_read(&ctxs_allocated);
	st->ctxs_freed = atomic_read(&ctxs_freed);
	st->fput_deferred = atomic_read(&fput_deferred);
	st->fput_done = atomic_read(&fput_done);
	st->fput_runs = atomic_read(&fput_runs);
	st->events = atomic_read(&events_added);
}

/* wait until the deferred fputs queued so far have been done */
void aio_quiesce(void)
{
	flush_workqueue(aio_wq);
}

/* exit_aio: the process goes away with contexts still set up */
void __exit aio_exit(void)
{
	while (ioctx_list)
		io_destroy(ioctx_list);
	/* the last fputs may still be queued: destroying the queue runs them */
	destroy_workqueue(aio_wq);
	aio_wq = NULL;
	/*
	 * An aio_complete that woke io_destroy may still hold its context's
	 * last reference: the cache goes only once every context is freed.
	 */
	wait_event(ctx_free_wait,
		   atomic_read(&ctxs_freed) == atomic_read(&ctxs_allocated));
	kmem_cache_destroy(kiocb_cachep);
	kmem_cache_destroy(kioctx_cachep);
	kiocb_cachep = kioctx_cachep = NULL;
}

EXPORT_SYMBOL(aio_complete);
EXPORT_SYMBOL(aio_put_req);

MODULE_LICENSE("GPL");
