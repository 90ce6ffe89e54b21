/*
 * bitops.c - atomic bit operations and atomic_t.
 */
#include <criterion/criterion.h>

#include <linux/sched.h>
#include <linux/completion.h>
#include <asm/bitops.h>
#include <asm/atomic.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(bitops, .timeout = SUITE_TIMEOUT);

Test(bitops, test_and_set_bit_returns_the_old_value)
{
	unsigned long word = 0;

	cr_assert_eq(test_and_set_bit(3, &word), 0);
	cr_assert_eq(word, 1UL << 3);
	cr_assert_eq(test_and_set_bit(3, &word), 1);
	cr_assert_eq(test_bit(3, &word), 1);
	cr_assert_eq(test_and_clear_bit(3, &word), 1);
	cr_assert_eq(test_and_clear_bit(3, &word), 0);
	cr_assert_eq(word, 0);
	cr_assert_eq(test_and_change_bit(5, &word), 0);
	cr_assert_eq(test_and_change_bit(5, &word), 1);
	cr_assert_eq(word, 0);
}

Test(bitops, bit_numbers_run_across_words)
{
	unsigned long map[2] = { 0, 0 };

	set_bit(BITS_PER_LONG + 6, map);
	cr_assert_eq(map[0], 0);
	cr_assert_eq(map[1], 1UL << 6);
	cr_assert(test_bit(BITS_PER_LONG + 6, map));
	cr_assert_not(test_bit(6, map));
	change_bit(0, map);
	cr_assert_eq(map[0], 1);
	clear_bit(BITS_PER_LONG + 6, map);
	__set_bit(1, map);
	__clear_bit(0, map);
	cr_assert_eq(map[0], 2);
	cr_assert_eq(map[1], 0);
}

/* two threads hammering distinct bits of one word lose nothing */
#define BIT_LOOPS 100000

struct hammer {
	unsigned long word;
	int errors[2];
	int arrived;
	struct completion done;
};

struct hammer_arg {
	struct hammer *h;
	int bit;
};

static int hammer_thread(void *arg)
{
	struct hammer_arg *a = arg;
	struct hammer *h = a->h;
	long i;

	meet(&h->arrived, 2);
	for (i = 0; i < BIT_LOOPS; i++) {
		if (test_and_set_bit(a->bit, &h->word))
			h->errors[a->bit]++;
		if (!test_and_clear_bit(a->bit, &h->word))
			h->errors[a->bit]++;
		set_bit(a->bit, &h->word);
		if (!test_bit(a->bit, &h->word))
			h->errors[a->bit]++;
		clear_bit(a->bit, &h->word);
	}
	complete(&h->done);
	return 0;
}

Test(bitops, concurrent_ops_on_distinct_bits_lose_nothing)
{
	struct hammer h = { .word = 0 };
	struct hammer_arg a[2] = { { &h, 0 }, { &h, 1 } };

	init_completion(&h.done);
	start_kthread(hammer_thread, &a[0]);
	start_kthread(hammer_thread, &a[1]);
	wait_for_completion(&h.done);
	wait_for_completion(&h.done);
	cr_assert_eq(h.errors[0], 0);
	cr_assert_eq(h.errors[1], 0);
	cr_assert_eq(h.word, 0);
}

Test(bitops, atomic_dec_and_test_is_true_only_at_zero)
{
	atomic_t v = ATOMIC_INIT(2);

	cr_assert_not(atomic_dec_and_test(&v));
	cr_assert(atomic_dec_and_test(&v));
	cr_assert_eq(atomic_read(&v), 0);
	cr_assert_not(atomic_dec_and_test(&v));
	cr_assert_eq(atomic_read(&v), -1);
	cr_assert(atomic_inc_and_test(&v));
}

Test(bitops, atomic_arithmetic)
{
	atomic_t v;

	atomic_set(&v, 10);
	atomic_add(5, &v);
	atomic_sub(3, &v);
	atomic_inc(&v);
	atomic_dec(&v);
	cr_assert_eq(atomic_read(&v), 12);
	cr_assert_eq(atomic_add_return(3, &v), 15);
	cr_assert_eq(atomic_sub_return(15, &v), 0);
	cr_assert_eq(atomic_inc_return(&v), 1);
	cr_assert_eq(atomic_dec_return(&v), 0);
	cr_assert(atomic_sub_and_test(0, &v));
	cr_assert(atomic_add_negative(-1, &v));
}

Test(bitops, xchg_and_cmpxchg)
{
	unsigned long x = 5;

	cr_assert_eq(xchg(&x, 7UL), 5);
	cr_assert_eq(x, 7);
	cr_assert_eq(cmpxchg(&x, 6UL, 9UL), 7,
		     "a failed cmpxchg returns the value");
	cr_assert_eq(x, 7);
	cr_assert_eq(cmpxchg(&x, 7UL, 9UL), 7);
	cr_assert_eq(x, 9);
}

struct counter {
	atomic_t v;
	int arrived;
	struct completion done;
};

static int inc_thread(void *arg)
{
	struct counter *c = arg;
	long i;

	meet(&c->arrived, 2);
	for (i = 0; i < BIT_LOOPS; i++)
		atomic_inc(&c->v);
	complete(&c->done);
	return 0;
}

Test(bitops, concurrent_atomic_inc_loses_nothing)
{
	struct counter c = { .v = ATOMIC_INIT(0) };

	init_completion(&c.done);
	start_kthread(inc_thread, &c);
	start_kthread(inc_thread, &c);
	wait_for_completion(&c.done);
	wait_for_completion(&c.done);
	cr_assert_eq(atomic_read(&c.v), 2 * BIT_LOOPS);
}
