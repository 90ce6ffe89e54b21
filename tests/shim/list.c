/*
 * list.c - list.h, container_of, min and max.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/list.h>
#include "helpers.h"

TestSuite(list, .timeout = SUITE_TIMEOUT);

struct item {
	int value;
	struct list_head node;
};

/* the values on @head, in order, as a string "1 2 3" */
static const char *values(struct list_head *head)
{
	static char buf[128];
	struct item *it;
	size_t len = 0;

	buf[0] = '\0';
	list_for_each_entry(it, head, node)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%d",
				len ? " " : "", it->value);
	return buf;
}

/* the same, walking backwards: the prev links must agree */
static const char *values_reversed(struct list_head *head)
{
	static char buf[128];
	struct list_head *pos;
	size_t len = 0;

	buf[0] = '\0';
	list_for_each_prev(pos, head)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%d",
				len ? " " : "",
				list_entry(pos, struct item, node)->value);
	return buf;
}

static struct item items[8];

static void number_items(void)
{
	int i;

	for (i = 0; i < 8; i++)
		items[i].value = i;
}

Test(list, list_add_is_a_stack, .init = number_items)
{
	LIST_HEAD(head);

	cr_assert(list_empty(&head));
	list_add(&items[1].node, &head);
	list_add(&items[2].node, &head);
	list_add(&items[3].node, &head);
	cr_assert_not(list_empty(&head));
	cr_assert_str_eq(values(&head), "3 2 1");
	cr_assert_str_eq(values_reversed(&head), "1 2 3");
}

Test(list, list_add_tail_is_a_queue, .init = number_items)
{
	LIST_HEAD(head);

	list_add_tail(&items[1].node, &head);
	list_add_tail(&items[2].node, &head);
	list_add_tail(&items[3].node, &head);
	cr_assert_str_eq(values(&head), "1 2 3");
	cr_assert_eq(list_first_entry(&head, struct item, node), &items[1]);
}

Test(list, list_del_unlinks_and_poisons, .init = number_items)
{
	LIST_HEAD(head);

	list_add_tail(&items[1].node, &head);
	list_add_tail(&items[2].node, &head);
	list_add_tail(&items[3].node, &head);
	list_del(&items[2].node);
	cr_assert_str_eq(values(&head), "1 3");
	cr_assert_str_eq(values_reversed(&head), "3 1");
	cr_assert_eq(items[2].node.next, LIST_POISON1);
	cr_assert_eq(items[2].node.prev, LIST_POISON2);
	list_del_init(&items[1].node);
	cr_assert(list_empty(&items[1].node));
	cr_assert_str_eq(values(&head), "3");
}

Test(list, list_move_and_move_tail, .init = number_items)
{
	LIST_HEAD(a);
	LIST_HEAD(b);

	list_add_tail(&items[1].node, &a);
	list_add_tail(&items[2].node, &a);
	list_add_tail(&items[3].node, &b);
	list_move(&items[2].node, &b);
	cr_assert_str_eq(values(&a), "1");
	cr_assert_str_eq(values(&b), "2 3");
	list_move_tail(&items[1].node, &b);
	cr_assert(list_empty(&a));
	cr_assert_str_eq(values(&b), "2 3 1");
}

Test(list, splice_init_joins_at_the_front_and_empties_the_source,
     .init = number_items)
{
	LIST_HEAD(head);
	LIST_HEAD(other);

	list_add_tail(&items[1].node, &head);
	list_add_tail(&items[2].node, &head);
	list_add_tail(&items[5].node, &other);
	list_add_tail(&items[6].node, &other);
	list_splice_init(&other, &head);
	cr_assert(list_empty(&other));
	cr_assert_str_eq(values(&head), "5 6 1 2");
	cr_assert_str_eq(values_reversed(&head), "2 1 6 5");
	list_splice_init(&other, &head);
	cr_assert_str_eq(values(&head), "5 6 1 2",
			 "splicing an empty list changed it");
}

Test(list, splice_tail_init_joins_at_the_back, .init = number_items)
{
	LIST_HEAD(head);
	LIST_HEAD(other);

	list_add_tail(&items[1].node, &head);
	list_add_tail(&items[5].node, &other);
	list_add_tail(&items[6].node, &other);
	list_splice_tail_init(&other, &head);
	cr_assert(list_empty(&other));
	cr_assert_str_eq(values(&head), "1 5 6");
	cr_assert_str_eq(values_reversed(&head), "6 5 1");
}

