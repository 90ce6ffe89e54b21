/*
 * skb_ops.c - 2.4 code doing one sk_buff operation per call, for the
 * Criterion side, which cannot see the 2.4 types (n24.h).
 */
#include <linux/kernel.h>
#include <linux/skbuff.h>
#include <linux/netdevice.h>
#include <linux/interrupt.h>

#include "n24.h"

void *n24_alloc_skb(unsigned int size)
{
	return alloc_skb(size, GFP_KERNEL);
}

void *n24_dev_alloc_skb(unsigned int size)
{
	return dev_alloc_skb(size);
}

void n24_kfree_skb(void *h)
{
	kfree_skb(h);
}

void n24_free_in_irq(void *h, int how)
{
	irq_enter();
	if (how == 0)
		kfree_skb(h);
	else if (how == 1)
		dev_kfree_skb_irq(h);
	else
		dev_kfree_skb_any(h);
	irq_exit();
}

void n24_put(void *h, unsigned int len)
{
	unsigned char *p = skb_put(h, len);

	memset(p, 'p', len);
}

void n24_push(void *h, unsigned int len)
{
	skb_push(h, len);
}

int n24_pull(void *h, unsigned int len)
{
	return skb_pull(h, len) != NULL;
}

void n24_reserve(void *h, unsigned int len)
{
	skb_reserve(h, len);
}

void n24_trim(void *h, unsigned int len)
{
	skb_trim(h, len);
}

int n24_headroom(void *h)
{
	return skb_headroom(h);
}

int n24_tailroom(void *h)
{
	return skb_tailroom(h);
}

unsigned int n24_len(void *h)
{
	return ((struct sk_buff *) h)->len;
}

unsigned char *n24_data(void *h)
{
	return ((struct sk_buff *) h)->data;
}

unsigned char *n24_head(void *h)
{
	return ((struct sk_buff *) h)->head;
}

void *n24_clone(void *h)
{
	return skb_clone(h, GFP_ATOMIC);
}

void *n24_copy(void *h)
{
	return skb_copy(h, GFP_ATOMIC);
}

void *n24_get(void *h)
{
	return skb_get(h);
}

int n24_users(void *h)
{
	return atomic_read(&((struct sk_buff *) h)->users);
}

int n24_shared(void *h)
{
	return skb_shared(h);
}

int n24_cloned(void *h)
{
	return skb_cloned(h);
}

static struct sk_buff_head queue;

void n24_q_init(void)
{
	skb_queue_head_init(&queue);
}

void n24_q_tail(void *h, int how)
{
	if (how == N24_UNLOCKED)
		__skb_queue_tail(&queue, h);
	else
		skb_queue_tail(&queue, h);
}

void n24_q_head(void *h, int how)
{
	if (how == N24_UNLOCKED)
		__skb_queue_head(&queue, h);
	else
		skb_queue_head(&queue, h);
}

void *n24_q_dequeue(int how)
{
	return how == N24_UNLOCKED ? __skb_dequeue(&queue) :
				     skb_dequeue(&queue);
}

void *n24_q_dequeue_tail(int how)
{
	return how == N24_UNLOCKED ? __skb_dequeue_tail(&queue) :
				     skb_dequeue_tail(&queue);
}

void *n24_q_peek(void)
{
	return skb_peek(&queue);
}

unsigned int n24_q_len(void)
{
	return skb_queue_len(&queue);
}

int n24_q_empty(void)
{
	return skb_queue_empty(&queue);
}

void n24_q_unlink(void *h)
{
	skb_unlink(h);
}

void n24_q_purge(void)
{
	skb_queue_purge(&queue);
}

int n24_on_queue(void *h)
{
	return ((struct sk_buff *) h)->list == &queue;
}

/* the buffer a module forgets: its owner is this function */
void *n24_leak(void)
{
	struct sk_buff *skb = alloc_skb(32, GFP_KERNEL);

	if (skb)
		skb_put(skb, 8);
	return skb;
}
