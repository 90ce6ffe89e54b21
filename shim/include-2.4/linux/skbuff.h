/*
 * linux/skbuff.h - the socket buffer of 2.4.0, as its drivers use it.
 *
 * The layout of 2.4.0 (no paged fragments: data_len and skb_shinfo()
 * came later in 2.4), the data's reference count behind skb->end, the
 * queue operations inline with their irq-safe locks.  The buffers and
 * their debug checks are drivers/net-core/skbuff.c's: a buffer used
 * after it was freed, freed twice, kfree_skb() from a hard interrupt,
 * and buffers still held at module exit, each a one-line diagnostic
 * naming the function and the buffer.
 */
#ifndef _LINUX24_SKBUFF_H
#define _LINUX24_SKBUFF_H

#include <linux/config.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/time.h>
#include <linux/list.h>
#include <asm/atomic.h>
#include <asm/types.h>
#include <asm/hardirq.h>
#include <linux/spinlock.h>

#define HAVE_ALLOC_SKB
#define HAVE_ALIGNABLE_SKB
#define SLAB_SKB

#define CHECKSUM_NONE 0
#define CHECKSUM_HW 1
#define CHECKSUM_UNNECESSARY 2

#define NET_CALLER(arg) __builtin_return_address(0)

/* i386's asm/processor.h had it: the address of the code it stands in */
#ifndef current_text_addr
#if defined(__x86_64__)
#define current_text_addr()                                       \
	({                                                        \
		void *_pc;                                        \
		__asm__ volatile("lea 0(%%rip), %0" : "=r"(_pc)); \
		_pc;                                              \
	})
#else
#define current_text_addr() ((void *) 0)
#endif
#endif

struct sock;
struct net_device;
struct dst_entry;
struct tcphdr;
struct udphdr;
struct icmphdr;
struct igmphdr;
struct iphdr;
struct spxhdr;
struct ipv6hdr;
struct arphdr;
struct ipxhdr;
struct ethhdr;

struct sk_buff_head {
	/* first, as in an sk_buff: the head is the ring's end marker */
	struct sk_buff *next;
	struct sk_buff *prev;

	__u32 qlen;
	spinlock_t lock;
};

struct sk_buff {
	struct sk_buff *next; /* first two: see sk_buff_head */
	struct sk_buff *prev;

	struct sk_buff_head *list; /* the queue it is on */
	struct sock *sk;
	struct timeval stamp;
	struct net_device *dev; /* arrived on, or leaving by */

	union {
		struct tcphdr *th;
		struct udphdr *uh;
		struct icmphdr *icmph;
		struct igmphdr *igmph;
		struct iphdr *ipiph;
		struct spxhdr *spxh;
		unsigned char *raw;
	} h; /* transport header */

	union {
		struct iphdr *iph;
		struct ipv6hdr *ipv6h;
		struct arphdr *arph;
		struct ipxhdr *ipxh;
		unsigned char *raw;
	} nh; /* network header */

	union {
		struct ethhdr *ethernet;
		unsigned char *raw;
	} mac; /* link-layer header */

	struct dst_entry *dst;

	char cb[48]; /* the layer holding it keeps its own state here */

	unsigned int len; /* bytes of data, data to tail */
	unsigned int csum;
	volatile char used;
	unsigned char cloned;	 /* the data may be shared: see skb_cloned() */
	unsigned char pkt_type;	 /* PACKET_HOST, PACKET_BROADCAST ... */
	unsigned char ip_summed; /* CHECKSUM_* */
	__u32 priority;
	atomic_t users;
	unsigned short protocol; /* from the driver, network order */
	unsigned short security;
	unsigned int truesize; /* the data and this structure */

	unsigned char *head; /* the buffer: head <= data <= tail <= end */
	unsigned char *data;
	unsigned char *tail;
	unsigned char *end;
	void (*destructor)(struct sk_buff *);

	/* the sandbox's, past 2.4's: who holds it, for the exit report */
	void *shim_owner; /* where alloc_skb() or skb_clone() was called */
	struct list_head shim_live;
};

#define SK_WMEM_MAX 65535
#define SK_RMEM_MAX 65535

#ifdef __KERNEL__
#include <linux/slab.h>
#include <asm/system.h>

