/*
 * skbuff.c - the sk_buff of 2.4.0 (drivers/net-core/skbuff.c and
 * shim/include-2.4/linux/skbuff.h): room at the head and the tail, what
 * put, push, pull, reserve and trim do to them, a put past the end, the
 * queues and their lengths, clones sharing the data.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>

#include <shim/test.h>
#include <net-core/net-core.h>
#include "suite.h"
#include "n24.h"

static void teardown(void)
{
	shim_quiesce();
	cr_assert_eq(net_core_skbs_held(NULL, 0), 0, "an sk_buff was left");
	cr_assert_eq(shim_kmalloc_outstanding(), 0, "memory was left");
}

TestSuite(skbuff24, .fini = teardown, .timeout = SUITE_TIMEOUT);

Test(skbuff24, alloc_skb_gives_tailroom_rounded_to_16_and_no_headroom)
{
	void *skb = n24_alloc_skb(100);

	cr_assert_not_null(skb);
	cr_assert_eq(n24_headroom(skb), 0);
	cr_assert_eq(n24_tailroom(skb), 112, "2.4 rounds the size to 16");
	cr_assert_eq(n24_len(skb), 0);
	cr_assert_eq(n24_users(skb), 1);
	n24_kfree_skb(skb);
}

Test(skbuff24, dev_alloc_skb_reserves_16_bytes_of_headroom)
{
	void *skb = n24_dev_alloc_skb(100);

	cr_assert_eq(n24_headroom(skb), 16);
	cr_assert_eq(n24_tailroom(skb), 112, "116 rounded up, less 16");
	cr_assert_eq(n24_data(skb), n24_head(skb) + 16);
	n24_kfree_skb(skb);
}

Test(skbuff24, put_push_pull_reserve_and_trim_move_the_right_ends)
{
	void *skb = n24_alloc_skb(64);

	n24_reserve(skb, 20);
	cr_assert_eq(n24_headroom(skb), 20);
	cr_assert_eq(n24_tailroom(skb), 44);
	cr_assert_eq(n24_len(skb), 0, "reserve adds no data");
	n24_put(skb, 10);
	cr_assert_eq(n24_len(skb), 10);
	cr_assert_eq(n24_tailroom(skb), 34);
	n24_push(skb, 6);
	cr_assert_eq(n24_len(skb), 16);
	cr_assert_eq(n24_headroom(skb), 14);
	cr_assert(n24_pull(skb, 4));
	cr_assert_eq(n24_len(skb), 12);
	cr_assert_eq(n24_headroom(skb), 18);
	cr_assert_not(n24_pull(skb, 13), "more than it holds: NULL");
	cr_assert_eq(n24_len(skb), 12, "and nothing taken");
	n24_trim(skb, 20);
	cr_assert_eq(n24_len(skb), 12, "trimming longer leaves it");
	n24_trim(skb, 5);
	cr_assert_eq(n24_len(skb), 5);
	cr_assert_eq(n24_tailroom(skb), 64 - 18 - 5);
	n24_kfree_skb(skb);
}

Test(skbuff24, put_to_the_very_end_is_allowed)
{
	void *skb = n24_alloc_skb(32);

	n24_put(skb, 32);
	cr_assert_eq(n24_tailroom(skb), 0);
	n24_kfree_skb(skb);
}

Test(skbuff24, put_past_the_end_is_a_bug, .signal = SIGABRT)
{
	void *skb = n24_alloc_skb(32);

	n24_put(skb, 30);
	n24_put(skb, 3);
}

Test(skbuff24, push_before_the_head_is_a_bug, .signal = SIGABRT)
{
	void *skb = n24_dev_alloc_skb(32);

	n24_push(skb, 17);
}

Test(skbuff24, a_queue_keeps_order_and_counts_its_length)
{
	void *a = n24_alloc_skb(8), *b = n24_alloc_skb(8),
	     *c = n24_alloc_skb(8);

	n24_q_init();
	cr_assert(n24_q_empty());
	cr_assert_null(n24_q_peek());
	n24_q_tail(b, N24_LOCKED);
	n24_q_tail(c, N24_LOCKED);
	n24_q_head(a, N24_LOCKED);
	cr_assert_eq(n24_q_len(), 3);
	cr_assert_not(n24_q_empty());
	cr_assert_eq(n24_q_peek(), a);
	cr_assert(n24_on_queue(b), "skb->list names its queue");
	cr_assert_eq(n24_q_dequeue_tail(N24_LOCKED), c);
	cr_assert_eq(n24_q_dequeue(N24_LOCKED), a);
	cr_assert_not(n24_on_queue(a), "off the queue, list is NULL");
	cr_assert_eq(n24_q_len(), 1);
	cr_assert_eq(n24_q_dequeue(N24_LOCKED), b);
	cr_assert_null(n24_q_dequeue(N24_LOCKED));
	cr_assert_null(n24_q_dequeue_tail(N24_LOCKED));
	cr_assert_eq(n24_q_len(), 0);
	n24_kfree_skb(a);
	n24_kfree_skb(b);
	n24_kfree_skb(c);
}

Test(skbuff24, the_unlocked_variants_do_the_same)
{
	void *a = n24_alloc_skb(8), *b = n24_alloc_skb(8);

	n24_q_init();
	n24_q_tail(a, N24_UNLOCKED);
	n24_q_head(b, N24_UNLOCKED);
	cr_assert_eq(n24_q_len(), 2);
	cr_assert_eq(n24_q_dequeue(N24_UNLOCKED), b);
	cr_assert_eq(n24_q_dequeue_tail(N24_UNLOCKED), a);
	cr_assert(n24_q_empty());
	n24_kfree_skb(a);
	n24_kfree_skb(b);
}

Test(skbuff24, unlink_takes_one_out_of_the_middle_and_purge_frees_the_rest)
{
	void *a = n24_alloc_skb(8), *b = n24_alloc_skb(8),
	     *c = n24_alloc_skb(8);

	n24_q_init();
	n24_q_tail(a, N24_LOCKED);
	n24_q_tail(b, N24_LOCKED);
	n24_q_tail(c, N24_LOCKED);
	n24_q_unlink(b);
	cr_assert_eq(n24_q_len(), 2);
	cr_assert_not(n24_on_queue(b));
	n24_q_unlink(b); /* on no queue: nothing */
	cr_assert_eq(n24_q_len(), 2);
	n24_kfree_skb(b);
	n24_q_purge();
	cr_assert(n24_q_empty());
	cr_assert_eq(net_core_skbs_held(NULL, 0), 0, "purge freed them");
}

