/*
 * bench.h - host-side helpers shared by the benchmark programs.
 *
 * Every benchmark program is one round of one variant: it measures, prints
 * one JSON object on a line of stdout, and may write its raw samples (one
 * number a line) to a file; bench/run interleaves the rounds and variants
 * and bench/report.py aggregates them.  This header uses only the C
 * library and raw futexes, so it mixes with the shim's kernel headers and
 * with liburcu's alike.
 */
#ifndef _BENCH_BENCH_H
#define _BENCH_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

/* linux/futex.h would pull the shim's linux/types.h: spell them out */
#define BENCH_FUTEX_WAIT (0 | 128) /* FUTEX_WAIT | FUTEX_PRIVATE_FLAG */
#define BENCH_FUTEX_WAKE (1 | 128)

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* CPU time of every thread of the process, in ns; context switches too. */
static inline uint64_t bench_process_cpu_ns(long *switches)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	if (switches)
		*switches = ru.ru_nvcsw + ru.ru_nivcsw;
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

static inline void bench_futex_wait(uint32_t *word, uint32_t val)
{
	syscall(SYS_futex, word, BENCH_FUTEX_WAIT, val, NULL, NULL, 0);
}

static inline void bench_futex_wake(uint32_t *word, int nr)
{
	syscall(SYS_futex, word, BENCH_FUTEX_WAKE, nr, NULL, NULL, 0);
}

/*
 * A one-shot-at-a-time signal: post() bumps the sequence and wakes; the
 * waiter sleeps until the sequence moves past what it read before asking
 * for the event.  Cheap enough to tell "done" in every benchmark.
 */
struct bench_signal {
	uint32_t seq;
	uint32_t waiters;
};

static inline uint32_t bench_signal_read(struct bench_signal *s)
{
	return __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
}

static inline void bench_signal_post(struct bench_signal *s)
{
	__atomic_add_fetch(&s->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&s->waiters, __ATOMIC_SEQ_CST))
		bench_futex_wake(&s->seq, 1 << 30);
}

static inline void bench_signal_wait(struct bench_signal *s, uint32_t seen)
{
	__atomic_add_fetch(&s->waiters, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&s->seq, __ATOMIC_SEQ_CST) == seen)
		bench_futex_wait(&s->seq, seen);
	__atomic_sub_fetch(&s->waiters, 1, __ATOMIC_SEQ_CST);
}

static inline void bench_sleep_ns(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	while (nanosleep(&ts, &ts))
		;
}

/* Sleep until CLOCK_MONOTONIC reaches @at (ns). */
static inline void bench_sleep_until(uint64_t at)
{
	struct timespec ts = { at / 1000000000ULL, at % 1000000000ULL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

/* A small xorshift generator: the same sequence in every variant. */
static inline uint32_t bench_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return (uint32_t) (x >> 16);
}

/* A field of /proc/self/status in kB (VmHWM, VmRSS), or -1. */
static inline long bench_proc_status_kb(const char *field)
{
	char line[256];
	size_t len = strlen(field);
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, len) && line[len] == ':') {
			kb = strtol(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return kb;
}

/* Latency samples, in nanoseconds. */
struct bench_samples {
	uint64_t *v;
	size_t n, cap;
};

static inline void bench_samples_init(struct bench_samples *s, size_t cap)
{
	s->v = calloc(cap ? cap : 1, sizeof(*s->v));
	s->n = 0;
	s->cap = cap;
	if (!s->v) {
		perror("bench: calloc");
		exit(2);
	}
}

static inline void bench_samples_add(struct bench_samples *s, uint64_t ns)
{
	if (s->n < s->cap)
		s->v[s->n++] = ns;
}

static int bench_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* The @q quantile (0..1) of the samples, nearest rank; sorts them. */
static inline uint64_t bench_quantile(struct bench_samples *s, double q)
{
	size_t i;

	if (!s->n)
		return 0;
	qsort(s->v, s->n, sizeof(*s->v), bench_cmp_u64);
	i = (size_t) (q * (s->n - 1) + 0.5);
	return s->v[i];
}

/* Write the samples, one a line, to @path (if given). */
static inline void bench_samples_write(struct bench_samples *s,
				       const char *path)
{
	FILE *f;
	size_t i;

	if (!path || !*path)
		return;
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	for (i = 0; i < s->n; i++)
		fprintf(f, "%llu\n", (unsigned long long) s->v[i]);
	fclose(f);
}

/* Median of a small array of doubles (sorts it). */
static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

static inline double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Command line: NAME=VALUE words, looked up by name. */
static inline const char *bench_arg(int argc, char **argv, const char *name,
				    const char *def)
{
	size_t len = strlen(name);
	int i;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], name, len) && argv[i][len] == '=')
			return argv[i] + len + 1;
	return def;
}

static inline long bench_arg_long(int argc, char **argv, const char *name,
				  long def)
{
	const char *s = bench_arg(argc, argv, name, NULL);

	return s ? strtol(s, NULL, 10) : def;
}

static inline double bench_arg_double(int argc, char **argv, const char *name,
				      double def)
{
	const char *s = bench_arg(argc, argv, name, NULL);

	return s ? strtod(s, NULL) : def;
}

#endif /* _BENCH_BENCH_H */