extern struct sk_buff *alloc_skb(unsigned int size, int priority);
extern void __kfree_skb(struct sk_buff *skb);
extern void kfree_skbmem(struct sk_buff *skb);
extern struct sk_buff *skb_clone(struct sk_buff *skb, int priority);
extern struct sk_buff *skb_copy(const struct sk_buff *skb, int priority);
extern struct sk_buff *skb_copy_expand(const struct sk_buff *skb,
				       int newheadroom, int newtailroom,
				       int priority);
extern struct sk_buff *skb_peek_copy(struct sk_buff_head *list);
extern void skb_over_panic(struct sk_buff *skb, int len, void *here);
extern void skb_under_panic(struct sk_buff *skb, int len, void *here);

#define skb_realloc_headroom(skb, nhr) \
	skb_copy_expand((skb), (nhr), skb_tailroom(skb), GFP_ATOMIC)

/*
 * The debug checks.  A freed buffer is poisoned (0x6b in every byte,
 * shim/quarantine.c) and kept a while, so its users count reads 0 (freed
 * through dev_kfree_skb_irq(), not yet reaped) or the poison: either is
 * a buffer used after it was freed, which skb_used_after_free() names.
 */
#define SKB_POISON_USERS 0x6b6b6b6b

/* out of line: each names its caller by where it returns to */
extern void skb_used_after_free(const struct sk_buff *skb, const char *func);
extern void skb_free_in_irq(struct sk_buff *skb);

#define skb_check_live(skb, func)                                        \
	do {                                                             \
		int _users = atomic_read(&(skb)->users);                 \
		if (unlikely(_users <= 0 || _users == SKB_POISON_USERS)) \
			skb_used_after_free((skb), (func));              \
	} while (0)

/* where the data's reference count lives: just past the end */
static inline atomic_t *skb_datarefp(struct sk_buff *skb)
{
	return (atomic_t *) (skb->end);
}

/*
 * A queue's head taken for a buffer, as 2.4 did (the ring's end marker):
 * through an opaque copy, so that the compiler does not take its
 * accesses for ones past the smaller head.
 */
static inline struct sk_buff *__skb_head(struct sk_buff_head *list)
{
	struct sk_buff *p = (struct sk_buff *) list;

	__asm__("" : "+r"(p));
	return p;
}

static inline int skb_queue_empty(struct sk_buff_head *list)
{
	return list->next == (struct sk_buff *) list;
}

static inline struct sk_buff *skb_get(struct sk_buff *skb)
{
	skb_check_live(skb, "skb_get");
	atomic_inc(&skb->users);
	return skb;
}

/*
 * Drop a reference; the last one frees the buffer.  Not from a hard
 * interrupt (dev_kfree_skb_irq() is for that): the debug check says so
 * once per call site, and frees it all the same, as 2.4 did.
 */
static inline __attribute__((always_inline)) void kfree_skb(struct sk_buff *skb)
{
	skb_check_live(skb, "kfree_skb");
	if (unlikely(in_irq()))
		skb_free_in_irq(skb);
	if (atomic_read(&skb->users) == 1 || atomic_dec_and_test(&skb->users))
		__kfree_skb(skb);
}

static inline void kfree_skb_fast(struct sk_buff *skb)
{
	kfree_skb(skb);
}

#define dev_kfree_skb(a) kfree_skb(a)

static inline int skb_cloned(struct sk_buff *skb)
{
	return skb->cloned && atomic_read(skb_datarefp(skb)) != 1;
}

static inline int skb_shared(struct sk_buff *skb)
{
	return atomic_read(&skb->users) != 1;
}

/* a buffer of our own to change: a clone if it is shared */
static inline struct sk_buff *skb_share_check(struct sk_buff *skb, int pri)
{
	if (skb_shared(skb)) {
		struct sk_buff *nskb = skb_clone(skb, pri);

		kfree_skb(skb);
		return nskb;
	}
	return skb;
}

/* data of our own to change: a copy if it is cloned */
static inline struct sk_buff *skb_unshare(struct sk_buff *skb, int pri)
{
	struct sk_buff *nskb;

	if (!skb_cloned(skb))
		return skb;
	nskb = skb_copy(skb, pri);
	kfree_skb(skb);
	return nskb;
}

static inline struct sk_buff *skb_peek(struct sk_buff_head *list_)
{
	struct sk_buff *list = list_->next;

	return list == (struct sk_buff *) list_ ? NULL : list;
}

static inline struct sk_buff *skb_peek_tail(struct sk_buff_head *list_)
{
	struct sk_buff *list = list_->prev;

	return list == (struct sk_buff *) list_ ? NULL : list;
}

