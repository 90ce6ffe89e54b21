/*
 * asm/bitops.h - the shim's atomic bit operations, and the searches 2.4
 * i386 had besides.  2.4's took void * addresses; the shim's take
 * unsigned long *, to which 2.4 callers' pointers convert.
 */
#ifndef _ASM24_BITOPS_H
#define _ASM24_BITOPS_H

#include_next <asm/bitops.h>

static inline int __test_and_set_bit(int nr, volatile unsigned long *addr)
{
	int old = test_bit(nr, addr);

	__set_bit(nr, addr);
	return old;
}

static inline int __test_and_clear_bit(int nr, volatile unsigned long *addr)
{
	int old = test_bit(nr, addr);

	__clear_bit(nr, addr);
	return old;
}

/* the first zero bit at or after @offset in @size bits, or @size */
static inline int find_next_zero_bit(const void *addr, int size, int offset)
{
	const unsigned char *p = addr;
	int i;

	for (i = offset; i < size; i++)
		if (!(p[i / 8] & (1 << (i % 8))))
			return i;
	return size;
}

static inline int find_first_zero_bit(const void *addr, unsigned size)
{
	return find_next_zero_bit(addr, size, 0);
}

/* the first zero bit of @word (undefined if none) */
static inline unsigned long ffz(unsigned long word)
{
	return __builtin_ctzl(~word);
}

/* the first set bit, from 1; 0 if none */
static inline int ffs(int x)
{
	return __builtin_ffs(x);
}

static inline unsigned int generic_hweight32(unsigned int w)
{
	return __builtin_popcount(w);
}
#define hweight32(x) generic_hweight32(x)
#define hweight16(x) generic_hweight32((x) &0xffff)
#define hweight8(x) generic_hweight32((x) &0xff)

#endif /* _ASM24_BITOPS_H */
