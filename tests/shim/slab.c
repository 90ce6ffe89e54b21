/*
 * slab.c - kmalloc, kfree and object caches, with their accounting and
 * their diagnostics.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(slab, .timeout = SUITE_TIMEOUT);

Test(slab, kmalloc_and_kfree_are_counted)
{
	long base = shim_kmalloc_outstanding();
	unsigned long calls = shim_kmalloc_calls();
	char *a, *b;

	a = kmalloc(100, GFP_KERNEL);
	b = kmalloc(1, GFP_ATOMIC);
	cr_assert_not_null(a);
	cr_assert_not_null(b);
	memset(a, 0x5a, 100);
	cr_assert_eq(shim_kmalloc_outstanding(), base + 2);
	cr_assert_eq(shim_kmalloc_calls(), calls + 2);
	kfree(a);
	cr_assert_eq(shim_kmalloc_outstanding(), base + 1);
	kfree(b);
	cr_assert_eq(shim_kmalloc_outstanding(), base);
	cr_assert_eq(shim_kmalloc_calls(), calls + 2,
		     "kfree is not an allocation");
}

Test(slab, nothing_is_outstanding_at_the_start)
{
	cr_assert_eq(shim_kmalloc_outstanding(), 0,
		     "what the shim allocates at boot is not counted");
}

Test(slab, kfree_of_null_does_nothing)
{
	long base = shim_kmalloc_outstanding();

	kfree(NULL);
	cr_assert_eq(shim_kmalloc_outstanding(), base);
}

Test(slab, kzalloc_zeroes)
{
	unsigned char *p = kzalloc(256, GFP_KERNEL);
	int i;

	cr_assert_not_null(p);
	for (i = 0; i < 256; i++)
		cr_assert_eq(p[i], 0);
	kfree(p);
}

Test(slab, atomic_kmalloc_under_spinlock_is_fine)
{
	DEFINE_SPINLOCK(lock);
	void *p;

	spin_lock(&lock);
	p = kmalloc(64, GFP_ATOMIC);
	spin_unlock(&lock);
	cr_assert_not_null(p);
	kfree(p);
}

static int ctor_calls;
static void *ctor_last;

static void count_ctor(void *obj, kmem_cache_t *cachep, unsigned long flags)
{
	ctor_calls++;
	ctor_last = obj;
	memset(obj, 0x11, 24);
}

Test(slab, kmem_cache_objects_are_counted_and_constructed)
{
	long base = shim_kmalloc_outstanding();
	kmem_cache_t *cache;
	unsigned char *a, *b;

	cache = kmem_cache_create("shimtest", 24, 0, SLAB_HWCACHE_ALIGN,
				  count_ctor, NULL);
	cr_assert_not_null(cache);
	cr_assert_eq(shim_kmalloc_outstanding(), base + 1);
	a = kmem_cache_alloc(cache, GFP_KERNEL);
	b = kmem_cache_alloc(cache, GFP_KERNEL);
	cr_assert_not_null(a);
	cr_assert_not_null(b);
	cr_assert_eq(ctor_calls, 2);
	cr_assert_eq(ctor_last, b);
	cr_assert_eq(a[23], 0x11);
	cr_assert_eq(shim_kmalloc_outstanding(), base + 3);
	kmem_cache_free(cache, a);
	kmem_cache_free(cache, b);
	cr_assert_eq(shim_kmalloc_outstanding(), base + 1);
	cr_assert_eq(kmem_cache_destroy(cache), 0);
	cr_assert_eq(shim_kmalloc_outstanding(), base);
}

/* diagnostics, from children */

CHILD_SCENARIO(sleeping_kmalloc_under_spinlock)
{
	DEFINE_SPINLOCK(lock);

	strcpy(current->comm, "allocator");
	spin_lock(&lock);
	kmalloc(32, GFP_KERNEL);
}

