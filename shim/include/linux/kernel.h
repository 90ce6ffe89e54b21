#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <stdarg.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/string.h> /* 2.5 code finds strcpy and friends through here */

#define KERN_EMERG "<0>"   /* system is unusable */
#define KERN_ALERT "<1>"   /* action must be taken immediately */
#define KERN_CRIT "<2>"	   /* critical conditions */
#define KERN_ERR "<3>"	   /* error conditions */
#define KERN_WARNING "<4>" /* warning conditions */
#define KERN_NOTICE "<5>"  /* normal but significant condition */
#define KERN_INFO "<6>"	   /* informational */
#define KERN_DEBUG "<7>"   /* debug-level messages */

#ifndef INT_MAX
#define INT_MAX ((int) (~0U >> 1))
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX (~0U)
#define LONG_MAX ((long) (~0UL >> 1))
#define LONG_MIN (-LONG_MAX - 1)
#define ULONG_MAX (~0UL)
#endif

/*
 * The kernel's own formatting and parsing (lib/vsprintf.c); the formats
 * are the C library's, whose functions these are, but for simple_strto*.
 */
extern int sprintf(char *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
extern int vsprintf(char *buf, const char *fmt, va_list args);
extern int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
extern int sscanf(const char *buf, const char *fmt, ...)
	__attribute__((format(scanf, 2, 3)));
extern unsigned long simple_strtoul(const char *cp, char **endp,
				    unsigned int base);
extern long simple_strtol(const char *cp, char **endp, unsigned int base);

extern int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int vprintk(const char *fmt, va_list args);
extern void panic(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

struct completion;
/* A kernel thread's last act: signal @comp and exit, counted as gone. */
extern void complete_and_exit(struct completion *comp, long code)
	__attribute__((noreturn));

extern void shim_bug(const char *file, int line, const char *func)
	__attribute__((noreturn));
extern void shim_warn(const char *file, int line, const char *func,
		      const char *cond);

#define BUG() shim_bug(__FILE__, __LINE__, __func__)
#define BUG_ON(cond)                \
	do {                        \
		if (unlikely(cond)) \
			BUG();      \
	} while (0)
#define WARN_ON(cond)                                                   \
	({                                                              \
		int __ret_warn_on = !!(cond);                           \
		if (unlikely(__ret_warn_on))                            \
			shim_warn(__FILE__, __LINE__, __func__, #cond); \
		unlikely(__ret_warn_on);                                \
	})

/*
 * The debug checks (CONFIG_DEBUG_SPINLOCK, _SLAB, _LIST, debugobjects):
 * on unless the program runs with SHIM_DEBUG=0, tested where a check
 * would cost more than this load.
 */
extern int shim_debug_checks;

/* Sleeping is allowed here only in process context, outside any lock. */
extern void __might_sleep(const char *func);
#define might_sleep() __might_sleep(__func__)

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

#define container_of(ptr, type, member)                                 \
	({                                                              \
		const __typeof__(((type *) 0)->member) *__mptr = (ptr); \
		(type *) ((char *) __mptr - offsetof(type, member));    \
	})

/* Type-checking min/max, as in the kernel: mixing types is a warning. */
#define min(x, y)                       \
	({                              \
		__typeof__(x) _x = (x); \
		__typeof__(y) _y = (y); \
		(void) (&_x == &_y);    \
		_x < _y ? _x : _y;      \
	})
#define max(x, y)                       \
	({                              \
		__typeof__(x) _x = (x); \
		__typeof__(y) _y = (y); \
		(void) (&_x == &_y);    \
		_x > _y ? _x : _y;      \
	})
#define min_t(type, x, y)              \
	({                             \
		type __x = (x);        \
		type __y = (y);        \
		__x < __y ? __x : __y; \
	})
#define max_t(type, x, y)              \
	({                             \
		type __x = (x);        \
		type __y = (y);        \
		__x > __y ? __x : __y; \
	})

#endif /* _LINUX_KERNEL_H */
