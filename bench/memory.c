/*
 * memory.c - what a work, a queue and a worker thread cost in memory.
 *
 * Linked with -Wl,--wrap=shim_kmalloc,--wrap=calloc: every kmalloc the
 * stack makes, and every calloc the shim makes for a task_struct, goes
 * through the counters below, so the bytes a create_workqueue() allocates
 * are counted exactly (payload as asked; the shim adds a header of its own
 * to each kmalloc, reported as the count of allocations).  A worker's
 * thread stack is read with pthread_getattr_np() from a routine running on
 * it; what the threads really keep resident is the VmRSS growth over
 * creating QUEUES queues, per thread.
 *
 *   memory queues=8
 * prints {"bench":"memory",...}
 */
#include "stack.h"
#include <linux/slab.h>
#include <linux/smp.h>
#include <shim/test.h>
#include <pthread.h>

static long kmalloc_bytes, kmalloc_calls, calloc_bytes, calloc_calls;

void *__real_shim_kmalloc(size_t size, unsigned int gfp, const char *caller);
void *__real_calloc(size_t nmemb, size_t size);

void *__wrap_shim_kmalloc(size_t size, unsigned int gfp, const char *caller)
{
	__atomic_add_fetch(&kmalloc_bytes, size, __ATOMIC_RELAXED);
	__atomic_add_fetch(&kmalloc_calls, 1, __ATOMIC_RELAXED);
	return __real_shim_kmalloc(size, gfp, caller);
}

void *__wrap_calloc(size_t nmemb, size_t size)
{
	__atomic_add_fetch(&calloc_bytes, nmemb * size, __ATOMIC_RELAXED);
	__atomic_add_fetch(&calloc_calls, 1, __ATOMIC_RELAXED);
	return __real_calloc(nmemb, size);
}

static size_t stack_size, guard_size;
static struct bench_signal probed;

static void probe_stack(void *data)
{
	pthread_attr_t attr;

	if (!pthread_getattr_np(pthread_self(), &attr)) {
		pthread_attr_getstacksize(&attr, &stack_size);
		pthread_attr_getguardsize(&attr, &guard_size);
		pthread_attr_destroy(&attr);
	}
	bench_signal_post(&probed);
}

static void probe_worker(bench_work_t *work)
{
	uint32_t seen = bench_signal_read(&probed);

	bench_init_work(work, probe_stack, NULL);
	bench_queue(work);
	bench_signal_wait(&probed, seen);
}

int main(int argc, char **argv)
{
	static bench_work_t work;

#ifdef BENCH_STACK_WORKQUEUE
	int nq = bench_arg_long(argc, argv, "queues", 8);
	struct workqueue_struct *wq[64];
	long kb0, kb1, kmb, kmc, cab, cac, outstanding;
	int i, threads;

	if (nq < 1 || nq > 64)
		return 2;
	probe_worker(&work);
	kmb = kmalloc_bytes;
	kmc = kmalloc_calls;
	cab = calloc_bytes;
	cac = calloc_calls;
	outstanding = shim_kmalloc_outstanding();
	kb0 = bench_proc_status_kb("VmRSS");
	for (i = 0; i < nq; i++) {
		char name[11];

		snprintf(name, sizeof(name), "mem%d", i);
		wq[i] = create_workqueue(name);
		if (!wq[i])
			return 2;
	}
	kb1 = bench_proc_status_kb("VmRSS");
	threads = nq * num_online_cpus();
	kmb = kmalloc_bytes - kmb;
	kmc = kmalloc_calls - kmc;
	cab = calloc_bytes - cab;
	cac = calloc_calls - cac;
	outstanding = shim_kmalloc_outstanding() - outstanding;
	for (i = 0; i < nq; i++)
		destroy_workqueue(wq[i]);

	printf("{\"bench\":\"memory\",\"stack\":\"%s\",\"sizeof_work\":%zu,"
	       "\"online_cpus\":%d,\"queues\":%d,"
	       "\"kmalloc_bytes_per_queue\":%.1f,\"kmalloc_calls_per_queue\":%.1f,"
	       "\"task_bytes_per_thread\":%.1f,\"kmalloc_outstanding_per_queue\":%.1f,"
	       "\"thread_stack_bytes\":%zu,\"thread_guard_bytes\":%zu,"
	       "\"rss_kb_per_thread\":%.1f,\"leaked_after_destroy\":%ld}\n",
	       BENCH_STACK, sizeof(struct work_struct), num_online_cpus(), nq,
	       (double) kmb / nq, (double) kmc / nq,
	       cac ? (double) cab / threads : 0.0, (double) outstanding / nq,
	       stack_size, guard_size, (double) (kb1 - kb0) / threads,
	       shim_kmalloc_outstanding());
#else
	probe_worker(&work);
	printf("{\"bench\":\"memory\",\"stack\":\"%s\",\"sizeof_work\":%zu,"
	       "\"sizeof_task_queue\":%zu,\"threads\":1,"
	       "\"thread_stack_bytes\":%zu,\"thread_guard_bytes\":%zu}\n",
	       BENCH_STACK, sizeof(struct tq_struct), sizeof(task_queue),
	       stack_size, guard_size);
#endif
	return 0;
}