Test(slab, sleeping_kmalloc_under_spinlock_is_a_bug)
{
	struct child_result res;

	run_child("sleeping_kmalloc_under_spinlock", NULL, &res);
	assert_child_bug(&res,
			 "BUG: sleeping kmalloc(32) from "
			 "child_sleeping_kmalloc_under_spinlock() in atomic "
			 "context: allocator/");
}

CHILD_SCENARIO(double_kfree)
{
	void *p = kmalloc(48, GFP_KERNEL);

	kfree(p);
	kfree(p);
}

Test(slab, double_kfree_is_a_bug)
{
	struct child_result res;

	run_child("double_kfree", NULL, &res);
	assert_child_bug(&res,
			 "from child_double_kfree(): already freed (byte 0 of "
			 "48 allocated by child_double_kfree() and freed by "
			 "child_double_kfree())");
}

/* --- slab poisoning: freed memory is poisoned and kept a while ------------ */

Test(slab, freed_memory_is_poisoned_and_known_as_freed)
{
	char *p = kmalloc(100, GFP_KERNEL), *big = kmalloc(40000, GFP_KERNEL);
	char why[192];
	int i;

	cr_assert(p && big);
	memset(p, 0, 100);
	cr_assert_not(shim_kmem_freed(p, why, sizeof(why)),
		      "live memory is not freed");
	kfree(p);
	kfree(big);
	/* our own quarantine: still mapped, so reading it is defined here */
	for (i = 0; i < 100; i++)
		cr_assert_eq((unsigned char) p[i], 0x6b, "byte %d not poisoned",
			     i);
	cr_assert(shim_kmem_freed(p + 57, why, sizeof(why)));
	cr_assert_str_eq(
		why,
		"byte 57 of 100 allocated by "
		"slab_freed_memory_is_poisoned_and_known_as_freed_impl() and freed by "
		"slab_freed_memory_is_poisoned_and_known_as_freed_impl()");
	cr_assert(shim_kmem_freed(big + 39999, why, sizeof(why)),
		  "a big block, at its end");
	cr_assert_not(shim_kmem_freed(p + 100, why, sizeof(why)),
		      "one past the end");
	cr_assert_not(shim_kmem_freed(why, why, sizeof(why)),
		      "memory kmalloc never gave");
}

CHILD_SCENARIO(write_after_free)
{
	char *p = kmalloc(64, GFP_KERNEL);

	kfree(p);
	p[10] = 1; /* found when the block leaves the quarantine */
	exit(0);
}

Test(slab, a_write_after_free_is_slab_corruption)
{
	struct child_result res;

	run_child("write_after_free", NULL, &res);
	assert_child_said(
		&res,
		"Slab corruption: 64 bytes allocated by "
		"child_write_after_free() and freed by child_write_after_free() "
		"were written after kfree(), first at offset 10");
}

CHILD_SCENARIO(write_after_free_unaligned)
{
	char *p = kmalloc(61, GFP_KERNEL);

	kfree(p);
	p[60] = 0; /* the last byte, then one inside a word */
	p[13] = 0x6a;
	exit(0);
}

CHILD_SCENARIO(write_after_free_last_byte)
{
	char *p = kmalloc(61, GFP_KERNEL);

	kfree(p);
	p[60] = 1;
	exit(0);
}

/* the poison is checked a word at a time: the first byte is still named */
Test(slab, a_write_after_free_is_found_at_its_first_byte)
{
	struct child_result res;

	run_child("write_after_free_unaligned", NULL, &res);
	assert_child_said(&res,
			  "were written after kfree(), first at offset 13 "
			  "(0x6a, not 0x6b)");
	run_child("write_after_free_last_byte", NULL, &res);
	assert_child_said(&res,
			  "were written after kfree(), first at offset 60 "
			  "(0x01, not 0x6b)");
}

CHILD_SCENARIO(kfree_foreign)
{
	static char buf[256];

	kfree(buf + 128);
}

Test(slab, kfree_of_memory_kmalloc_did_not_give_is_a_bug)
{
	struct child_result res;

	run_child("kfree_foreign", NULL, &res);
	assert_child_bug(&res, "not allocated by kmalloc");
}

