/*
 * fault.c - fault injection: the n-th kmalloc, kernel_thread or resource
 * request from now fails (shim/test.h).
 *
 * A resource is what a 2.4 module's init takes and its exit gives back:
 * memory (kmalloc, pages, a cache's objects), I/O and memory regions
 * (request_region, and check_region, which said a region was taken),
 * interrupt lines, character majors and misc minors, DMA channels,
 * kernel threads, a PCI function's decoders.  All kinds count in one
 * sequence, so that a test can fail each request of an init in turn and
 * see every unwinding it has; each fails as 2.4 failed it (NULL, -EBUSY,
 * -ENOMEM, -EAGAIN, -EINVAL), at the call, in the caller's context.
 * What the boot takes before main() is not counted.
 */
#include <stdarg.h>

#include "shim.h"

static unsigned long fail_kmalloc_countdown;
static unsigned long fail_kthread_countdown;
static unsigned long fail_resource_countdown;
static unsigned long fail_queue_countdown; /* create_workqueue()'s requests */
static unsigned long resource_requests;
static unsigned long queue_requests; /* of them, create_workqueue()'s */
static __thread int in_queue_requests;

/* what the last request made to fail was, for shim_resource_failed() */
static struct shim_mutex failed_lock = SHIM_MUTEX_INIT;
/* room for what[] and fn[] below, and " from ()" */
static char failed[128 + 96 + 16];

/* 1 if this counted call is the one chosen to fail */
static int countdown_hits(unsigned long *countdown)
{
	unsigned long n = __atomic_load_n(countdown, __ATOMIC_SEQ_CST);

	while (n) {
		if (__atomic_compare_exchange_n(countdown, &n, n - 1, 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return n == 1;
	}
	return 0;
}

int shim_fault_kmalloc(void)
{
	return countdown_hits(&fail_kmalloc_countdown);
}

int shim_fault_kthread(void)
{
	return countdown_hits(&fail_kthread_countdown);
}

void shim_fail_kmalloc_nth(unsigned long n)
{
	__atomic_store_n(&fail_kmalloc_countdown, n, __ATOMIC_SEQ_CST);
}

void shim_fail_kthread_nth(unsigned long n)
{
	__atomic_store_n(&fail_kthread_countdown, n, __ATOMIC_SEQ_CST);
}

/*
 * Count a request of a resource; 1 if it is the one to fail.  @fmt says
 * what it is ("request_irq(5, \"zbox\")"); @ip, a return address, the
 * caller it is said to be from (NULL: @fmt names it).
 */
int shim_fault_resource(const void *ip, const char *fmt, ...)
{
	char what[128], fn[96], said[sizeof(failed)];
	const char *name;
	va_list ap;
	char *plus;

	if (__atomic_load_n(&shim_booting, __ATOMIC_ACQUIRE))
		return 0;
	__atomic_add_fetch(&resource_requests, 1, __ATOMIC_RELAXED);
	if (in_queue_requests)
		__atomic_add_fetch(&queue_requests, 1, __ATOMIC_RELAXED);
	/* the n-th of the caller's own, or the k-th of the queue's */
	if (!countdown_hits(in_queue_requests ? &fail_queue_countdown :
						&fail_resource_countdown))
		return 0;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	/* the function alone: its offset is not the same on both sides */
	if (ip) {
		name = shim_symbol_caller((void *) ip, fn, sizeof(fn));
		if (name != fn)
			snprintf(fn, sizeof(fn), "%s", name);
		plus = strchr(fn, '+');
		if (plus)
			*plus = 0;
	}
	if (ip)
		snprintf(said, sizeof(said), "%s from %s()", what, fn);
	else
		snprintf(said, sizeof(said), "%s", what);
	shim_mutex_lock_unseen(&failed_lock);
	memcpy(failed, said, sizeof(failed));
	shim_mutex_unlock_unseen(&failed_lock);
	printk(KERN_DEBUG "FAULT_INJECTION: %s fails\n", said);
	return 1;
}

void shim_fail_resource_nth(unsigned long n)
{
	shim_mutex_lock_unseen(&failed_lock);
	failed[0] = 0;
	shim_mutex_unlock_unseen(&failed_lock);
	__atomic_store_n(&fail_resource_countdown, n, __ATOMIC_SEQ_CST);
}

unsigned long shim_resource_requests(void)
{
	return __atomic_load_n(&resource_requests, __ATOMIC_RELAXED);
}

void shim_fail_queue_request_nth(unsigned long k)
{
	shim_mutex_lock_unseen(&failed_lock);
	failed[0] = 0;
	shim_mutex_unlock_unseen(&failed_lock);
	__atomic_store_n(&fail_queue_countdown, k, __ATOMIC_SEQ_CST);
}

void shim_queue_requests_begin(void)
{
	in_queue_requests++;
}

void shim_queue_requests_end(void)
{
	in_queue_requests--;
}

unsigned long shim_queue_requests(void)
{
	return __atomic_load_n(&queue_requests, __ATOMIC_RELAXED);
}

size_t shim_resource_failed(char *buf, size_t len)
{
	size_t n;

	if (!len)
		return 0;
	shim_mutex_lock_unseen(&failed_lock);
	n = snprintf(buf, len, "%s", failed);
	shim_mutex_unlock_unseen(&failed_lock);
	return n < len ? n : len - 1;
}
