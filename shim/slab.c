/*
 * slab.c - kmalloc, kfree and object caches, with accounting.
 *
 * Every allocation carries a header: its size, the function that asked for
 * it, and whether it is counted (what the shim and the stacks allocate
 * before main() is not).  Counted allocations are on a list, so a test can
 * assert that nothing leaked and the exit report can name where each leak
 * came from.  kfree() asks the debug-object registry whether the memory
 * still holds something live, such as pending work.
 *
 * With the debug checks, the slab allocator's own (SLAB_DEBUG): new memory
 * is filled with POISON_INUSE, so that what reads it before writing it
 * reads garbage, as in a kernel, not the host's zeroes; a red zone on each
 * side of every block is checked when it is freed (a write past either end
 * is a BUG naming the block and who allocated it); kfree() of a pointer
 * into a block names the block; an object goes back to the cache it came
 * from, a cache is destroyed only once empty (else it stays, with the
 * kernel's "Can't free all objects") and a cache's name is unique.
 */
#include "shim.h"
#include <trace/events/workqueue.h>
#include <linux/slab.h>
#include <linux/interrupt.h>
#include <linux/debugobjects.h>

#define KMALLOC_ALIGN 64 /* a cache line, as the kernel's slabs give */
#define HASH_BITS 12
#define POISON_INUSE 0x5a
/* the kernel's red-zone word around a live block */
#define RED_ACTIVE 0xD84156C5635688C0ULL
#define CACHE_MAGIC 0x5ab1ecac4e5ab1ecULL

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
	unsigned long seq; /* its number among counted calls; 0: not counted */
	kmem_cache_t *cache; /* the cache it came from, or NULL: kmalloc */
	u64 redzone1;	     /* red zone right before the block */
} __attribute__((aligned(KMALLOC_ALIGN)));

_Static_assert(offsetof(struct kmalloc_header, redzone1) + sizeof(u64) ==
		       sizeof(struct kmalloc_header),
	       "the red zone must end where the block begins");

struct kmem_cache_s {
	u64 magic; /* CACHE_MAGIC while the cache lives */
	struct list_head next;
	const char *name;
	size_t size;
	long objects; /* allocated and not freed */
	void (*ctor)(void *, kmem_cache_t *, unsigned long);
};

static struct shim_mutex alloc_lock = SHIM_MUTEX_INIT;
static LIST_HEAD(allocations);
static struct kmalloc_header *live[1 << HASH_BITS];
static long outstanding;
static unsigned long calls;

static struct kmalloc_header **live_bucket(const struct kmalloc_header *h)
{
	u64 k = ((unsigned long) h >> 6) * 0x9E3779B97F4A7C15ULL;

	return &live[k >> (64 - HASH_BITS)];
}

/* the red zone right after the block: unaligned, so copied */
static u64 redzone2(const struct kmalloc_header *h)
{
	u64 v;

	memcpy(&v, (const char *) (h + 1) + h->size, sizeof(v));
	return v;
}

static void *__kmalloc(size_t size, unsigned int gfp, const char *caller,
		       kmem_cache_t *cachep)
{
	struct kmalloc_header *h;
	int counted = !__atomic_load_n(&shim_booting, __ATOMIC_ACQUIRE);
	unsigned long seq = 0;
	u64 red = RED_ACTIVE;

	/* 2.4: a holder of cli()'s lock may sleep (and lose the lock) */
	if ((gfp & __GFP_WAIT) && unlikely(shim_preempt) &&
	    !shim_irqlock_may_sleep()) {
		printk(KERN_ERR
		       "BUG: sleeping kmalloc(%zu) from %s() in atomic "
		       "context: %s/%d, preempt_count 0x%08lx (use GFP_ATOMIC)\n",
		       size, caller, current->comm, current->pid, shim_preempt);
		BUG();
	}
	if (counted) {
		seq = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
		if (shim_fault_kmalloc()) {
			printk(KERN_DEBUG
			       "FAULT_INJECTION: kmalloc(%zu) from %s() "
			       "fails\n",
			       size, caller);
			return NULL;
		}
		if (shim_fault_resource(NULL, "kmalloc(%zu) from %s()", size,
					caller))
			return NULL;
	}
	h = shim_host_alloc(sizeof(*h) + size + sizeof(red), KMALLOC_ALIGN);
	if (!h)
		return NULL;
	h->size = size;
	h->caller = caller;
	h->seq = seq;
	h->cache = cachep;
	h->redzone1 = red;
	memcpy((char *) (h + 1) + size, &red, sizeof(red));
	if (shim_debug_checks)
		memset(h + 1, POISON_INUSE, size);
	shim_mutex_lock_unseen(&alloc_lock);
	h->hash_next = *live_bucket(h);
	*live_bucket(h) = h;
	if (counted) {
		list_add_tail(&h->list, &allocations);
		outstanding++;
	} else {
		INIT_LIST_HEAD(&h->list);
	}
	if (cachep)
		cachep->objects++;
	shim_mutex_unlock_unseen(&alloc_lock);
	return h + 1;
}

