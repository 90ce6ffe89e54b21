/*
 * quarantine.c - freed memory kept poisoned for a while, to catch what
 * uses it after kfree().
 *
 * kfree() fills the memory with POISON_FREE, as the kernel's slab debugging
 * does, and keeps it here instead of handing it back at once; the oldest
 * block leaves when the quarantine is full, and its poison is checked then
 * (a write after free is reported as slab corruption, naming who allocated
 * and who freed it).  Meanwhile shim_kmem_freed() tells whether an address
 * lies in freed memory: the stacks ask it before a routine runs, so that a
 * routine about to run with freed data, or a work in freed memory, is a BUG
 * that names it.  Blocks are found through the pages they cover.
 */
#include "shim.h"
#include <linux/slab.h>

#define QUARANTINE_BLOCKS 4096
#define QUARANTINE_BYTES (16UL << 20)
#define PAGE_HASH_BITS 12
#define POISON_FREE 0x6b
#define MAX_PAGES_INDEXED 8 /* pages of one block in the index */

struct freed_block {
	const char *start;
	size_t size;
	const char *alloc_caller, *free_caller;
	void *host; /* what to hand back to the host */
};

/* one page of one freed block, chained by page number */
struct page_ref {
	struct page_ref *next;
	unsigned long page;
	struct freed_block *block;
};

static struct shim_mutex quarantine_lock = SHIM_MUTEX_INIT;
static struct freed_block blocks[QUARANTINE_BLOCKS];
static struct page_ref refs[QUARANTINE_BLOCKS][MAX_PAGES_INDEXED];
static struct page_ref *pages[1 << PAGE_HASH_BITS];
static struct freed_block *big[QUARANTINE_BLOCKS]; /* too many pages to index */
static int nr_big;
static int oldest, nr_blocks;
static size_t bytes;

static struct page_ref **page_bucket(unsigned long page)
{
	return &pages[(page * 0x9E3779B97F4A7C15ULL) >> (64 - PAGE_HASH_BITS)];
}

static unsigned long first_page(const struct freed_block *b)
{
	return (unsigned long) b->start >> 12;
}

static unsigned long nr_pages(const struct freed_block *b)
{
	return (((unsigned long) b->start + b->size - 1) >> 12) -
	       first_page(b) + 1;
}

static void index_block(int slot)
{
	struct freed_block *b = &blocks[slot];
	unsigned long i, n = nr_pages(b);

	if (n > MAX_PAGES_INDEXED) {
		big[nr_big++] = b;
		return;
	}
	for (i = 0; i < n; i++) {
		struct page_ref *r = &refs[slot][i], **bucket;

		r->page = first_page(b) + i;
		r->block = b;
		bucket = page_bucket(r->page);
		r->next = *bucket;
		*bucket = r;
	}
}

static void unindex_block(int slot)
{
	struct freed_block *b = &blocks[slot];
	unsigned long i, n = nr_pages(b);
	int j;

	if (n > MAX_PAGES_INDEXED) {
		for (j = 0; j < nr_big && big[j] != b; j++)
			;
		big[j] = big[--nr_big];
		return;
	}
	for (i = 0; i < n; i++) {
		struct page_ref **pp = page_bucket(first_page(b) + i);

		while (*pp != &refs[slot][i])
			pp = &(*pp)->next;
		*pp = (*pp)->next;
	}
}

/* The offset of the first byte of @p that is not poison, or @size. */
static size_t poison_ends(const char *p, size_t size)
{
	const unsigned long poison = POISON_FREE * (~0UL / 0xff);
	unsigned long w;
	size_t i = 0;

	/* a word at a time where the words are aligned, then the byte */
	for (; i < size && ((unsigned long) (p + i) & (sizeof(w) - 1)); i++)
		if ((unsigned char) p[i] != POISON_FREE)
			return i;
	for (; i + sizeof(w) <= size; i += sizeof(w)) {
		memcpy(&w, p + i, sizeof(w));
		if (w != poison)
			break;
	}
	for (; i < size && (unsigned char) p[i] == POISON_FREE; i++)
		;
	return i;
}

/* The oldest block leaves: is its poison whole? */
static void evict_oldest(void)
{
	struct freed_block *b = &blocks[oldest];
	size_t i;

	unindex_block(oldest);
	i = poison_ends(b->start, b->size);
	if (i < b->size)
		printk(KERN_ERR
		       "Slab corruption: %zu bytes allocated by %s() and "
		       "freed by %s() were written after kfree(), first at "
		       "offset %zu (0x%02x, not 0x%02x)\n",
		       b->size, b->alloc_caller, b->free_caller, i,
		       (unsigned char) b->start[i], POISON_FREE);
	shim_host_free(b->host);
	bytes -= b->size;
	oldest = (oldest + 1) % QUARANTINE_BLOCKS;
	__atomic_sub_fetch(&nr_blocks, 1, __ATOMIC_RELAXED);
}

/* Called by kfree() once @p is no longer live: poison it and keep it. */
void shim_quarantine_add(void *p, size_t size, const char *alloc_caller,
			 const char *free_caller, void *host)
{
	int slot;

	memset(p, POISON_FREE, size);
	shim_mutex_lock_unseen(&quarantine_lock);
	while (nr_blocks && (nr_blocks == QUARANTINE_BLOCKS ||
			     bytes + size > QUARANTINE_BYTES))
		evict_oldest();
	slot = (oldest + nr_blocks) % QUARANTINE_BLOCKS;
	blocks[slot].start = p;
	blocks[slot].size = size;
	blocks[slot].alloc_caller = alloc_caller;
	blocks[slot].free_caller = free_caller;
	blocks[slot].host = host;
	index_block(slot);
	__atomic_add_fetch(&nr_blocks, 1, __ATOMIC_RELAXED);
	bytes += size;
	shim_mutex_unlock_unseen(&quarantine_lock);
}

/**
 * shim_kmem_freed - does @addr lie in memory kfree() has taken back?
 *
 * 1 if it does (within the last freed blocks kept), with what the block
 * was in @why; 0 if not, or if it is too long ago to tell.
 */
int shim_kmem_freed(const void *addr, char *why, size_t len)
{
	const char *a = addr;
	struct page_ref *r;
	struct freed_block *hit = NULL;
	int i;

	if (!addr || !__atomic_load_n(&nr_blocks, __ATOMIC_RELAXED))
		return 0;
	shim_mutex_lock_unseen(&quarantine_lock);
	for (r = *page_bucket((unsigned long) a >> 12); r && !hit; r = r->next)
		if (a >= r->block->start &&
		    a < r->block->start + r->block->size)
			hit = r->block;
	for (i = 0; i < nr_big && !hit; i++)
		if (a >= big[i]->start && a < big[i]->start + big[i]->size)
			hit = big[i];
	if (hit)
		snprintf(why, len,
			 "byte %zu of %zu allocated by %s() and freed by %s()",
			 (size_t) (a - hit->start), hit->size,
			 hit->alloc_caller, hit->free_caller);
	shim_mutex_unlock_unseen(&quarantine_lock);
	return hit != NULL;
}

/* At exit: check what is still kept, and let it go. */
__attribute__((destructor)) static void quarantine_drain(void)
{
	shim_mutex_lock_unseen(&quarantine_lock);
	while (nr_blocks)
		evict_oldest();
	shim_mutex_unlock_unseen(&quarantine_lock);
}
