/*
 * stress.c - everything at once, bounded in count: three producers on two
 * queues, a flusher, works that requeue themselves and hop queues.  Every
 * accepted queueing must run exactly once.
 */
#include "works.h"

#define NR_PRODUCERS 3
#define NR_POOL 256	/* works per producer */
#define ATTEMPTS 300000 /* queue_work() calls per producer */
#define HOPS 3		/* times a work requeues itself */

struct stress_work {
	work_t work;
	int id;
	atomic_t accepted; /* queueings that returned 1 */
	atomic_t runs;
	atomic_t hops_left;
};

static struct {
	workqueue_t *wq[2];
	struct stress_work works[NR_PRODUCERS][NR_POOL];
	atomic_t stop_requeue;
	atomic_t producers_done;
	atomic_t flushes;
} stress;

static void stress_fn(void *data)
{
	struct stress_work *sw = data;

	atomic_inc_return(&sw->runs);
	if (atomic_add_return(0, &stress.stop_requeue))
		return;
	/* requeue on the other queue, a few times per queueing */
	if (atomic_dec_return(&sw->hops_left) >= 0 &&
	    queue_work(stress.wq[sw->id & 1 ? 0 : 1], &sw->work))
		atomic_inc_return(&sw->accepted);
}

static void *stress_producer(void *arg)
{
	long p = (long) arg;
	unsigned int seed = 12345 + p;
	int i;

	for (i = 0; i < ATTEMPTS; i++) {
		struct stress_work *sw =
			&stress.works[p][rand_r(&seed) % NR_POOL];
		workqueue_t *wq = stress.wq[rand_r(&seed) & 1];

		atomic_set(&sw->hops_left, HOPS);
		if (queue_work(wq, &sw->work))
			atomic_inc_return(&sw->accepted);
	}
	atomic_inc_return(&stress.producers_done);
	return NULL;
}

static void *stress_flusher(void *arg)
{
	while (atomic_add_return(0, &stress.producers_done) < NR_PRODUCERS) {
		flush_workqueue(stress.wq[0]);
		flush_workqueue(stress.wq[1]);
		atomic_inc_return(&stress.flushes);
	}
	return NULL;
}

Test(workqueue, stress_three_producers_two_queues_flushes_and_requeues)
{
	int threads = shim_kthreads_running();
	long outstanding = shim_kmalloc_outstanding();
	pthread_t producer[NR_PRODUCERS], flusher;
	long p, total_accepted = 0, total_runs = 0;
	int i;

	stress.wq[0] = create_workqueue("stress0");
	stress.wq[1] = create_workqueue("stress1");
	cr_assert(stress.wq[0] && stress.wq[1]);
	for (p = 0; p < NR_PRODUCERS; p++) {
		for (i = 0; i < NR_POOL; i++) {
			struct stress_work *sw = &stress.works[p][i];

			INIT_WORK(&sw->work, stress_fn, sw);
			sw->id = p * NR_POOL + i;
		}
	}
	for (p = 0; p < NR_PRODUCERS; p++)
		start_pinned(&producer[p],
			     nth_online_cpu(p % num_online_cpus()),
			     stress_producer, (void *) p);
	start_pinned(&flusher, nth_online_cpu(0), stress_flusher, NULL);
	for (p = 0; p < NR_PRODUCERS; p++)
		join(producer[p]);
	join(flusher);

	/*
	 * Stop the hopping, then flush both queues twice: a work that hopped
	 * from one to the other while the first round ran is covered by the
	 * second.
	 */
	atomic_add_return(1, &stress.stop_requeue);
	for (i = 0; i < 2; i++) {
		flush_workqueue(stress.wq[0]);
		flush_workqueue(stress.wq[1]);
	}
	for (p = 0; p < NR_PRODUCERS; p++) {
		for (i = 0; i < NR_POOL; i++) {
			struct stress_work *sw = &stress.works[p][i];
			int accepted = atomic_add_return(0, &sw->accepted);

			cr_assert_eq(atomic_add_return(0, &sw->runs), accepted,
				     "work %d: %d accepted queueings, %d runs",
				     sw->id, accepted,
				     atomic_add_return(0, &sw->runs));
			total_accepted += accepted;
			total_runs += atomic_add_return(0, &sw->runs);
		}
	}
	cr_assert_eq(total_runs, total_accepted);
	cr_assert_gt(total_accepted, NR_PRODUCERS * NR_POOL,
		     "hardly anything ran");
	destroy_workqueue(stress.wq[0]);
	destroy_workqueue(stress.wq[1]);
	cr_assert_eq(shim_kmalloc_outstanding(), outstanding);
	wait_kthreads_running(threads);
}
