/*
 * skbuff.c - socket buffers as 2.4.0 made them, with a debugging kernel's
 * checks.
 *
 * The head and the data are kmalloc()'d apart, the data with its
 * reference count behind skb->end, so that a clone shares the data and
 * the last reference to it frees it.  kfree() poisons what it takes back
 * and keeps it a while (shim/quarantine.c): a buffer used after it was
 * freed, or freed twice, is a BUG that names the function, its caller and
 * the buffer.  Every live buffer is on one list with the function that
 * made it, so that what a module still holds at its exit is named.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/interrupt.h>

#include "core.h"

static spinlock_t skb_live_lock = SPIN_LOCK_UNLOCKED;
static LIST_HEAD(skb_live);

const char *net_core_function(void *addr, char *buf, size_t len)
{
	char *plus;

	if (!shim_symbol((unsigned long) addr, buf, len)) {
		snprintf(buf, len, "%p", addr);
		return buf;
	}
	plus = strchr(buf, '+');
	if (plus)
		*plus = '\0';
	return buf;
}

static void skb_track(struct sk_buff *skb, void *owner)
{
	unsigned long flags;

	skb->shim_owner = owner;
	spin_lock_irqsave(&skb_live_lock, flags);
	list_add_tail(&skb->shim_live, &skb_live);
	spin_unlock_irqrestore(&skb_live_lock, flags);
}

static void skb_untrack(struct sk_buff *skb)
{
	unsigned long flags;

	spin_lock_irqsave(&skb_live_lock, flags);
	list_del(&skb->shim_live);
	spin_unlock_irqrestore(&skb_live_lock, flags);
}

/*
 * A buffer whose users count is 0 or the poison: freed.  Freeing it is
 * "freed twice"; anything else "used after it was freed".
 */
void skb_used_after_free(const struct sk_buff *skb, const char *func)
{
	char why[192], caller[96];
	int twice = !strcmp(func, "kfree_skb") ||
		    !strcmp(func, "dev_kfree_skb_irq");

	net_core_function(__builtin_return_address(0), caller, sizeof(caller));
	if (!shim_kmem_freed(skb, why, sizeof(why)))
		snprintf(why, sizeof(why), "users %d",
			 atomic_read(&skb->users));
	printk(KERN_EMERG "BUG: %s(%p) from %s(): sk_buff %s (%s)\n", func, skb,
	       caller, twice ? "freed twice" : "used after it was freed", why);
	BUG();
}

/* a hard interrupt's kfree_skb(): said once per call site */
#define IRQ_FREE_SITES 64
static void *irq_free_sites[IRQ_FREE_SITES];

