/*
 * delayed.c - how late queue_delayed_work() runs a work, real clock mode.
 *
 * SAMPLES works, the i-th with a delay of 1 + i % 20 jiffies (HZ is 1000),
 * are queued one every 0.5..1.5 ms on a workqueue of their own, so that
 * several timers are pending at any time.  Each routine reads jiffies
 * first thing; its lateness is that minus the expiry the work's timer was
 * given (jiffies at queueing + delay): 0 is on time.  The same runs are also
 * measured in host time, as the time from queueing to the routine's start
 * over the delay asked for (can be down to -1 ms: jiffies tick at whole
 * milliseconds, the request comes at any moment within one).
 *
 *   delayed samples=200 out=FILE out_ns=FILE
 * prints {"bench":"delayed",...,"p50_jiffies":...,"p99_jiffies":...}
 */
#include "stack.h"
#include <linux/jiffies.h>

#ifndef BENCH_STACK_WORKQUEUE
#error "delayed measures the workqueue's queue_delayed_work()"
#endif

struct sample {
	struct work_struct work;
	unsigned long expires; /* the jiffy its timer was set for */
	unsigned long ran_jiffies;
	uint64_t queued_ns, ran_ns;
	long delay;
};

#define BIAS (1LL << 40)

/* jiffies at the routine's start minus the expiry its timer was given */
static long lateness_jiffies(struct sample *s)
{
	return (long) (s->ran_jiffies - s->expires);
}

/* host ns from queueing to the start, minus the delay asked for */
static int64_t over_ns(struct sample *s)
{
	return (int64_t) (s->ran_ns - s->queued_ns) -
	       (int64_t) s->delay * 1000000;
}

/* one line a sample: lateness in jiffies, ns over the delay, the delay */
static void write_samples(struct sample *samples, long n, const char *path)
{
	FILE *f;
	long i;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (i = 0; i < n; i++)
		fprintf(f, "%ld %lld %ld\n", lateness_jiffies(&samples[i]),
			(long long) over_ns(&samples[i]), samples[i].delay);
	fclose(f);
}

static long left;
static struct bench_signal all_ran;

static void stamp_routine(void *data)
{
	struct sample *s = data;

	s->ran_jiffies = jiffies;
	s->ran_ns = bench_now_ns();
	if (!__atomic_sub_fetch(&left, 1, __ATOMIC_SEQ_CST))
		bench_signal_post(&all_ran);
}

int main(int argc, char **argv)
{
	long n = bench_arg_long(argc, argv, "samples", 200);
	struct bench_samples late_j, late_ns;
	uint64_t rng = 0x2545f4914f6cdd1dULL;
	struct workqueue_struct *wq;
	struct sample *samples;
	long i, early = 0;
	uint32_t seen;

	samples = calloc(n, sizeof(*samples));
	if (!samples || n < 1)
		return 2;
	bench_samples_init(&late_j, n);
	bench_samples_init(&late_ns, n);
	wq = create_workqueue("delayed");
	if (!wq)
		return 2;
	left = n;
	seen = bench_signal_read(&all_ran);
	for (i = 0; i < n; i++) {
		struct sample *s = &samples[i];

		INIT_WORK(&s->work, stamp_routine, s);
		s->delay = 1 + i % 20;
		bench_sleep_ns(500000 + bench_rand(&rng) % 1000000);
		s->queued_ns = bench_now_ns();
		queue_delayed_work(wq, &s->work, s->delay);
		/* set inside, from the jiffies it read: no tick can fall between */
		s->expires = s->work.timer.expires;
	}
	bench_signal_wait(&all_ran, seen);
	destroy_workqueue(wq);

	for (i = 0; i < n; i++) {
		long lj = lateness_jiffies(&samples[i]);

		if (lj < 0)
			early++;
		/* biased so that the unsigned sort keeps the order */
		bench_samples_add(&late_j, (uint64_t) (lj + BIAS));
		bench_samples_add(&late_ns,
				  (uint64_t) (over_ns(&samples[i]) + BIAS));
	}
	write_samples(samples, n, bench_arg(argc, argv, "out", NULL));
	printf("{\"bench\":\"delayed\",\"stack\":\"%s\",\"samples\":%ld,"
	       "\"p50_jiffies\":%lld,\"p99_jiffies\":%lld,\"max_jiffies\":%lld,"
	       "\"early\":%ld,\"p50_over_ns\":%lld,\"p99_over_ns\":%lld}\n",
	       BENCH_STACK, n,
	       (long long) (bench_quantile(&late_j, 0.5) - BIAS),
	       (long long) (bench_quantile(&late_j, 0.99) - BIAS),
	       (long long) (bench_quantile(&late_j, 1.0) - BIAS), early,
	       (long long) (bench_quantile(&late_ns, 0.5) - BIAS),
	       (long long) (bench_quantile(&late_ns, 0.99) - BIAS));
	return 0;
}
