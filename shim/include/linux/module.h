#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H

#include <linux/compiler.h>
#include <linux/init.h>

/*
 * Exports and licences are recorded as the kernel records them, in
 * sections of the object file: __ksymtab (any module may link against the
 * symbol), __ksymtab_gpl (GPL-compatible modules only) and .modinfo
 * ("license=..."), so that modpost can read them from a built object.
 * The symbol __ksymtab_gpl_<sym> names a GPL-only export in `nm` too.
 */
struct kernel_symbol {
	unsigned long value;
	const char *name;
};

#define __EXPORT_SYMBOL(sym, sec, prefix)                                     \
	static const char __kstrtab_##sym[]                                   \
		__attribute__((section("__ksymtab_strings"), used)) = #sym;   \
	const struct kernel_symbol prefix##sym                                \
		__attribute__((section(sec), used)) = { (unsigned long) &sym, \
							__kstrtab_##sym }

#define EXPORT_SYMBOL(sym) __EXPORT_SYMBOL(sym, "__ksymtab", __ksymtab_)
#define EXPORT_SYMBOL_GPL(sym) \
	__EXPORT_SYMBOL(sym, "__ksymtab_gpl", __ksymtab_gpl_)

#define __MODULE_INFO_ID2(a, b) a##b
#define __MODULE_INFO_ID(a, b) __MODULE_INFO_ID2(a, b)
#define __MODULE_INFO(tag, info)                                              \
	static const char __MODULE_INFO_ID(__modinfo_, __LINE__)[]            \
		__attribute__((section(".modinfo"), used, aligned(1))) = #tag \
		"=" info

#define MODULE_LICENSE(_license) __MODULE_INFO(license, _license)
#define MODULE_AUTHOR(_author) __MODULE_INFO(author, _author)
#define MODULE_DESCRIPTION(_desc) __MODULE_INFO(description, _desc)

#define THIS_MODULE ((struct module *) 0)
#define MOD_INC_USE_COUNT \
	do {              \
	} while (0)
#define MOD_DEC_USE_COUNT \
	do {              \
	} while (0)

struct module;

#endif /* _LINUX_MODULE_H */
