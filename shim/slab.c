/*
 * slab.c - kmalloc, kfree and object caches, with accounting.
 *
 * Every allocation carries a header: its size, the function that asked for
 * it, and whether it is counted (what the shim and the stacks allocate
 * before main() is not).  Counted allocations are on a list, so a test can
 * assert that nothing leaked and the exit report can name where each leak
 * came from.  kfree() asks the debug-object registry whether the memory
 * still holds something live, such as pending work.
 */
#include "shim.h"
#include <linux/slab.h>
#include <linux/debugobjects.h>

#define KMALLOC_ALIGN 64 /* a cache line, as the kernel's slabs give */
#define HASH_BITS 12

/*
 * The header sits right before the memory handed out.  Live allocations
 * are also hashed by address, so kfree() recognises a pointer it did not
 * hand out (or already took back) without reading freed memory.
 */
struct kmalloc_header {
	struct list_head list; /* counted allocations, oldest first */
	struct kmalloc_header *hash_next;
	size_t size;
	const char *caller;
	int counted;
} __attribute__((aligned(KMALLOC_ALIGN)));

struct kmem_cache_s {
	const char *name;
	size_t size;
	void (*ctor)(void *, kmem_cache_t *, unsigned long);
};

static struct shim_mutex alloc_lock = SHIM_MUTEX_INIT;
static LIST_HEAD(allocations);
static struct kmalloc_header *live[1 << HASH_BITS];
static long outstanding;
static unsigned long calls;
static unsigned long fail_kmalloc_countdown;
static unsigned long fail_kthread_countdown;

/* 1 if this counted call is the one chosen to fail */
static struct kmalloc_header **live_bucket(const struct kmalloc_header *h)
{
	u64 k = ((unsigned long) h >> 6) * 0x9E3779B97F4A7C15ULL;

	return &live[k >> (64 - HASH_BITS)];
}

