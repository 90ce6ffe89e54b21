/*
 * n24.h - what the 2.4 side of these tests (kernel/, built on the 2.4
 * headers and the network core) offers the Criterion side (built on the
 * C library's): sk_buffs by handle, a network driver over no hardware.
 */
#ifndef _TESTS_N24_H
#define _TESTS_N24_H

/* kernel/skb_ops.c: one sk_buff operation each, on an opaque handle */
void *n24_alloc_skb(unsigned int size);
void *n24_dev_alloc_skb(unsigned int size);
void n24_kfree_skb(void *h);
/* kfree_skb(), dev_kfree_skb_irq() or dev_kfree_skb_any() in a hard irq */
void n24_free_in_irq(void *h, int how);
void n24_put(void *h, unsigned int len);
void n24_push(void *h, unsigned int len);
int n24_pull(void *h, unsigned int len); /* 1 if skb_pull() gave data */
void n24_reserve(void *h, unsigned int len);
void n24_trim(void *h, unsigned int len);
int n24_headroom(void *h);
int n24_tailroom(void *h);
unsigned int n24_len(void *h);
unsigned char *n24_data(void *h);
unsigned char *n24_head(void *h);
void *n24_clone(void *h);
void *n24_copy(void *h);
void *n24_get(void *h);
int n24_users(void *h);
int n24_shared(void *h);
int n24_cloned(void *h);

/* one queue of the tests' (skb_queue_head_init() in n24_q_init()) */
#define N24_LOCKED 0
#define N24_UNLOCKED 1 /* the __ variants */
void n24_q_init(void);
void n24_q_tail(void *h, int how);
void n24_q_head(void *h, int how);
void *n24_q_dequeue(int how);
void *n24_q_dequeue_tail(int how);
void *n24_q_peek(void);
unsigned int n24_q_len(void);
int n24_q_empty(void);
void n24_q_unlink(void *h);
void n24_q_purge(void);
int n24_on_queue(void *h);

/* a module leaving a buffer behind, and the check at its exit */
void *n24_leak(void);

/* kernel/fake_net.c: a network driver, "fknet", over no hardware */
#define FN_DEVS 4

/* what hard_start_xmit() does with a frame */
#define FN_TAKE 0	   /* sends it at once */
#define FN_TAKE_AND_STOP 1 /* takes it, then its ring is full */
#define FN_BUSY 2	   /* refuses it: 1, and the queue stopped */

struct fn_stats {
	int opens, stops, xmits, timeouts, refused;
	unsigned long tx_bytes;
	char tx_log[128]; /* the payloads sent, in order, each with a ';' */
};

/* a device named @pattern ("eth%d", "isdn%d" or a plain name) */
int fn_register(int i, const char *pattern, int watchdog_timeo);
void fn_unregister(int i);
const char *fn_name(int i);
int fn_lookup(const char *name); /* its index, or -1 */
int fn_open(int i);		 /* ifconfig up */
int fn_close(int i);
int fn_running(int i);
int fn_queue_stopped(int i);
void fn_mode(int i, int mode);
void fn_wake(int i);  /* the transmitter is free: netif_wake_queue() */
void fn_start(int i); /* netif_start_queue() */
void fn_qdisc_reset(int i);
void fn_carrier(int i, int on);
void fn_stats(int i, struct fn_stats *st);
int fn_refcnt(int i);
/* a frame with @payload from the wire, in a hard interrupt: netif_rx() */
int fn_rx(int i, const char *payload);
/* @n frames in one interrupt ("f0", "f1" ...): how many were dropped */
int fn_rx_burst(int i, int n);
/* a frame for the wire: dev_queue_xmit()'s result */
int fn_xmit(int i, const char *payload);
/* netdev_max_backlog, for a test to fill the backlog */
void fn_set_backlog(int max);

/* the receive hook: "name:proto:type:payload;" per frame, in order */
void fn_hook_install(void);
void fn_hook_remove(void);
const char *fn_received(void);
int fn_received_count(void);
void fn_received_clear(void);

#endif /* _TESTS_N24_H */