void skb_free_in_irq(struct sk_buff *skb)
{
	void *site = __builtin_return_address(0);
	char caller[96];
	int i;

	net_core_count(irq_frees);
	for (i = 0; i < IRQ_FREE_SITES; i++) {
		void *seen = NULL;

		if (__atomic_compare_exchange_n(&irq_free_sites[i], &seen, site,
						0, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			break;
		if (seen == site)
			return;
	}
	printk(KERN_WARNING "WARNING: kfree_skb(%p) from %s() in a hard "
			    "interrupt: dev_kfree_skb_irq() is for that\n",
	       skb, net_core_function(site, caller, sizeof(caller)));
}

static void skb_headerinit(struct sk_buff *skb)
{
	memset(skb, 0, offsetof(struct sk_buff, head));
	skb->pkt_type = PACKET_HOST;
	skb->destructor = NULL;
}

/*
 * alloc_skb - a buffer of @size bytes of tailroom and no headroom, one
 * user; NULL if memory is short.  From an interrupt, GFP_ATOMIC only.
 */
struct sk_buff *alloc_skb(unsigned int size, int gfp_mask)
{
	struct sk_buff *skb;
	u8 *data;

	if (in_interrupt() && (gfp_mask & __GFP_WAIT)) {
		char caller[96];

		printk(KERN_ERR "alloc_skb called nonatomically from "
				"interrupt %s()\n",
		       net_core_function(__builtin_return_address(0), caller,
					 sizeof(caller)));
		BUG();
	}
	skb = kmalloc(sizeof(*skb), gfp_mask);
	if (!skb)
		return NULL;
	/* as 2.4: rounded to 16, the data's count past the end */
	size = (size + 15) & ~15;
	data = kmalloc(size + sizeof(atomic_t), gfp_mask);
	if (!data) {
		kfree(skb);
		return NULL;
	}
	skb_headerinit(skb);
	skb->truesize = size + sizeof(struct sk_buff);
	skb->head = data;
	skb->data = data;
	skb->tail = data;
	skb->end = data + size;
	skb->len = 0;
	skb->cloned = 0;
	atomic_set(&skb->users, 1);
	atomic_set(skb_datarefp(skb), 1);
	skb_track(skb, __builtin_return_address(0));
	return skb;
}

/* the head, and the data if no clone still shares it */
void kfree_skbmem(struct sk_buff *skb)
{
	if (!skb->cloned || atomic_dec_and_test(skb_datarefp(skb)))
		kfree(skb->head);
	skb_untrack(skb);
	atomic_set(&skb->users, 0);
	kfree(skb);
}

/* the last reference went: off no list, its destructor run, freed */
void __kfree_skb(struct sk_buff *skb)
{
	if (skb->list) {
		char caller[96];

		printk(KERN_EMERG "BUG: kfree_skb(%p) from %s(): sk_buff "
				  "still on a list\n",
		       skb,
		       net_core_function(__builtin_return_address(0), caller,
					 sizeof(caller)));
		BUG();
	}
	if (skb->destructor) {
		if (in_irq())
			printk(KERN_WARNING "Warning: kfree_skb on hard IRQ "
					    "%p\n",
			       __builtin_return_address(0));
		skb->destructor(skb);
	}
	kfree_skbmem(skb);
}

/*
 * skb_clone - a second head on the same data: one user, on no list, no
 * socket's; both are marked cloned and the data counts one more.
 */
struct sk_buff *skb_clone(struct sk_buff *skb, int gfp_mask)
{
	struct sk_buff *n;

	skb_check_live(skb, "skb_clone");
	n = kmalloc(sizeof(*n), gfp_mask);
	if (!n)
		return NULL;
	memcpy(n, skb, sizeof(*n));
	atomic_inc(skb_datarefp(skb));
	skb->cloned = 1;
	n->cloned = 1;
	n->next = n->prev = NULL;
	n->list = NULL;
	n->sk = NULL;
	atomic_set(&n->users, 1);
	n->destructor = NULL;
	skb_track(n, __builtin_return_address(0));
	return n;
}

/* the header fields a copy takes, its pointers moved to the new data */
static void copy_skb_header(struct sk_buff *new, const struct sk_buff *old)
{
	long offset = new->data - old->data;

	new->list = NULL;
	new->sk = NULL;
	new->dev = old->dev;
	new->priority = old->priority;
	new->protocol = old->protocol;
	new->dst = old->dst;
	new->h.raw = old->h.raw ? old->h.raw + offset : NULL;
	new->nh.raw = old->nh.raw ? old->nh.raw + offset : NULL;
	new->mac.raw = old->mac.raw ? old->mac.raw + offset : NULL;
	memcpy(new->cb, old->cb, sizeof(old->cb));
	new->used = old->used;
	atomic_set(&new->users, 1);
	new->pkt_type = old->pkt_type;
	new->stamp = old->stamp;
	new->destructor = NULL;
	new->security = old->security;
}

/* skb_copy - head and data both new, the same headroom; one user */
struct sk_buff *skb_copy(const struct sk_buff *skb, int gfp_mask)
{
	struct sk_buff *n;

	skb_check_live(skb, "skb_copy");
	n = alloc_skb(skb->end - skb->head, gfp_mask);
	if (!n)
		return NULL;
	n->shim_owner = __builtin_return_address(0);
	skb_reserve(n, skb->data - skb->head);
	skb_put(n, skb->len);
	memcpy(n->head, skb->head, skb->end - skb->head);
	n->csum = skb->csum;
	copy_skb_header(n, skb);
	return n;
}

/* skb_copy_expand - a copy of the data with the headroom and tailroom asked */
struct sk_buff *skb_copy_expand(const struct sk_buff *skb, int newheadroom,
				int newtailroom, int gfp_mask)
{
	struct sk_buff *n;

	skb_check_live(skb, "skb_copy_expand");
	n = alloc_skb(newheadroom + skb->len + newtailroom, gfp_mask);
	if (!n)
		return NULL;
	n->shim_owner = __builtin_return_address(0);
	skb_reserve(n, newheadroom);
	skb_put(n, skb->len);
	memcpy(n->data, skb->data, skb->len);
	copy_skb_header(n, skb);
	return n;
}

/* a copy of the first buffer of @list, or NULL */
struct sk_buff *skb_peek_copy(struct sk_buff_head *list)
{
	struct sk_buff *orig, *n = NULL;
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	orig = skb_peek(list);
	if (orig)
		skb_get(orig);
	spin_unlock_irqrestore(&list->lock, flags);
	if (orig) {
		n = skb_copy(orig, GFP_ATOMIC);
		kfree_skb(orig);
	}
	return n;
}

/*
 * Where skb_put() or skb_push() stood: @here, as 2.4 was told it (a
 * return address could be a caller's, past a tail call).
 */
static const char *panic_site(void *here, char *buf, size_t len)
{
	return net_core_function(here, buf, len);
}

/* skb_put() past the end: 2.4's line, then what it means */
void skb_over_panic(struct sk_buff *skb, int sz, void *here)
{
	char caller[96];

	printk(KERN_EMERG "skput:over: %s:%d put:%d dev:%s: skb_put(%p) "
			  "%d bytes past the end of a %d-byte buffer\n",
	       panic_site(here, caller, sizeof(caller)), skb->len, sz,
	       skb->dev ? skb->dev->name : "<NULL>", skb,
	       (int) (skb->tail - skb->end), (int) (skb->end - skb->head));
	BUG();
}

/* skb_push() before the head */
void skb_under_panic(struct sk_buff *skb, int sz, void *here)
{
	char caller[96];

	printk(KERN_EMERG "skput:under: %s:%d put:%d dev:%s: skb_push(%p) "
			  "%d bytes before the head of a %d-byte buffer\n",
	       panic_site(here, caller, sizeof(caller)), skb->len, sz,
	       skb->dev ? skb->dev->name : "<NULL>", skb,
	       (int) (skb->head - skb->data), (int) (skb->end - skb->head));
	BUG();
}

/* the owners of the live buffers, counted by function */
#define HELD_OWNERS 8

long net_core_skbs_held(char *buf, size_t len)
{
	struct {
		char name[64];
		long n;
	} owners[HELD_OWNERS];
	int nr_owners = 0, i;
	unsigned long flags;
	struct list_head *pos;
	size_t used = 0;
	long n = 0;

	spin_lock_irqsave(&skb_live_lock, flags);
	list_for_each(pos, &skb_live) {
		struct sk_buff *skb =
			list_entry(pos, struct sk_buff, shim_live);
		char name[64];

		n++;
		net_core_function(skb->shim_owner, name, sizeof(name));
		for (i = 0; i < nr_owners; i++)
			if (!strcmp(owners[i].name, name))
				break;
		if (i == nr_owners && nr_owners < HELD_OWNERS) {
			strcpy(owners[nr_owners].name, name);
			owners[nr_owners++].n = 0;
		}
		if (i < nr_owners)
			owners[i].n++;
	}
	spin_unlock_irqrestore(&skb_live_lock, flags);
	if (buf && len) {
		buf[0] = '\0';
		for (i = 0; i < nr_owners && used < len; i++)
			used += snprintf(buf + used, len - used,
					 "%s%ld from %s()", i ? ", " : "",
					 owners[i].n, owners[i].name);
	}
	return n;
}

long net_core_check_held(const char *when)
{
	char owners[512];
	long n = net_core_skbs_held(owners, sizeof(owners));

	if (n)
		printk(KERN_WARNING "net-core: %ld sk_buff(s) still held at "
				    "%s: %s\n",
		       n, when, owners);
	return n;
}

/* the program's end is the last module's exit */
static void __attribute__((destructor)) skb_report_held(void)
{
	if (shim_debug_enabled())
		net_core_check_held("exit");
}