static int countdown_hits(unsigned long *countdown)
{
	unsigned long n = __atomic_load_n(countdown, __ATOMIC_SEQ_CST);

	while (n) {
		if (__atomic_compare_exchange_n(countdown, &n, n - 1, 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return n == 1;
	}
	return 0;
}

int shim_fault_kmalloc(void)
{
	return countdown_hits(&fail_kmalloc_countdown);
}

int shim_fault_kthread(void)
{
	return countdown_hits(&fail_kthread_countdown);
}

void shim_fail_kmalloc_nth(unsigned long n)
{
	__atomic_store_n(&fail_kmalloc_countdown, n, __ATOMIC_SEQ_CST);
}

void shim_fail_kthread_nth(unsigned long n)
{
	__atomic_store_n(&fail_kthread_countdown, n, __ATOMIC_SEQ_CST);
}

void *shim_kmalloc(size_t size, unsigned int gfp, const char *caller)
{
	struct kmalloc_header *h;
	int counted = !__atomic_load_n(&shim_booting, __ATOMIC_ACQUIRE);

	if ((gfp & __GFP_WAIT) && unlikely(shim_preempt)) {
		printk(KERN_ERR
		       "BUG: sleeping kmalloc(%zu) from %s() in atomic "
		       "context: %s/%d, preempt_count 0x%08lx (use GFP_ATOMIC)\n",
		       size, caller, current->comm, current->pid, shim_preempt);
		BUG();
	}
	if (counted) {
		__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
		if (shim_fault_kmalloc()) {
			printk(KERN_DEBUG
			       "FAULT_INJECTION: kmalloc(%zu) from %s() "
			       "fails\n",
			       size, caller);
			return NULL;
		}
	}
	h = shim_host_alloc(sizeof(*h) + size, KMALLOC_ALIGN);
	if (!h)
		return NULL;
	h->size = size;
	h->caller = caller;
	h->counted = counted;
	shim_mutex_lock_unseen(&alloc_lock);
	h->hash_next = *live_bucket(h);
	*live_bucket(h) = h;
	if (counted) {
		list_add_tail(&h->list, &allocations);
		outstanding++;
	} else {
		INIT_LIST_HEAD(&h->list);
	}
	shim_mutex_unlock_unseen(&alloc_lock);
	return h + 1;
}

void shim_kfree(const void *p, const char *caller)
{
	struct kmalloc_header *h, **pp;

	if (!p)
		return;
	h = (struct kmalloc_header *) p - 1;
	shim_mutex_lock_unseen(&alloc_lock);
	for (pp = live_bucket(h); *pp && *pp != h; pp = &(*pp)->hash_next)
		;
	shim_mutex_unlock_unseen(&alloc_lock);
	if (unlikely(!*pp)) {
		char why[192];

		if (shim_kmem_freed(p, why, sizeof(why)))
			printk(KERN_EMERG
			       "BUG: kfree(%p) from %s(): already freed "
			       "(%s)\n",
			       p, caller, why);
		else
			printk(KERN_EMERG
			       "BUG: kfree(%p) from %s(): already freed, "
			       "or not allocated by kmalloc\n",
			       p, caller);
		BUG();
	}
	/* may BUG: the memory still holds pending work */
	debug_check_no_obj_freed(p, h->size, caller);

	shim_mutex_lock_unseen(&alloc_lock);
	for (pp = live_bucket(h); *pp != h; pp = &(*pp)->hash_next)
		;
	*pp = h->hash_next;
	list_del(&h->list);
	if (h->counted)
		outstanding--;
	shim_mutex_unlock_unseen(&alloc_lock);
	/* with the debug checks, freed memory is poisoned and kept a while */
	if (shim_debug_enabled())
		shim_quarantine_add(h + 1, h->size, h->caller, caller, h);
	else
		shim_host_free(h);
}

long shim_kmalloc_outstanding(void)
{
	long n;

	shim_mutex_lock_unseen(&alloc_lock);
	n = outstanding;
	shim_mutex_unlock_unseen(&alloc_lock);
	return n;
}

unsigned long shim_kmalloc_calls(void)
{
	return __atomic_load_n(&calls, __ATOMIC_RELAXED);
}

/* At exit, name what was allocated after boot and never freed. */
__attribute__((destructor)) static void report_leaks(void)
{
	struct kmalloc_header *h;
	struct list_head *pos;
	int shown = 0;

	if (!shim_debug_enabled())
		return;
	shim_mutex_lock_unseen(&alloc_lock);
	if (outstanding > 0) {
		printk(KERN_WARNING
		       "kmalloc: %ld allocation(s) leaked at exit\n",
		       outstanding);
		/*
		 * Not list_for_each_entry: its end test forms a header
		 * around the list head, which is not KMALLOC_ALIGN aligned
		 * (UBSan says so).
		 */
		list_for_each(pos, &allocations) {
			h = list_entry(pos, struct kmalloc_header, list);
			if (++shown > 10)
				break;
			printk(KERN_WARNING "kmalloc:   %zu bytes from %s()\n",
			       h->size, h->caller);
		}
	}
	shim_mutex_unlock_unseen(&alloc_lock);
}

kmem_cache_t *
kmem_cache_create(const char *name, size_t size, size_t offset,
		  unsigned long flags,
		  void (*ctor)(void *, kmem_cache_t *, unsigned long),
		  void (*dtor)(void *, kmem_cache_t *, unsigned long))
{
	kmem_cache_t *cachep;

	(void) offset;
	(void) flags;
	(void) dtor;
	cachep = shim_kmalloc(sizeof(*cachep), GFP_KERNEL, "kmem_cache_create");
	if (!cachep)
		return NULL;
	cachep->name = name;
	cachep->size = size;
	cachep->ctor = ctor;
	return cachep;
}

int kmem_cache_destroy(kmem_cache_t *cachep)
{
	shim_kfree(cachep, "kmem_cache_destroy");
	return 0;
}

void *shim_kmem_cache_alloc(kmem_cache_t *cachep, unsigned int flags,
			    const char *caller)
{
	void *p = shim_kmalloc(cachep->size, flags, caller);

	if (p && cachep->ctor)
		cachep->ctor(p, cachep, 0);
	return p;
}

void shim_kmem_cache_free(kmem_cache_t *cachep, void *objp, const char *caller)
{
	(void) cachep;
	shim_kfree(objp, caller);
}
