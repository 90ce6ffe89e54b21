/*
 * debugobjects.c - a registry of live objects, outside the objects.
 *
 * Keyed by address in a hash table with a lock per bucket.  The workqueue
 * registers work while it is pending; INIT_WORK and kfree() consult the
 * registry, never the work itself, so they work on uninitialised memory.
 */
#include "shim.h"
#include <linux/debugobjects.h>

#define ODEBUG_HASH_BITS 12
#define ODEBUG_HASH_SIZE (1 << ODEBUG_HASH_BITS)

struct debug_obj {
	struct debug_obj *next;
	const void *addr;
	struct debug_obj_descr *descr;
	const char *owner;
};

/*
 * A host lock, not a spinlock: the registry is the shim's bookkeeping, not
 * kernel behaviour, so taking it is no scheduling point (which bucket an
 * object falls in depends on its address, which a replay must not).
 */
struct debug_bucket {
	struct shim_mutex lock;
	struct debug_obj *head;
} __attribute__((aligned(64)));

static struct debug_bucket obj_hash[ODEBUG_HASH_SIZE];
static long nr_active;
/*
 * A bit a bucket, set while it holds objects: the scan of a large freed
 * block reads these 64 words, not a cache line of each of 4096 buckets.
 * Changed under the bucket's lock, read unlocked as the heads were.
 */
#define ODEBUG_WORD_BITS (8 * sizeof(unsigned long))
static unsigned long used[ODEBUG_HASH_SIZE / ODEBUG_WORD_BITS];

static void mark_used(struct debug_bucket *db, int in_use)
{
	size_t i = db - obj_hash;
	unsigned long bit = 1UL << (i % ODEBUG_WORD_BITS);

	if (in_use)
		__atomic_or_fetch(&used[i / ODEBUG_WORD_BITS], bit,
				  __ATOMIC_RELEASE);
	else
		__atomic_and_fetch(&used[i / ODEBUG_WORD_BITS], ~bit,
				   __ATOMIC_RELEASE);
}

int debug_objects_enabled(void)
{
	return shim_debug_enabled();
}

static struct debug_bucket *get_bucket(const void *addr)
{
	u64 h = ((unsigned long) addr >> 3) * 0x9E3779B97F4A7C15ULL;

	return &obj_hash[h >> (64 - ODEBUG_HASH_BITS)];
}

int debug_object_activate(void *addr, struct debug_obj_descr *descr,
			  const char *owner)
{
	struct debug_bucket *db;
	struct debug_obj *obj;

	if (!shim_debug_enabled())
		return 0;
	obj = shim_host_alloc(sizeof(*obj), sizeof(void *));
	if (!obj)
		shim_host_bug("malloc", ENOMEM);
	obj->addr = addr;
	obj->descr = descr;
	obj->owner = owner;

	db = get_bucket(addr);
	shim_mutex_lock_unseen(&db->lock);
	for (struct debug_obj *o = db->head; o; o = o->next) {
		if (o->addr == addr) {
			shim_mutex_unlock_unseen(&db->lock);
			shim_host_free(obj);
			return -EBUSY;
		}
	}
	obj->next = db->head;
	/* the scan of debug_check_no_obj_freed() peeks at it unlocked */
	__atomic_store_n(&db->head, obj, __ATOMIC_RELEASE);
	if (!obj->next)
		mark_used(db, 1);
	__atomic_add_fetch(&nr_active, 1, __ATOMIC_SEQ_CST);
	shim_mutex_unlock_unseen(&db->lock);
	return 0;
}

void debug_object_deactivate(void *addr, struct debug_obj_descr *descr)
{
	struct debug_bucket *db = get_bucket(addr);
	struct debug_obj **pp, *obj = NULL;

	(void) descr;
	if (!__atomic_load_n(&nr_active, __ATOMIC_SEQ_CST))
		return;
	shim_mutex_lock_unseen(&db->lock);
	for (pp = &db->head; *pp; pp = &(*pp)->next) {
		if ((*pp)->addr == addr) {
			obj = *pp;
			__atomic_store_n(pp, obj->next, __ATOMIC_RELEASE);
			__atomic_sub_fetch(&nr_active, 1, __ATOMIC_SEQ_CST);
			if (!db->head)
				mark_used(db, 0);
			break;
		}
	}
	shim_mutex_unlock_unseen(&db->lock);
	shim_host_free(obj);
}

