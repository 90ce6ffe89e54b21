/*
 * list_debug.c - what CONFIG_DEBUG_LIST reports (linux/list.h checks).
 *
 * A list operation whose neighbours do not point at each other would
 * corrupt the list, or already found it corrupted: a BUG naming the
 * function the operation is in (it is inlined there), the entry and what
 * was wrong, before anything is written.
 */
#include "shim.h"
#include <linux/list.h>

static __attribute__((noreturn)) void list_bug(const char *what, void *ip)
{
	char where[128];

	printk(KERN_EMERG "BUG: %s, in %s by %s/%d\n", what,
	       shim_symbol_caller(ip, where, sizeof(where)), current->comm,
	       current->pid);
	BUG();
}

void __list_add_corrupt(struct list_head *new, struct list_head *prev,
			struct list_head *next)
{
	char what[192];

	if (new == prev || new == next)
		snprintf(what, sizeof(what),
			 "list_add double add: new=%p, prev=%p, next=%p "
			 "(the entry is on this list already)",
			 (void *) new, (void *) prev, (void *) next);
	else if (next->prev != prev)
		snprintf(what, sizeof(what),
			 "list_add corruption: next->prev should be prev (%p), "
			 "but was %p (next=%p)",
			 (void *) prev, (void *) next->prev, (void *) next);
	else
		snprintf(what, sizeof(what),
			 "list_add corruption: prev->next should be next (%p), "
			 "but was %p (prev=%p)",
			 (void *) next, (void *) prev->next, (void *) prev);
	list_bug(what, __builtin_return_address(0));
}

void __list_del_corrupt(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;
	char what[192];

	if (next == LIST_POISON1 || prev == LIST_POISON2)
		snprintf(what, sizeof(what),
			 "list_del corruption: %p->%s is LIST_POISON%d (the "
			 "entry was deleted already)",
			 (void *) entry, next == LIST_POISON1 ? "next" : "prev",
			 next == LIST_POISON1 ? 1 : 2);
	else if (!next || !prev)
		snprintf(what, sizeof(what),
			 "list_del corruption: %p->%s is NULL (the entry was "
			 "never added to a list)",
			 (void *) entry, !next ? "next" : "prev");
	else {
		int bad_prev = prev->next != entry;
		struct list_head *nb = bad_prev ? prev : next;

		snprintf(what, sizeof(what),
			 "list_del corruption: %s should be %p, but was %p "
			 "(%s=%p)",
			 bad_prev ? "prev->next" : "next->prev", (void *) entry,
			 (void *) (bad_prev ? nb->next : nb->prev),
			 bad_prev ? "prev" : "next", (void *) nb);
	}
	list_bug(what, __builtin_return_address(0));
}
