#ifndef _LINUX_INIT_H
#define _LINUX_INIT_H

#include <linux/compiler.h>

#define __init
#define __exit
#define __initdata
#define __exitdata
#define __devinit
#define __devexit

typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

/*
 * As in the kernel, init and exit calls are collected in a section; the
 * host runs them with do_initcalls() and do_exitcalls() once the program
 * (the "boot") has set up what they need.
 */
#define module_init(fn)                   \
	static initcall_t __initcall_##fn \
		__attribute__((section("shim_initcalls"), used)) = fn
#define module_exit(fn)                   \
	static exitcall_t __exitcall_##fn \
		__attribute__((section("shim_exitcalls"), used)) = fn
#define __initcall(fn) module_init(fn)
#define late_initcall(fn) module_init(fn)

extern int do_initcalls(void);
extern void do_exitcalls(void);

/*
 * A boot parameter: the sandbox's command line is its environment, so the
 * value of environment variable @name, or NULL (param.c).
 */
extern const char *shim_boot_param(const char *name);

#endif /* _LINUX_INIT_H */
