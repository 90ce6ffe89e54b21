#ifndef _ASM_ATOMIC_H
#define _ASM_ATOMIC_H

#include <asm/system.h>

/* atomic_t, fully ordered where the kernel's returns a value. */
typedef struct {
	volatile int counter;
} atomic_t;

/* clang-format off */
#define ATOMIC_INIT(i)		{ (i) }
/* clang-format on */
#define atomic_read(v) __atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_set(v, i) __atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)

static inline void atomic_add(int i, atomic_t *v)
{
	__atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_sub(int i, atomic_t *v)
{
	__atomic_sub_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_inc(atomic_t *v)
{
	__atomic_add_fetch(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline void atomic_dec(atomic_t *v)
{
	__atomic_sub_fetch(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline int atomic_add_return(int i, atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline int atomic_sub_return(int i, atomic_t *v)
{
	return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

#define atomic_inc_return(v) atomic_add_return(1, (v))
#define atomic_dec_return(v) atomic_sub_return(1, (v))
#define atomic_sub_and_test(i, v) (atomic_sub_return((i), (v)) == 0)
#define atomic_dec_and_test(v) (atomic_sub_return(1, (v)) == 0)
#define atomic_inc_and_test(v) (atomic_add_return(1, (v)) == 0)
#define atomic_add_negative(i, v) (atomic_add_return((i), (v)) < 0)

#define smp_mb__before_atomic_dec() mb()
#define smp_mb__after_atomic_dec() mb()
#define smp_mb__before_atomic_inc() mb()
#define smp_mb__after_atomic_inc() mb()

#endif /* _ASM_ATOMIC_H */
