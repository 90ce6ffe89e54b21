#ifndef _SHIM_STATS_H
#define _SHIM_STATS_H

/*
 * Percentiles, the one way the tree computes them (the scenarios, the
 * demo's monitor, the benchmarks; drivers/runner.py has the Python twin):
 * nearest rank, the sample at index n * p / 100 of the sorted samples.
 * Header only, host side, no shim needed: a benchmark's reference build
 * uses it too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline int shim_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* Sort @v, then its @p-th percentile (0 to 100); 0 if there is no sample. */
static inline uint64_t shim_percentile(uint64_t *v, size_t n, unsigned int p)
{
	size_t i;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), shim_cmp_u64);
	i = n * p / 100;
	return v[i < n ? i : n - 1];
}

#endif /* _SHIM_STATS_H */
