/*
 * stress.h - what the stress programs share: the check tally and the
 * time bound.  Each program ends with "<name>: N passed, N failed".  Their
 * threads are the shim's, so a controlled run (SHIM_SCHED) schedules them.
 */
#ifndef _STRESS_H
#define _STRESS_H

#include <stdio.h>
#include <stdlib.h>

#include <shim/test.h>

static int stress_passed, stress_failed;

#define CHECK(cond, ...)                     \
	do {                                 \
		if (cond) {                  \
			stress_passed++;     \
		} else {                     \
			stress_failed++;     \
			printf("FAIL: ");    \
			printf(__VA_ARGS__); \
			printf("\n");        \
		}                            \
	} while (0)

/* the shim's clock: virtual in a controlled run (SHIM_SCHED) */
static inline double stress_now(void)
{
	return shim_clock_ns() / 1e9;
}

/*
 * How many rounds of @n to run: a controlled run is about the order of
 * events, not their volume, and each of its scheduling points costs a
 * decision, so it runs a twentieth.
 */
static inline int stress_rounds(int n)
{
	return shim_sched_is_controlled() ? (n + 19) / 20 : n;
}

/* Rounds are bounded in count; STRESS_SECONDS bounds them in time too. */
static inline double stress_deadline(double dflt)
{
	const char *s = getenv("STRESS_SECONDS");

	return stress_now() + (s ? atof(s) : dflt);
}

static inline int stress_finish(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, stress_passed,
	       stress_failed);
	return stress_failed != 0;
}

/* tiny per-thread PRNG, so runs do not share state */
static inline unsigned int stress_rand(unsigned int *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

#endif /* _STRESS_H */