static struct debug_obj *lookup(const void *addr, struct debug_obj *copy)
{
	struct debug_bucket *db = get_bucket(addr);
	struct debug_obj *obj;
	int found = 0;

	shim_mutex_lock_unseen(&db->lock);
	for (obj = db->head; obj; obj = obj->next) {
		if (obj->addr == addr) {
			*copy = *obj;
			found = 1;
			break;
		}
	}
	shim_mutex_unlock_unseen(&db->lock);
	return found ? copy : NULL;
}

const char *debug_object_active(const void *addr)
{
	struct debug_obj copy, *obj;

	if (!__atomic_load_n(&nr_active, __ATOMIC_SEQ_CST))
		return NULL;
	obj = lookup(addr, &copy);
	if (!obj)
		return NULL;
	return obj->owner ? obj->owner : obj->descr->name;
}

static void freed_active(const void *addr, struct debug_obj *obj,
			 const char *caller)
{
	char name[128] = "";

	/* the memory is not freed yet: the hint may still read the object */
	if (obj->descr->debug_hint &&
	    shim_symbol((unsigned long) obj->descr->debug_hint(obj->addr),
			name + 2, sizeof(name) - 3)) {
		name[0] = ' ';
		name[1] = '(';
		strcat(name, ")");
	}
	printk(KERN_EMERG "BUG: kfree(%p) in %s(): frees active %s %p%s "
			  "(pending%s%s)\n",
	       addr, caller, obj->descr->name, obj->addr, name,
	       obj->owner ? " on " : "", obj->owner ? obj->owner : "");
	BUG();
}

void debug_check_routine_memory(const void *work, const void *data,
				void (*routine)(void *), const char *queue)
{
	char why[192], name[128];
	const void *freed;
	const char *what;

	if (!shim_debug_enabled())
		return;
	if (shim_kmem_freed(work, why, sizeof(why))) {
		what = "its work";
		freed = work;
	} else if (shim_kmem_freed(data, why, sizeof(why))) {
		what = "its data";
		freed = data;
	} else {
		return;
	}
	if (!shim_symbol((unsigned long) routine, name, sizeof(name)))
		snprintf(name, sizeof(name), "%p", (void *) routine);
	printk(KERN_EMERG "BUG: routine %s on %s is about to run with freed "
			  "memory: %s %p is %s\n",
	       name, queue, what, freed, why);
	BUG();
}

void debug_check_no_obj_freed(const void *addr, size_t size, const char *caller)
{
	long active = __atomic_load_n(&nr_active, __ATOMIC_SEQ_CST);
	unsigned long start = (unsigned long) addr, end = start + size, p;
	struct debug_obj copy, *obj;
	unsigned long bits;
	size_t w;
	int i;

	if (!active)
		return;
	/* objects are pointer aligned: probe each slot, or scan the table */
	if (size / sizeof(void *) <= (size_t) active) {
		for (p = (start + 7) & ~7UL; p < end; p += 8) {
			obj = lookup((void *) p, &copy);
			if (obj)
				freed_active(addr, obj, caller);
		}
		return;
	}
	/* the first object in the block, as the probe above would find */
	copy.addr = NULL;
	/*
	 * Most buckets are empty: only those in use, and unlocked (an object
	 * added meanwhile could as well be added just after the scan).
	 */
	for (w = 0; w < ARRAY_SIZE(used); w++) {
		bits = __atomic_load_n(&used[w], __ATOMIC_ACQUIRE);
		for (; bits; bits &= bits - 1) {
			struct debug_bucket *db;

			i = w * ODEBUG_WORD_BITS + __builtin_ctzl(bits);
			db = &obj_hash[i];
			shim_mutex_lock_unseen(&db->lock);
			for (obj = db->head; obj; obj = obj->next)
				if ((unsigned long) obj->addr >= start &&
				    (unsigned long) obj->addr < end &&
				    (!copy.addr || obj->addr < copy.addr))
					copy = *obj;
			shim_mutex_unlock_unseen(&db->lock);
		}
	}
	if (copy.addr)
		freed_active(addr, &copy, caller);
}
