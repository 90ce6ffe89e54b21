// kernel-macros.h - the macro file convert gives spatch (--macro-file), on
// top of coccinelle's own standard.h, as the kernel's scripts/coccinelle
// relies on standard.h.  Coccinelle does not expand a file's includes: a
// kernel idiom that is a macro it does not know can stop its parser, and
// then the whole function around it is left unconverted.  Each name below
// was such an idiom in 2.2-2.6 era drivers; the ones standard.h already
// knows (__init, __exit, __devinit, __initdata, __user, __iomem,
// asmlinkage, FASTCALL, ...) are not repeated.
//
// What a macro file cannot fix, convert's pre-pass (tqprep.py) hides from
// the parser and puts back afterwards: GNU casts used as lvalues,
// __attribute__((...)) with arguments after a declarator, a function-like
// macro used as a function's name (DRM(irq_install)(...)), a marker macro
// after a prototype (void f(void) md__init;).
//
// Format: coccinelle's.  A name defined as nothing is dropped; MACROSTATEMENT
// makes a statement of a call without its `;`.

// ------------------------------------------------- section and marker names
// 2.4 init/exit markers standard.h does not have
#define __devexitdata
#define __devinitconst
#define __devexitconst
#define __exitcall
#define __initlocaldata
#define __initsetup
#define md__init
#define md__initdata
#define __cold
#define __safe
#define __deprecated_for_modules
#define __attribute_noinline__
#define __noinline
#define __nocfi
#define __ro_after_init
#define __initconst
#define __exitused

// __devexit_p(f) / __exit_p(f) name f, or NULL when the section is dropped
#define __devexit_p(x) x
#define __exit_p(x) x
#define __devinit_p(x) x

// 2.2's function wrapper: __initfunc(void foo(void)) { ... }
#define __initfunc(x) x

// ---------------------------------------------------- names built by macros
// the DRM drivers of 2.4/2.5 build every function name with DRM(name)
// (drm_name); used as a function's own name it is also hidden by the
// pre-pass, which coccinelle needs there
#define DRM(x) x

// ------------------------------------------------- module and symbol tables
// at file scope, often without the `;` the parser wants after them
#define EXPORT_SYMBOL(x)
#define EXPORT_SYMBOL_GPL(x)
#define EXPORT_SYMBOL_NOVERS(x)
#define EXPORT_SYMBOL_GPL_FUTURE(x)
#define EXPORT_NO_SYMBOLS
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_SUPPORTED_DEVICE(x)
#define MODULE_PARM(var, type)
#define MODULE_PARM_DESC(var, desc)
#define MODULE_DEVICE_TABLE(type, name)
#define MODULE_ALIAS(x)
#define MODULE_VERSION(x)
#define MODULE_NAME(x)
#define SET_MODULE_OWNER(dev) MACROSTATEMENT
// 2.4's GNU `field: value` hidden in a macro, first in file_operations
// initialisers of the time
#define OWNER_THIS_MODULE owner: THIS_MODULE,
#define module_init(x)
#define module_exit(x)
#define __initcall(x)
#define __exitcall(x)
#define __setup(str, fn)
#define early_param(str, fn)
#define core_initcall(x)
#define subsys_initcall(x)
#define fs_initcall(x)
#define device_initcall(x)
#define late_initcall(x)

// ------------------------------------------------------- sparse annotations
// of later kernels (2.6 onwards), which backports and out-of-tree drivers
// carry in
#define __kernel
#define __user
#define __iomem
#define __force
#define __nocast
#define __bitwise
#define __bitwise__
#define __rcu
#define __percpu
#define __private
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)
#define __acquire(x) MACROSTATEMENT
#define __release(x) MACROSTATEMENT
#define __cond_lock(x, c) c

// ------------------------------------------------------- calling conventions
#define asmlinkage
#define fastcall
#define __sched
#define __kprobes
#define notrace
#define __visible
#define __always_inline
#define __inline__
#define __inline
