#ifndef _ASM_BITOPS_H
#define _ASM_BITOPS_H

#include <asm/system.h>
#include <shim/point.h>

/*
 * Atomic bit operations on arrays of unsigned long.  The test_and_ forms
 * are fully ordered, like the kernel's locked instructions: code such as
 * queue_work relies on that.
 */
#define BITS_PER_LONG (8 * (int) sizeof(unsigned long))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))

static inline void set_bit(int nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_SEQ_CST);
}

static inline void clear_bit(int nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
			   __ATOMIC_SEQ_CST);
}

static inline void change_bit(int nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_SEQ_CST);
}

/* Who wins a test-and-modify decides ownership: a scheduling point. */
static inline int test_and_set_bit(int nr, volatile unsigned long *addr)
{
	shim_point(SHIM_POINT_BITOP);
	return (__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) &
		BIT_MASK(nr)) != 0;
}

static inline int test_and_clear_bit(int nr, volatile unsigned long *addr)
{
	shim_point(SHIM_POINT_BITOP);
	return (__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
				   __ATOMIC_SEQ_CST) &
		BIT_MASK(nr)) != 0;
}

static inline int test_and_change_bit(int nr, volatile unsigned long *addr)
{
	shim_point(SHIM_POINT_BITOP);
	return (__atomic_fetch_xor(addr + BIT_WORD(nr), BIT_MASK(nr),
				   __ATOMIC_SEQ_CST) &
		BIT_MASK(nr)) != 0;
}

/* Not a point, but a loop of them alone may be a busy wait (point.h). */
static inline int test_bit(int nr, const volatile unsigned long *addr)
{
	shim_poll(addr + BIT_WORD(nr), nr % BITS_PER_LONG);
	return (__atomic_load_n(addr + BIT_WORD(nr), __ATOMIC_RELAXED) &
		BIT_MASK(nr)) != 0;
}

/* Non-atomic variants, for data nobody else can see yet. */
static inline void __set_bit(int nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(int nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/*
 * Order clear_bit() against what comes before or after it, as a full
 * barrier.  The atomic bitops are locked instructions on x86, which are
 * full barriers already: there, as in the kernel, these only keep the
 * compiler from moving accesses across.
 */
#if defined(__x86_64__) || defined(__i386__)
#define smp_mb__before_clear_bit() barrier()
#define smp_mb__after_clear_bit() barrier()
#else
#define smp_mb__before_clear_bit() mb()
#define smp_mb__after_clear_bit() mb()
#endif

#endif /* _ASM_BITOPS_H */
