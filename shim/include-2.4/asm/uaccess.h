/*
 * asm/uaccess.h - user memory, as 2.4 drivers reach it.
 *
 * The sandbox has one address space: "user" memory is host memory the
 * caller (a scenario) owns.  As on a PC, the first page is never mapped:
 * a copy from or to it faults, which copy_*_user() report by the bytes
 * not copied and get_user()/put_user() by -EFAULT, as 2.4's fixups did.
 * So does an address past the host's user half, as one past 2.4's user
 * segment did: a word of seeded memory a driver takes for a pointer
 * (world/user.h) is refused, not followed, and the world, when it
 * listens, is told where the copy was from (a search learns that word
 * is a pointer).  access_ok() and verify_area() check only the range,
 * as 2.4's did.
 */
#ifndef _ASM24_UACCESS_H
#define _ASM24_UACCESS_H

#include <linux/sched.h>
#include <linux/errno.h>
#include <linux/string.h>

#define VERIFY_READ 0
#define VERIFY_WRITE 1

typedef struct {
	unsigned long seg;
} mm_segment_t;

#define MAKE_MM_SEG(s) ((mm_segment_t){ (s) })
#define KERNEL_DS MAKE_MM_SEG(0xFFFFFFFF)
#define USER_DS MAKE_MM_SEG(0xC0000000)
#define get_ds() (KERNEL_DS)
#define get_fs() (USER_DS)
#define set_fs(x) ((void) (x))
#define segment_eq(a, b) ((a).seg == (b).seg)

#define __shim_user_page 4096UL

#define __shim_user_top (1UL << 47)

extern void sim_user_fault(const void *addr, unsigned long n)
	__attribute__((weak));

static inline int __shim_user_faults(const void *addr, unsigned long n)
{
	unsigned long a = (unsigned long) addr;

	if (!n || (a >= __shim_user_page && a < __shim_user_top &&
		   n <= __shim_user_top - a))
		return 0;
	if (sim_user_fault)
		sim_user_fault(addr, n);
	return 1;
}

#define access_ok(type, addr, size) ((void) (type), 1)

static inline int verify_area(int type, const void *addr, unsigned long size)
{
	return access_ok(type, addr, size) ? 0 : -EFAULT;
}

static inline unsigned long copy_to_user(void *to, const void *from,
					 unsigned long n)
{
	if (__shim_user_faults(to, n))
		return n;
	memcpy(to, from, n);
	return 0;
}

static inline unsigned long copy_from_user(void *to, const void *from,
					   unsigned long n)
{
	if (__shim_user_faults(from, n)) {
		memset(to, 0, n); /* 2.4 zeroed what it could not copy */
		return n;
	}
	memcpy(to, from, n);
	return 0;
}

#define __copy_to_user(to, from, n) copy_to_user((to), (from), (n))
#define __copy_from_user(to, from, n) copy_from_user((to), (from), (n))

/* no copy of *ptr's type: it may be const (get_user(c, p) of a const char *) */
#define get_user(x, ptr)                                                   \
	({                                                                 \
		int __gu_err = __shim_user_faults((ptr), sizeof(*(ptr))) ? \
				       -EFAULT :                           \
				       0;                                  \
		(x) = __gu_err ? 0 : *(ptr);                               \
		__gu_err;                                                  \
	})
#define put_user(x, ptr)                                          \
	({                                                        \
		int __pu_err = -EFAULT;                           \
		if (!__shim_user_faults((ptr), sizeof(*(ptr)))) { \
			*(ptr) = (x);                             \
			__pu_err = 0;                             \
		}                                                 \
		__pu_err;                                         \
	})
#define __get_user(x, ptr) get_user((x), (ptr))
#define __put_user(x, ptr) put_user((x), (ptr))

static inline unsigned long clear_user(void *to, unsigned long n)
{
	if (__shim_user_faults(to, n))
		return n;
	memset(to, 0, n);
	return 0;
}
#define __clear_user(to, n) clear_user((to), (n))

static inline long strncpy_from_user(char *dst, const char *src, long count)
{
	long i;

	if (__shim_user_faults(src, 1))
		return -EFAULT;
	for (i = 0; i < count && src[i]; i++)
		dst[i] = src[i];
	if (i < count)
		dst[i] = 0;
	return i;
}

static inline long strnlen_user(const char *s, long n)
{
	long i;

	if (__shim_user_faults(s, 1))
		return 0;
	for (i = 0; i < n && s[i]; i++)
		;
	return i + 1;
}
#define strlen_user(str) strnlen_user((str), ~0UL >> 1)

#endif /* _ASM24_UACCESS_H */