static inline __u32 skb_queue_len(struct sk_buff_head *list_)
{
	return list_->qlen;
}

static inline void skb_queue_head_init(struct sk_buff_head *list)
{
	spin_lock_init(&list->lock);
	list->prev = (struct sk_buff *) list;
	list->next = (struct sk_buff *) list;
	list->qlen = 0;
}

/* the __ variants take no lock: the caller holds the queue's, or needs none */
static inline void __skb_queue_head(struct sk_buff_head *list,
				    struct sk_buff *newsk)
{
	struct sk_buff *prev = __skb_head(list), *next = prev->next;

	skb_check_live(newsk, "__skb_queue_head");
	newsk->list = list;
	list->qlen++;
	newsk->next = next;
	newsk->prev = prev;
	next->prev = newsk;
	prev->next = newsk;
}

static inline void skb_queue_head(struct sk_buff_head *list,
				  struct sk_buff *newsk)
{
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	__skb_queue_head(list, newsk);
	spin_unlock_irqrestore(&list->lock, flags);
}

static inline void __skb_queue_tail(struct sk_buff_head *list,
				    struct sk_buff *newsk)
{
	struct sk_buff *next = __skb_head(list), *prev = next->prev;

	skb_check_live(newsk, "__skb_queue_tail");
	newsk->list = list;
	list->qlen++;
	newsk->next = next;
	newsk->prev = prev;
	next->prev = newsk;
	prev->next = newsk;
}

static inline void skb_queue_tail(struct sk_buff_head *list,
				  struct sk_buff *newsk)
{
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	__skb_queue_tail(list, newsk);
	spin_unlock_irqrestore(&list->lock, flags);
}

static inline void __skb_unlink(struct sk_buff *skb, struct sk_buff_head *list)
{
	struct sk_buff *next = skb->next, *prev = skb->prev;

	list->qlen--;
	skb->next = NULL;
	skb->prev = NULL;
	skb->list = NULL;
	next->prev = prev;
	prev->next = next;
}

static inline struct sk_buff *__skb_dequeue(struct sk_buff_head *list)
{
	struct sk_buff *skb = skb_peek(list);

	if (skb)
		__skb_unlink(skb, list);
	return skb;
}

static inline struct sk_buff *skb_dequeue(struct sk_buff_head *list)
{
	unsigned long flags;
	struct sk_buff *result;

	spin_lock_irqsave(&list->lock, flags);
	result = __skb_dequeue(list);
	spin_unlock_irqrestore(&list->lock, flags);
	return result;
}

static inline struct sk_buff *__skb_dequeue_tail(struct sk_buff_head *list)
{
	struct sk_buff *skb = skb_peek_tail(list);

	if (skb)
		__skb_unlink(skb, list);
	return skb;
}

static inline struct sk_buff *skb_dequeue_tail(struct sk_buff_head *list)
{
	unsigned long flags;
	struct sk_buff *result;

	spin_lock_irqsave(&list->lock, flags);
	result = __skb_dequeue_tail(list);
	spin_unlock_irqrestore(&list->lock, flags);
	return result;
}

static inline void __skb_insert(struct sk_buff *newsk, struct sk_buff *prev,
				struct sk_buff *next, struct sk_buff_head *list)
{
	skb_check_live(newsk, "__skb_insert");
	newsk->next = next;
	newsk->prev = prev;
	next->prev = newsk;
	prev->next = newsk;
	newsk->list = list;
	list->qlen++;
}

/* @newsk before @old, on @old's queue */
static inline void skb_insert(struct sk_buff *old, struct sk_buff *newsk)
{
	unsigned long flags;

	spin_lock_irqsave(&old->list->lock, flags);
	__skb_insert(newsk, old->prev, old, old->list);
	spin_unlock_irqrestore(&old->list->lock, flags);
}

static inline void __skb_append(struct sk_buff *old, struct sk_buff *newsk)
{
	__skb_insert(newsk, old, old->next, old->list);
}

/* @newsk after @old, on @old's queue */
static inline void skb_append(struct sk_buff *old, struct sk_buff *newsk)
{
	unsigned long flags;

	spin_lock_irqsave(&old->list->lock, flags);
	__skb_append(old, newsk);
	spin_unlock_irqrestore(&old->list->lock, flags);
}