static void *leaky_allocation(void)
{
	return kmalloc(77, GFP_KERNEL);
}

CHILD_SCENARIO(leak_at_exit)
{
	if (!leaky_allocation())
		printf("kmalloc failed\n");
}

Test(slab, leaks_are_reported_at_exit_with_their_caller)
{
	struct child_result res;

	run_child("leak_at_exit", NULL, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "status 0x%x: %s", res.status, res.out);
	assert_child_said(&res, "kmalloc: 1 allocation(s) leaked at exit");
	assert_child_said(&res, "77 bytes from leaky_allocation()");
}

CHILD_SCENARIO(no_leak_at_exit)
{
	kfree(leaky_allocation());
}

Test(slab, no_leak_no_report)
{
	struct child_result res;

	run_child("no_leak_at_exit", NULL, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0);
	cr_assert_not(strstr(res.out, "leaked"), "%s", res.out);
}

Test(slab, shim_debug_0_turns_the_leak_report_off)
{
	struct child_result res;

	run_child("leak_at_exit", "SHIM_DEBUG=0", &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0);
	cr_assert_not(strstr(res.out, "leaked"), "%s", res.out);
}

/* --- SLAB_DEBUG: poison on allocation, red zones, where a pointer points -- */

Test(slab, fresh_memory_is_poison_not_zeroes)
{
	unsigned char *p = kmalloc(80, GFP_KERNEL);
	int i;

	cr_assert_not_null(p);
	for (i = 0; i < 80; i++)
		cr_assert_eq(p[i], 0x5a, "byte %d is 0x%02x, not POISON_INUSE",
			     i, p[i]);
	kfree(p);
}

CHILD_SCENARIO(write_past_the_end)
{
	char *p = kmalloc(40, GFP_KERNEL);

	strcpy(current->comm, "overflow");
	memset(p, 0, 41); /* one byte too many */
	kfree(p);
	exit(0);
}

Test(slab, a_write_past_the_end_is_a_bug_at_kfree)
{
	struct child_result res;

	run_child("write_past_the_end", NULL, &res);
	assert_child_bug(
		&res, "BUG: kfree(",
		") from child_write_past_the_end(): slab error: memory "
		"after the 40-byte block allocated by "
		"child_write_past_the_end() was overwritten");
}

CHILD_SCENARIO(write_before_the_start)
{
	char *p = kmalloc(40, GFP_KERNEL);

	p[-3] = 1;
	kfree(p);
	exit(0);
}

Test(slab, a_write_before_the_start_is_a_bug_at_kfree)
{
	struct child_result res;

	run_child("write_before_the_start", NULL, &res);
	assert_child_bug(&res, "slab error: memory before the 40-byte block");
}

CHILD_SCENARIO(kfree_middle)
{
	char *p = kmalloc(100, GFP_KERNEL);

	kfree(p + 24);
	exit(0);
}

Test(slab, kfree_inside_a_block_names_the_block)
{
	struct child_result res;

	run_child("kfree_middle", NULL, &res);
	assert_child_bug(&res,
			 ") from child_kfree_middle(): not the start of a "
			 "block: byte 24 of 100 allocated by "
			 "child_kfree_middle()");
}

/* --- object caches -------------------------------------------------------- */

CHILD_SCENARIO(cache_free_to_the_wrong_cache)
{
	kmem_cache_t *a = kmem_cache_create("cache_a", 32, 0, 0, NULL, NULL);
	kmem_cache_t *b = kmem_cache_create("cache_b", 32, 0, 0, NULL, NULL);

	kmem_cache_free(b, kmem_cache_alloc(a, GFP_KERNEL));
	exit(0);
}

Test(slab, kmem_cache_free_to_another_cache_is_a_bug)
{
	struct child_result res;

	run_child("cache_free_to_the_wrong_cache", NULL, &res);
	assert_child_bug(&res, "BUG: kmem_cache_free(cache_b, ",
			 ") from child_cache_free_to_the_wrong_cache(): the "
			 "object came from cache cache_a");
}