void *shim_kmalloc(size_t size, unsigned int gfp, const char *caller)
{
	return __kmalloc(size, gfp, caller, NULL);
}

/* kfree() of a pointer no live block starts at: say what it is. */
static void __attribute__((noreturn))
bad_kfree(const void *p, const char *caller)
{
	const char *a = p;
	char why[192];
	int i;

	if (shim_kmem_freed(p, why, sizeof(why))) {
		printk(KERN_EMERG
		       "BUG: kfree(%p) from %s(): already freed (%s)\n",
		       p, caller, why);
		BUG();
	}
	shim_mutex_lock_unseen(&alloc_lock);
	for (i = 0; i < (1 << HASH_BITS); i++) {
		struct kmalloc_header *h;

		for (h = live[i]; h; h = h->hash_next) {
			const char *start = (const char *) (h + 1);

			if (a > start && a < start + h->size) {
				printk(KERN_EMERG
				       "BUG: kfree(%p) from %s(): not the "
				       "start of a block: byte %zu of %zu "
				       "allocated by %s()\n",
				       p, caller, (size_t) (a - start), h->size,
				       h->caller);
				BUG();
			}
		}
	}
	shim_mutex_unlock_unseen(&alloc_lock);
	printk(KERN_EMERG "BUG: kfree(%p) from %s(): already freed, or not "
			  "allocated by kmalloc\n",
	       p, caller);
	BUG();
}

/* SLAB_RED_ZONE: BUG if a write went past either end of @h's block. */
static void check_redzones(const struct kmalloc_header *h, const char *func,
			   const char *caller)
{
	u64 after = redzone2(h);
	int before_ok = h->redzone1 == RED_ACTIVE;

	if (likely(before_ok && after == RED_ACTIVE))
		return;
	printk(KERN_EMERG "BUG: %s(%p) from %s(): slab error: memory %s the "
			  "%zu-byte block allocated by %s() was overwritten "
			  "(red zone %016llx, not %016llx)\n",
	       func, (void *) (h + 1), caller, before_ok ? "after" : "before",
	       h->size, h->caller,
	       (unsigned long long) (before_ok ? after : h->redzone1),
	       (unsigned long long) RED_ACTIVE);
	BUG();
}

/* Free @p, which kmem_cache_free() gives back to @cachep (else NULL). */
static void __kfree(const void *p, const char *func, const char *caller,
		    kmem_cache_t *cachep)
{
	struct kmalloc_header *h, **pp;
	int live;

	if (!p)
		return;
	h = (struct kmalloc_header *) p - 1;
	shim_mutex_lock_unseen(&alloc_lock);
	for (pp = live_bucket(h); *pp && *pp != h; pp = &(*pp)->hash_next)
		;
	/* *pp is another block's link: read under the lock, unseen */
	live = *pp != NULL;
	shim_mutex_unlock_unseen(&alloc_lock);
	if (unlikely(!live))
		bad_kfree(p, caller);
	if (shim_debug_checks) {
		check_redzones(h, func, caller);
		if (unlikely(cachep && h->cache != cachep)) {
			printk(KERN_EMERG
			       "BUG: kmem_cache_free(%s, %p) from %s(): "
			       "the object came from %s%s (allocated by "
			       "%s())\n",
			       cachep->name, p, caller,
			       h->cache ? "cache " : "",
			       h->cache ? h->cache->name : "kmalloc()",
			       h->caller);
			BUG();
		}
	}
	/* may BUG: the memory still holds pending work */
	debug_check_no_obj_freed(p, h->size, caller);
	trace_memory_freed(p, h->size);

	shim_mutex_lock_unseen(&alloc_lock);
	for (pp = live_bucket(h); *pp != h; pp = &(*pp)->hash_next)
		;
	*pp = h->hash_next;
	list_del(&h->list);
	if (h->seq)
		outstanding--;
	if (h->cache)
		h->cache->objects--;
	shim_mutex_unlock_unseen(&alloc_lock);
	/* with the debug checks, freed memory is poisoned and kept a while */
	if (shim_debug_enabled())
		shim_quarantine_add(h + 1, h->size, h->caller, caller, h);
	else
		shim_host_free(h);
}