Test(skbuff24, a_clone_shares_the_data_and_counts_it)
{
	void *skb = n24_alloc_skb(64), *clone;

	n24_put(skb, 10);
	cr_assert_not(n24_cloned(skb));
	clone = n24_clone(skb);
	cr_assert_neq(clone, skb);
	cr_assert_eq(n24_data(clone), n24_data(skb), "the same data");
	cr_assert_eq(n24_len(clone), 10);
	cr_assert(n24_cloned(skb));
	cr_assert(n24_cloned(clone));
	cr_assert_eq(n24_users(clone), 1, "a head of its own");
	cr_assert_not(n24_shared(skb));
	n24_kfree_skb(skb);
	cr_assert_not(n24_cloned(clone), "the last one holding the data");
	cr_assert_eq(n24_data(clone)[0], 'p', "the data outlived the first");
	n24_kfree_skb(clone);
}

Test(skbuff24, skb_get_shares_the_head_and_the_last_free_frees_it)
{
	void *skb = n24_alloc_skb(16);

	cr_assert_eq(n24_get(skb), skb);
	cr_assert_eq(n24_users(skb), 2);
	cr_assert(n24_shared(skb));
	n24_kfree_skb(skb);
	cr_assert_eq(n24_users(skb), 1);
	cr_assert_eq(net_core_skbs_held(NULL, 0), 1, "still held once");
	n24_kfree_skb(skb);
}

Test(skbuff24, a_copy_has_data_of_its_own_with_the_same_headroom)
{
	void *skb = n24_dev_alloc_skb(40), *copy;

	n24_put(skb, 12);
	copy = n24_copy(skb);
	cr_assert_neq(n24_data(copy), n24_data(skb));
	cr_assert_eq(memcmp(n24_data(copy), n24_data(skb), 12), 0);
	cr_assert_eq(n24_len(copy), 12);
	cr_assert_eq(n24_headroom(copy), 16);
	cr_assert_not(n24_cloned(skb));
	n24_kfree_skb(skb);
	n24_kfree_skb(copy);
}

Test(skbuff24, allocation_failure_gives_null_and_leaks_nothing)
{
	shim_fail_kmalloc_nth(2); /* the data, after the head */
	cr_assert_null(n24_alloc_skb(64));
	shim_fail_kmalloc_nth(0);
}
