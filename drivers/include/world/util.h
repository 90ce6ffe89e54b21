/*
 * world/util.h - what the simulated world and the scenarios share: a
 * seeded generator and an order-sensitive digest.  Inline and free of any
 * deferred-work API, so that kernel-style code on either stack may use it.
 */
#ifndef _WORLD_UTIL_H
#define _WORLD_UTIL_H

#include <linux/types.h>

/* xorshift64*: small, fast, and the same sequence on every host */
static inline u64 world_prng_seed(u64 seed)
{
	u64 s = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;

	return s ? s : 0x2545F4914F6CDD1DULL;
}

static inline u64 world_prng_next(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/*
 * @len bytes, each the low byte of the next draw: what a loop of
 * world_prng_next() storing into @buf writes, but with the state in a
 * register (a byte stored through a pointer may alias *@state, which
 * made such a loop load and store it at every byte).
 */
static inline void world_prng_fill(u64 *state, unsigned char *buf, size_t len)
{
	u64 s = *state;
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char) world_prng_next(&s);
	*state = s;
}

/* uniform enough in [0, n) for the sizes used here */
static inline u32 world_prng_below(u64 *state, u32 n)
{
	return n ? (u32) ((world_prng_next(state) >> 32) % n) : 0;
}

/* FNV-1a, 64 bits: the digest of a byte stream, in order */
#define WORLD_DIGEST_INIT 0xcbf29ce484222325ULL

static inline u64 world_digest(u64 h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static inline u64 world_digest_u64(u64 h, u64 v)
{
	return world_digest(h, &v, sizeof(v));
}

/* a 64-bit mix, for order-independent digests of sets (sum of mixes) */
static inline u64 world_mix64(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif /* _WORLD_UTIL_H */