Test(list, for_each_entry_safe_survives_deleting_the_entry,
     .init = number_items)
{
	struct item *it, *next;
	LIST_HEAD(head);
	int seen[8], n = 0, i;

	for (i = 0; i < 6; i++)
		list_add_tail(&items[i].node, &head);
	list_for_each_entry_safe(it, next, &head, node) {
		seen[n++] = it->value;
		if (it->value % 2 == 0)
			list_del(&it->node);
	}
	cr_assert_eq(n, 6);
	for (i = 0; i < 6; i++)
		cr_assert_eq(seen[i], i, "visited out of order");
	cr_assert_str_eq(values(&head), "1 3 5");
}

Test(list, container_of_finds_the_container)
{
	struct item it;
	struct list_head *p = &it.node;
	int *v = &it.value;

	cr_assert_eq(container_of(p, struct item, node), &it);
	cr_assert_eq(container_of(v, struct item, value), &it);
	cr_assert_eq(list_entry(p, struct item, node), &it);
}

Test(list, min_and_max_evaluate_once)
{
	int i = 3, j = 10;
	long a = -5, b = 2;

	cr_assert_eq(min(i, j), 3);
	cr_assert_eq(max(i, j), 10);
	cr_assert_eq(min(a, b), -5);
	cr_assert_eq(max(a, b), 2);
	cr_assert_eq(min(i++, j), 3);
	cr_assert_eq(i, 4, "an argument was evaluated twice");
	cr_assert_eq(max(i, j++), 10);
	cr_assert_eq(j, 11);
	cr_assert_eq(min_t(unsigned int, 5, -1), 5, "-1 as unsigned is large");
	cr_assert_eq(max_t(int, 5, -1), 5);
	cr_assert_eq(ARRAY_SIZE(items), 8);
}

/* CONFIG_DEBUG_LIST's checks: what would corrupt a list is a BUG */

CHILD_SCENARIO(list_add_twice)
{
	LIST_HEAD(head);

	list_add(&items[0].node, &head);
	list_add(&items[0].node, &head); /* it is head's next already */
	exit(0);
}

Test(list, adding_an_entry_twice_is_a_bug)
{
	struct child_result res;

	run_child("list_add_twice", NULL, &res);
	assert_child_bug(&res, "BUG: list_add double add: new=",
			 "(the entry is on this list already), in "
			 "child_list_add_twice");
}

CHILD_SCENARIO(list_del_twice)
{
	LIST_HEAD(head);

	list_add(&items[0].node, &head);
	list_del(&items[0].node);
	list_del(&items[0].node);
	exit(0);
}

Test(list, deleting_an_entry_twice_is_a_bug)
{
	struct child_result res;

	run_child("list_del_twice", NULL, &res);
	assert_child_bug(&res, "BUG: list_del corruption: ",
			 "->next is LIST_POISON1 (the entry was deleted "
			 "already), in child_list_del_twice");
}

CHILD_SCENARIO(list_add_to_a_broken_list)
{
	LIST_HEAD(head);

	list_add_tail(&items[0].node, &head);
	list_add_tail(&items[1].node, &head);
	items[0].node.next = &items[2].node; /* a stray write */
	list_add(&items[3].node, &items[0].node);
	exit(0);
}

Test(list, adding_next_to_a_corrupted_entry_is_a_bug)
{
	struct child_result res;

	run_child("list_add_to_a_broken_list", NULL, &res);
	assert_child_bug(&res, "BUG: list_add corruption: next->prev should "
			       "be prev (");
}

CHILD_SCENARIO(list_del_from_a_broken_list)
{
	LIST_HEAD(head);

	list_add_tail(&items[0].node, &head);
	list_add_tail(&items[1].node, &head);
	head.next = &head; /* the head forgot its first entry */
	list_del_init(&items[0].node);
	exit(0);
}

Test(list, deleting_an_entry_its_neighbour_forgot_is_a_bug)
{
	struct child_result res;

	run_child("list_del_from_a_broken_list", NULL, &res);
	assert_child_bug(&res, "BUG: list_del corruption: prev->next should "
			       "be ");
}

Test(list, list_del_init_entries_can_be_deleted_again, .init = number_items)
{
	LIST_HEAD(head);

	list_add(&items[0].node, &head);
	list_del_init(&items[0].node);
	list_del_init(&items[0].node); /* an empty entry: allowed */
	list_add(&items[0].node, &head);
	cr_assert_str_eq(values(&head), "0");
}
