/*
 * linux/init.h - init and exit functions as a 2.4 module build had them.
 *
 * With MODULE defined (every 2.4 build here), module_init(fn) makes
 * init_module an alias of fn and module_exit(fn) cleanup_module an alias
 * of fn, as 2.4 did; a driver may define init_module and cleanup_module
 * itself instead.  The exerciser calls them.  __init and __exit mark
 * nothing: a module kept both.
 */
#ifndef _LINUX24_INIT_H
#define _LINUX24_INIT_H

#include <linux/config.h>
#include_next <linux/init.h>

#ifdef MODULE
#undef module_init
#undef module_exit
#undef __initcall
typedef int (*__init_module_func_t)(void);
typedef void (*__cleanup_module_func_t)(void);
/* the inline checks the type of fn, as 2.4's did */
#define module_init(x)                                                \
	int init_module(void) __attribute__((alias(#x)));             \
	static inline __init_module_func_t __init_module_inline(void) \
	{                                                             \
		return x;                                             \
	}
#define module_exit(x)                                                      \
	void cleanup_module(void) __attribute__((alias(#x)));               \
	static inline __cleanup_module_func_t __cleanup_module_inline(void) \
	{                                                                   \
		return x;                                                   \
	}
#define __initcall(fn)
#define __exitcall(fn)
#endif

extern int init_module(void);
extern void cleanup_module(void);

#define __setup(str, func) /* boot options: none in a module */
#define __devinitdata
#define __devexitdata
#define __INIT
#define __FINIT
#define __INITDATA

#endif /* _LINUX24_INIT_H */