CHILD_SCENARIO(cache_free_of_kmalloc)
{
	kmem_cache_t *a = kmem_cache_create("cache_a", 32, 0, 0, NULL, NULL);

	kmem_cache_free(a, kmalloc(32, GFP_KERNEL));
	exit(0);
}

Test(slab, kmem_cache_free_of_kmalloc_memory_is_a_bug)
{
	struct child_result res;

	run_child("cache_free_of_kmalloc", NULL, &res);
	assert_child_bug(&res, "the object came from kmalloc()");
}

Test(slab, destroying_a_cache_with_objects_left_fails_and_keeps_it,
     .init = quiet_console)
{
	kmem_cache_t *c = kmem_cache_create("busy", 64, 0, 0, NULL, NULL);
	void *obj = kmem_cache_alloc(c, GFP_KERNEL);
	char log[4096];

	cr_assert_eq(kmem_cache_destroy(c), 1, "2.5 returns 1 and keeps it");
	shim_printk_read(log, sizeof(log));
	cr_assert(strstr(log, "slab error in kmem_cache_destroy(): cache "
			      "`busy': Can't free all objects (1 still "
			      "allocated)"),
		  "%s", log);
	kmem_cache_free(c, obj); /* the cache still works */
	cr_assert_eq(kmem_cache_destroy(c), 0);
}

CHILD_SCENARIO(cache_alloc_after_destroy)
{
	kmem_cache_t *c = kmem_cache_create("gone", 64, 0, 0, NULL, NULL);

	kmem_cache_destroy(c);
	kmem_cache_alloc(c, GFP_KERNEL);
	exit(0);
}

Test(slab, kmem_cache_alloc_from_a_destroyed_cache_is_a_bug)
{
	struct child_result res;

	run_child("cache_alloc_after_destroy", NULL, &res);
	assert_child_bug(&res, "BUG: kmem_cache_alloc(0x",
			 "): not a live cache (destroyed already?)");
}

CHILD_SCENARIO(cache_created_twice)
{
	kmem_cache_create("twice", 64, 0, 0, NULL, NULL);
	kmem_cache_create("twice", 64, 0, 0, NULL, NULL);
	exit(0);
}

Test(slab, two_caches_of_one_name_is_a_bug)
{
	struct child_result res;

	run_child("cache_created_twice", NULL, &res);
	assert_child_bug(&res, "BUG: kmem_cache_create(twice): duplicate cache "
			       "(the last user did not destroy it?)");
}

Test(slab, a_name_is_free_again_once_its_cache_is_destroyed)
{
	kmem_cache_t *c = kmem_cache_create("again", 64, 0, 0, NULL, NULL);

	cr_assert_eq(kmem_cache_destroy(c), 0);
	c = kmem_cache_create("again", 64, 0, 0, NULL, NULL);
	cr_assert_not_null(c);
	cr_assert_eq(kmem_cache_destroy(c), 0);
}

CHILD_SCENARIO(cache_destroy_under_spinlock)
{
	kmem_cache_t *c = kmem_cache_create("locked", 64, 0, 0, NULL, NULL);
	DEFINE_SPINLOCK(lock);

	spin_lock(&lock);
	kmem_cache_destroy(c);
	spin_unlock(&lock);
	exit(0);
}

Test(slab, kmem_cache_destroy_in_atomic_context_is_a_bug)
{
	struct child_result res;

	run_child("cache_destroy_under_spinlock", NULL, &res);
	assert_child_bug(&res, "BUG: sleeping function called from invalid "
			       "context: kmem_cache_destroy()");
}

CHILD_SCENARIO(cache_of_tiny_objects)
{
	kmem_cache_create("tiny", 2, 0, 0, NULL, NULL);
	exit(0);
}

Test(slab, a_cache_of_objects_smaller_than_a_word_is_a_bug)
{
	struct child_result res;

	run_child("cache_of_tiny_objects", NULL, &res);
	assert_child_bug(&res, "BUG: kmem_cache_create(tiny): objects smaller "
			       "than a word");
}
