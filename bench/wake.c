/*
 * wake.c - wake latency: from just before queueing a work to the start of
 * its routine, when the worker sleeps.
 *
 * Each sample: sleep a random 100..300 us (the worker and the hand-off
 * thread are asleep by then), read CLOCK_MONOTONIC, queue the work; the
 * routine reads the clock first thing and signals back.  Every sample of
 * the stack is paired with one of a bare futex hand-off, in alternating
 * order, measured the same way in the same process: a pthread asleep in
 * FUTEX_WAIT, woken by FUTEX_WAKE, reading the clock first thing.  That is
 * the physical limit of waking a sleeping thread on this machine.
 *
 *   wake variant=... samples=N out=FILE futex_out=FILE
 * prints {"bench":"wake",...,"p50_ns":...,"p99_ns":...,"futex_p50_ns":...}
 */
#include "stack.h"
#include <pthread.h>

static uint64_t queued_at, started_at;
static struct bench_signal routine_done;

static void stamp_routine(void *data)
{
	started_at = bench_now_ns();
	bench_signal_post(&routine_done);
}

/* the bare hand-off: a thread asleep on a futex word */
static uint32_t handoff_word;
static uint64_t handoff_sent, handoff_woke;
static struct bench_signal handoff_done;
static int handoff_stop;

static void *handoff_thread(void *unused)
{
	uint32_t seen = 0; /* main has not woken it yet */

	pthread_setname_np(pthread_self(), "handoff");
	for (;;) {
		while (__atomic_load_n(&handoff_word, __ATOMIC_ACQUIRE) == seen)
			bench_futex_wait(&handoff_word, seen);
		handoff_woke = bench_now_ns();
		seen = __atomic_load_n(&handoff_word, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&handoff_stop, __ATOMIC_ACQUIRE))
			break;
		bench_signal_post(&handoff_done);
	}
	return NULL;
}

static uint64_t sample_stack(bench_work_t *work)
{
	uint32_t seen = bench_signal_read(&routine_done);

	queued_at = bench_now_ns();
	bench_queue(work);
	bench_signal_wait(&routine_done, seen);
	return started_at - queued_at;
}

static uint64_t sample_futex(void)
{
	uint32_t seen = bench_signal_read(&handoff_done);

	handoff_sent = bench_now_ns();
	__atomic_add_fetch(&handoff_word, 1, __ATOMIC_RELEASE);
	bench_futex_wake(&handoff_word, 1);
	bench_signal_wait(&handoff_done, seen);
	return handoff_woke - handoff_sent;
}

int main(int argc, char **argv)
{
	const char *variant =
		bench_arg(argc, argv, "variant", BENCH_DEFAULT_VARIANT);
	long n = bench_arg_long(argc, argv, "samples", 2000);
	struct bench_samples lat, flat;
	static bench_work_t work;
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	pthread_t handoff;
	long i;

	if (bench_setup(variant)) {
		fprintf(stderr,
			"wake: variant %s does not exist on the %s stack\n",
			variant, BENCH_STACK);
		return 2;
	}
	bench_samples_init(&lat, n);
	bench_samples_init(&flat, n);
	bench_init_work(&work, stamp_routine, NULL);
	pthread_create(&handoff, NULL, handoff_thread, NULL);
	/* warm up both paths */
	for (i = 0; i < 20; i++) {
		bench_sleep_ns(100000);
		sample_stack(&work);
		sample_futex();
	}
	for (i = 0; i < n; i++) {
		bench_sleep_ns(100000 + bench_rand(&rng) % 200000);
		if (i & 1) {
			bench_samples_add(&flat, sample_futex());
			bench_sleep_ns(100000 + bench_rand(&rng) % 200000);
			bench_samples_add(&lat, sample_stack(&work));
		} else {
			bench_samples_add(&lat, sample_stack(&work));
			bench_sleep_ns(100000 + bench_rand(&rng) % 200000);
			bench_samples_add(&flat, sample_futex());
		}
	}
	__atomic_store_n(&handoff_stop, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&handoff_word, 1, __ATOMIC_RELEASE);
	bench_futex_wake(&handoff_word, 1);
	pthread_join(handoff, NULL);
	bench_teardown();

	bench_samples_write(&lat, bench_arg(argc, argv, "out", NULL));
	bench_samples_write(&flat, bench_arg(argc, argv, "futex_out", NULL));
	printf("{\"bench\":\"wake\",\"stack\":\"%s\",\"variant\":\"%s\","
	       "\"samples\":%zu,\"p50_ns\":%llu,\"p99_ns\":%llu,"
	       "\"futex_p50_ns\":%llu,\"futex_p99_ns\":%llu}\n",
	       BENCH_STACK, variant, lat.n,
	       (unsigned long long) bench_quantile(&lat, 0.5),
	       (unsigned long long) bench_quantile(&lat, 0.99),
	       (unsigned long long) bench_quantile(&flat, 0.5),
	       (unsigned long long) bench_quantile(&flat, 0.99));
	return 0;
}
