#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define barrier() __asm__ __volatile__("" : : : "memory")
#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *) &(x))

#define __user
#define __iomem
#define __force
#define __must_check __attribute__((warn_unused_result))
#ifndef __attribute_const__
#define __attribute_const__ __attribute__((__const__))
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define noinline __attribute__((noinline))
#define asmlinkage
#define FASTCALL(x) x
#define fastcall

#endif /* _LINUX_COMPILER_H */