void shim_kfree(const void *p, const char *caller)
{
	__kfree(p, "kfree", caller, NULL);
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

/*
 * Counted allocations made after the @mark-th counted call and not freed,
 * each named by its size and allocator ("kmalloc(4096) from foo()") in @buf.
 */
long shim_kmalloc_since(unsigned long mark, char *buf, size_t len)
{
	struct kmalloc_header *h;
	struct list_head *pos;
	size_t off = 0;
	long n = 0;

	if (len)
		buf[0] = 0;
	shim_mutex_lock_unseen(&alloc_lock);
	list_for_each(pos, &allocations) {
		h = list_entry(pos, struct kmalloc_header, list);
		if (h->seq <= mark)
			continue;
		if (off < len)
			off += snprintf(buf + off, len - off,
					"%skmalloc(%zu) from %s()",
					n ? ", " : "", h->size, h->caller);
		n++;
	}
	shim_mutex_unlock_unseen(&alloc_lock);
	return n;
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

static LIST_HEAD(caches); /* the live caches, under alloc_lock */

static void cache_bug(const char *func, const char *name, const char *what)
{
	printk(KERN_EMERG "BUG: %s(%s): %s, by %s/%d\n", func, name, what,
	       current->comm, current->pid);
	BUG();
}

/* BUG unless @cachep is a cache kmem_cache_create() made and not destroyed. */
static void check_cache(kmem_cache_t *cachep, const char *func)
{
	char name[32];

	if (likely(cachep && cachep->magic == CACHE_MAGIC))
		return;
	snprintf(name, sizeof(name), "%p", (void *) cachep);
	cache_bug(func, name, "not a live cache (destroyed already?)");
}

kmem_cache_t *
kmem_cache_create(const char *name, size_t size, size_t offset,
		  unsigned long flags,
		  void (*ctor)(void *, kmem_cache_t *, unsigned long),
		  void (*dtor)(void *, kmem_cache_t *, unsigned long))
{
	kmem_cache_t *cachep, *c;

	(void) offset;
	(void) flags;
	/* what 2.5's kmem_cache_create() BUG()s on */
	if (!name)
		cache_bug(__func__, "NULL", "a cache needs a name");
	if (in_interrupt())
		cache_bug(__func__, name, "called in interrupt");
	if (size < sizeof(void *))
		cache_bug(__func__, name, "objects smaller than a word");
	if (dtor && !ctor)
		cache_bug(__func__, name, "a destructor without a constructor");
	cachep = shim_kmalloc(sizeof(*cachep), GFP_KERNEL, "kmem_cache_create");
	if (!cachep)
		return NULL;
	cachep->magic = CACHE_MAGIC;
	cachep->name = name;
	cachep->size = size;
	cachep->objects = 0;
	cachep->ctor = ctor;
	shim_mutex_lock_unseen(&alloc_lock);
	list_for_each_entry(c, &caches, next) {
		if (!strcmp(c->name, name)) {
			shim_mutex_unlock_unseen(&alloc_lock);
			cache_bug(__func__, name,
				  "duplicate cache (the last user did not "
				  "destroy it?)");
		}
	}
	list_add_tail(&cachep->next, &caches);
	shim_mutex_unlock_unseen(&alloc_lock);
	return cachep;
}

/*
 * 0 once destroyed; 1, as in 2.5, if objects are still allocated from
 * it: it is left as it is, and they and it show as leaks.
 */
int kmem_cache_destroy(kmem_cache_t *cachep)
{
	long objects;

	might_sleep(); /* 2.5 takes cache_chain_sem */
	check_cache(cachep, __func__);
	shim_mutex_lock_unseen(&alloc_lock);
	objects = cachep->objects;
	if (!objects)
		list_del(&cachep->next);
	shim_mutex_unlock_unseen(&alloc_lock);
	if (objects) {
		printk(KERN_ERR "slab error in kmem_cache_destroy(): cache "
				"`%s': Can't free all objects (%ld still "
				"allocated)\n",
		       cachep->name, objects);
		return 1;
	}
	cachep->magic = 0;
	shim_kfree(cachep, "kmem_cache_destroy");
	return 0;
}

void *shim_kmem_cache_alloc(kmem_cache_t *cachep, unsigned int flags,
			    const char *caller)
{
	void *p;

	check_cache(cachep, "kmem_cache_alloc");
	p = __kmalloc(cachep->size, flags, caller, cachep);
	if (p && cachep->ctor)
		cachep->ctor(p, cachep, 0);
	return p;
}

void shim_kmem_cache_free(kmem_cache_t *cachep, void *objp, const char *caller)
{
	check_cache(cachep, "kmem_cache_free");
	__kfree(objp, "kmem_cache_free", caller, cachep);
}