/* off whatever queue it is on, if it still is */
static inline void skb_unlink(struct sk_buff *skb)
{
	struct sk_buff_head *list = skb->list;

	if (list) {
		unsigned long flags;

		spin_lock_irqsave(&list->lock, flags);
		if (skb->list == list)
			__skb_unlink(skb, skb->list);
		spin_unlock_irqrestore(&list->lock, flags);
	}
}

static inline unsigned char *__skb_put(struct sk_buff *skb, unsigned int len)
{
	unsigned char *tmp = skb->tail;

	skb->tail += len;
	skb->len += len;
	return tmp;
}

/* @len more bytes at the tail; past the end is a BUG (skb_over_panic()) */
static inline __attribute__((always_inline)) unsigned char *
skb_put(struct sk_buff *skb, unsigned int len)
{
	unsigned char *tmp = skb->tail;

	skb_check_live(skb, "skb_put");
	skb->tail += len;
	skb->len += len;
	if (skb->tail > skb->end)
		skb_over_panic(skb, len, current_text_addr());
	return tmp;
}

static inline unsigned char *__skb_push(struct sk_buff *skb, unsigned int len)
{
	skb->data -= len;
	skb->len += len;
	return skb->data;
}

/* @len more bytes at the head; before the head is a BUG */
static inline __attribute__((always_inline)) unsigned char *
skb_push(struct sk_buff *skb, unsigned int len)
{
	skb_check_live(skb, "skb_push");
	skb->data -= len;
	skb->len += len;
	if (skb->data < skb->head)
		skb_under_panic(skb, len, current_text_addr());
	return skb->data;
}

static inline char *__skb_pull(struct sk_buff *skb, unsigned int len)
{
	skb->len -= len;
	return (char *) (skb->data += len);
}

/* @len bytes off the head, or NULL (and nothing taken) if it has fewer */
static inline __attribute__((always_inline)) unsigned char *
skb_pull(struct sk_buff *skb, unsigned int len)
{
	skb_check_live(skb, "skb_pull");
	if (len > skb->len)
		return NULL;
	return (unsigned char *) __skb_pull(skb, len);
}

static inline int skb_headroom(const struct sk_buff *skb)
{
	return skb->data - skb->head;
}

static inline int skb_tailroom(const struct sk_buff *skb)
{
	return skb->end - skb->tail;
}

/* room at the head of an empty buffer: data and tail move on together */
static inline __attribute__((always_inline)) void
skb_reserve(struct sk_buff *skb, unsigned int len)
{
	skb_check_live(skb, "skb_reserve");
	skb->data += len;
	skb->tail += len;
}

static inline void __skb_trim(struct sk_buff *skb, unsigned int len)
{
	skb->len = len;
	skb->tail = skb->data + len;
}

/* down to @len bytes; a buffer already shorter stays as it is */
static inline __attribute__((always_inline)) void skb_trim(struct sk_buff *skb,
							   unsigned int len)
{
	skb_check_live(skb, "skb_trim");
	if (skb->len > len)
		__skb_trim(skb, len);
}

static inline void skb_orphan(struct sk_buff *skb)
{
	if (skb->destructor)
		skb->destructor(skb);
	skb->destructor = NULL;
	skb->sk = NULL;
}

static inline void skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(list)) != NULL)
		kfree_skb(skb);
}

static inline void __skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list)) != NULL)
		kfree_skb(skb);
}

/* for a driver's receive path: atomic, with 16 bytes of headroom */
static inline __attribute__((always_inline)) struct sk_buff *
dev_alloc_skb(unsigned int length)
{
	struct sk_buff *skb = alloc_skb(length + 16, GFP_ATOMIC);

	if (skb)
		skb_reserve(skb, 16);
	return skb;
}

/* @headroom (rounded to 16) at the head, and the data our own */
static inline struct sk_buff *skb_cow(struct sk_buff *skb,
				      unsigned int headroom)
{
	headroom = (headroom + 15) & ~15;
	if ((unsigned int) skb_headroom(skb) < headroom || skb_cloned(skb)) {
		struct sk_buff *skb2 = skb_realloc_headroom(skb, headroom);

		kfree_skb(skb);
		skb = skb2;
	}
	return skb;
}

#define skb_queue_walk(queue, skb)                                   \
	for (skb = (queue)->next; skb != (struct sk_buff *) (queue); \
	     skb = skb->next)

#endif /* __KERNEL__ */
#endif /* _LINUX24_SKBUFF_H */
