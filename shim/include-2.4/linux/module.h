/*
 * linux/module.h - a 2.4 module: its use count, parameters and tags.
 *
 * The sandbox links one module per program, so THIS_MODULE is the one
 * struct module of the program, with 2.4's use count; MOD_IN_USE reads it.
 * MODULE_PARM() records the parameter for the host (<shim/modparam.h>),
 * which sets it from SHIM_MODPARAMS before init_module(), as insmod did.
 */
#ifndef _LINUX24_MODULE_H
#define _LINUX24_MODULE_H

#include <linux/config.h>
#include_next <linux/module.h>
#include <linux/init.h>
#include <asm/atomic.h>
#include <shim/modparam.h>

struct module {
	unsigned long size_of_struct; /* == sizeof(module) */
	struct module *next;
	const char *name;
	unsigned long size;
	union {
		atomic_t usecount;
		long pad;
	} uc;
	unsigned long flags; /* MOD_* */
	unsigned nsyms;
	unsigned ndeps;
	int (*init)(void);
	void (*cleanup)(void);
	int (*can_unload)(void);
};

#define MOD_UNINITIALIZED 0
#define MOD_RUNNING 1
#define MOD_DELETED 2
#define MOD_AUTOCLEAN 4
#define MOD_VISITED 8
#define MOD_USED_ONCE 16
#define MOD_JUST_FREED 32
#define MOD_INITIALIZING 64

/* the program's module: one definition, whichever object brings it */
__attribute__((weak)) struct module __this_module = {
	.size_of_struct = sizeof(struct module),
	.name = "module",
	.flags = MOD_RUNNING,
};

#undef THIS_MODULE
#undef MOD_INC_USE_COUNT
#undef MOD_DEC_USE_COUNT
#define THIS_MODULE (&__this_module)

/*
 * The count is an atomic_t, as 2.4's was.  2.4 set the flags beside it
 * with a plain |=, which two CPUs counting at once could race on (bits
 * only ever set, read by nothing but rmmod's autoclean); here they are
 * set atomically, so that a race the race check reports is the driver's
 * and not this macro's, which every driver shares.
 */
#define GET_USE_COUNT(module) (atomic_read(&(module)->uc.usecount))
#define __MOD_INC_USE_COUNT(mod)          \
	(atomic_inc(&(mod)->uc.usecount), \
	 __mod_set_flags((mod), MOD_VISITED | MOD_USED_ONCE))
#define __MOD_DEC_USE_COUNT(mod) \
	(atomic_dec(&(mod)->uc.usecount), __mod_set_flags((mod), MOD_VISITED))
#define __mod_set_flags(mod, f) \
	((void) __atomic_or_fetch(&(mod)->flags, (f), __ATOMIC_RELAXED))
#define __MOD_IN_USE(mod)                                             \
	(mod_member_present((mod), can_unload) && (mod)->can_unload ? \
		 (mod)->can_unload() :                                \
		 atomic_read(&(mod)->uc.usecount))
#define mod_member_present(mod, member)                           \
	((unsigned long) (&((struct module *) 0L)->member + 1) <= \
	 (mod)->size_of_struct)

#define MOD_INC_USE_COUNT __MOD_INC_USE_COUNT(THIS_MODULE)
#define MOD_DEC_USE_COUNT __MOD_DEC_USE_COUNT(THIS_MODULE)
#define MOD_IN_USE __MOD_IN_USE(THIS_MODULE)

#define __MODULE_STRING_1(x) #x
#define __MODULE_STRING(x) __MODULE_STRING_1(x)

/* MODULE_PARM(var, "1-4i"): a parameter insmod (here SHIM_MODPARAMS) sets */
#define MODULE_PARM(var, type)                                     \
	static const struct shim_modparam __modparam_##var = {     \
		#var, type, (void *) &(var), sizeof(var)           \
	};                                                         \
	static const struct shim_modparam *__modparam_ptr_##var    \
		__attribute__((section("shim_modparams"), used)) = \
			&__modparam_##var
#define MODULE_PARM_DESC(var, desc) __MODULE_INFO(parm_desc_##var, desc)
#define MODULE_SUPPORTED_DEVICE(dev) __MODULE_INFO(device, dev)
#define MODULE_GENERIC_TABLE(gtype, name)
#define MODULE_DEVICE_TABLE(type, name)

/* 2.4 modules export all their globals unless they say so */
#define EXPORT_NO_SYMBOLS
#define EXPORT_SYMBOL_NOVERS(var) EXPORT_SYMBOL(var)

#define SET_MODULE_OWNER(some_struct)               \
	do {                                        \
		(some_struct)->owner = THIS_MODULE; \
	} while (0)

/* what the module loader offers other code: no other module here */
#define try_inc_mod_count(mod) 1
#define get_module_symbol(m, s) ((void *) 0)
#define put_module_symbol(s) \
	do {                 \
	} while (0)

#endif /* _LINUX24_MODULE_H */
