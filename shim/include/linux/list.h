#ifndef _LINUX_LIST_H
#define _LINUX_LIST_H

#include <linux/stddef.h>
#include <linux/kernel.h>

/*
 * Circular doubly linked lists, as in the kernel.  Deleted entries are
 * poisoned with addresses that fault in user space, so that a use after
 * list_del() crashes instead of corrupting a neighbour.
 *
 * With the debug checks (CONFIG_DEBUG_LIST's), adding and deleting first
 * check that the neighbours point at each other (or at the entry), so that
 * adding an entry twice, deleting one twice or one that was never added,
 * or using a list something else corrupted is a BUG naming the function
 * and the entry, not a crash somewhere later (lib/list_debug.c).  The
 * checked operations are always inlined, so that the report names the
 * function that called them.
 */
#define LIST_POISON1 ((void *) 0x00100100)
#define LIST_POISON2 ((void *) 0x00200200)

struct list_head {
	struct list_head *next, *prev;
};

/* clang-format off */
#define LIST_HEAD_INIT(name) { &(name), &(name) }
/* clang-format on */
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
#define INIT_LIST_HEAD(ptr)          \
	do {                         \
		(ptr)->next = (ptr); \
		(ptr)->prev = (ptr); \
	} while (0)

extern int shim_debug_checks;
/* they BUG: never returning, they cost the checked paths nothing to call */
extern void __list_add_corrupt(struct list_head *new, struct list_head *prev,
			       struct list_head *next)
	__attribute__((cold, noreturn));
extern void __list_del_corrupt(struct list_head *entry)
	__attribute__((cold, noreturn));

static __always_inline void __list_add(struct list_head *new,
				       struct list_head *prev,
				       struct list_head *next)
{
	if (shim_debug_checks &&
	    unlikely(next->prev != prev || prev->next != next || new == prev ||
		     new == next))
		__list_add_corrupt(new, prev, next);
	next->prev = new;
	new->next = next;
	new->prev = prev;
	prev->next = new;
}

/* add @new right after @head: a stack */
static __always_inline void list_add(struct list_head *new,
				     struct list_head *head)
{
	__list_add(new, head, head->next);
}

/* add @new right before @head: a queue */
static __always_inline void list_add_tail(struct list_head *new,
					  struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	prev->next = next;
}

/* Is @entry linked between two neighbours that point back at it? */
static __always_inline void __list_del_check(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;

	if (shim_debug_checks &&
	    unlikely(next == LIST_POISON1 || prev == LIST_POISON2 || !next ||
		     !prev || prev->next != entry || next->prev != entry))
		__list_del_corrupt(entry);
}

static __always_inline void list_del(struct list_head *entry)
{
	__list_del_check(entry);
	__list_del(entry->prev, entry->next);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

static __always_inline void list_del_init(struct list_head *entry)
{
	__list_del_check(entry);
	__list_del(entry->prev, entry->next);
	INIT_LIST_HEAD(entry);
}

static __always_inline void list_move(struct list_head *list,
				      struct list_head *head)
{
	__list_del_check(list);
	__list_del(list->prev, list->next);
	list_add(list, head);
}

static __always_inline void list_move_tail(struct list_head *list,
					   struct list_head *head)
{
	__list_del_check(list);
	__list_del(list->prev, list->next);
	list_add_tail(list, head);
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

static inline void __list_splice(struct list_head *list, struct list_head *head)
{
	struct list_head *first = list->next;
	struct list_head *last = list->prev;
	struct list_head *at = head->next;

	first->prev = head;
	head->next = first;
	last->next = at;
	at->prev = last;
}

/* join @list to the front of @head */
static inline void list_splice(struct list_head *list, struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head);
}

/* join @list to the front of @head and reinitialise @list */
static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head);
		INIT_LIST_HEAD(list);
	}
}

/* join @list to the back of @head and reinitialise @list */
static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (!list_empty(list)) {
		struct list_head *first = list->next;
		struct list_head *last = list->prev;
		struct list_head *at = head->prev;

		first->prev = at;
		at->next = first;
		last->next = head;
		head->prev = last;
		INIT_LIST_HEAD(list);
	}
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_prev(pos, head) \
	for (pos = (head)->prev; pos != (head); pos = pos->prev)
#define list_for_each_safe(pos, n, head)                       \
	for (pos = (head)->next, n = pos->next; pos != (head); \
	     pos = n, n = pos->next)
#define list_for_each_entry(pos, head, member)                         \
	for (pos = list_entry((head)->next, __typeof__(*pos), member); \
	     &pos->member != (head);                                   \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_safe(pos, n, head, member)                  \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),  \
	    n = list_entry(pos->member.next, __typeof__(*pos), member); \
	     &pos->member != (head);                                    \
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif /* _LINUX_LIST_H */
