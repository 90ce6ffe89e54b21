/*
 * module.c - EXPORT_SYMBOL, EXPORT_SYMBOL_GPL, MODULE_LICENSE and the
 * initcalls, as the sections of this very binary record them.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/init.h>
#include "helpers.h"

TestSuite(module, .timeout = SUITE_TIMEOUT);

int shimtest_gpl_only(int x)
{
	return x + 1;
}
EXPORT_SYMBOL_GPL(shimtest_gpl_only);

int shimtest_for_all(int x)
{
	return x + 2;
}
EXPORT_SYMBOL(shimtest_for_all);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The shim tests");
MODULE_DESCRIPTION("exports of the shim test suite");

extern const struct kernel_symbol __start___ksymtab_gpl[],
	__stop___ksymtab_gpl[];
extern const struct kernel_symbol __start___ksymtab[], __stop___ksymtab[];

static const struct kernel_symbol *
find_symbol(const struct kernel_symbol *start, const struct kernel_symbol *stop,
	    const char *name)
{
	const struct kernel_symbol *sym;

	for (sym = start; sym < stop; sym++)
		if (!strcmp(sym->name, name))
			return sym;
	return NULL;
}

Test(module, export_symbol_gpl_lands_in_ksymtab_gpl)
{
	const struct kernel_symbol *sym;

	sym = find_symbol(__start___ksymtab_gpl, __stop___ksymtab_gpl,
			  "shimtest_gpl_only");
	cr_assert_not_null(sym);
	cr_assert_eq(sym->value, (unsigned long) &shimtest_gpl_only);
	cr_assert_eq(sym, &__ksymtab_gpl_shimtest_gpl_only);
	cr_assert_eq(((int (*)(int)) sym->value)(1), 2);
	cr_assert_null(find_symbol(__start___ksymtab, __stop___ksymtab,
				   "shimtest_gpl_only"),
		       "a GPL-only export in __ksymtab");
}

Test(module, export_symbol_lands_in_ksymtab)
{
	const struct kernel_symbol *sym;

	sym = find_symbol(__start___ksymtab, __stop___ksymtab,
			  "shimtest_for_all");
	cr_assert_not_null(sym);
	cr_assert_eq(sym->value, (unsigned long) &shimtest_for_all);
	cr_assert_eq(sym, &__ksymtab_shimtest_for_all);
	cr_assert_null(find_symbol(__start___ksymtab_gpl, __stop___ksymtab_gpl,
				   "shimtest_for_all"));
}

/* The contents of section @name of this program's file; NULL if none. */
static char *read_section(const char *name, size_t *size)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const char *names;
	char *map, *copy = NULL;
	struct stat st;
	int fd, i;

	fd = open("/proc/self/exe", O_RDONLY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fstat(fd, &st), 0);
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	cr_assert_neq(map, MAP_FAILED);
	eh = (const Elf64_Ehdr *) map;
	cr_assert_eq(memcmp(eh->e_ident, ELFMAG, SELFMAG), 0);
	cr_assert_eq(eh->e_ident[EI_CLASS], ELFCLASS64);
	sh = (const Elf64_Shdr *) (map + eh->e_shoff);
	names = map + sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < eh->e_shnum; i++) {
		if (strcmp(names + sh[i].sh_name, name))
			continue;
		*size = sh[i].sh_size;
		copy = malloc(*size + 1);
		memcpy(copy, map + sh[i].sh_offset, *size);
		copy[*size] = '\0';
		break;
	}
	munmap(map, st.st_size);
	return copy;
}

/* @entry is one of the NUL-separated strings of @sec */
static int has_string(const char *sec, size_t size, const char *entry)
{
	size_t off;

	for (off = 0; off < size; off += strlen(sec + off) + 1)
		if (!strcmp(sec + off, entry))
			return 1;
	return 0;
}

Test(module, module_license_is_recorded_in_modinfo)
{
	size_t size;
	char *modinfo = read_section(".modinfo", &size);

	cr_assert_not_null(modinfo, "no .modinfo section");
	cr_assert(has_string(modinfo, size, "license=GPL"));
	cr_assert(has_string(modinfo, size, "author=The shim tests"));
	cr_assert(has_string(modinfo, size,
			     "description=exports of the shim test suite"));
	free(modinfo);
}

Test(module, export_names_are_in_ksymtab_strings)
{
	size_t size;
	char *strings = read_section("__ksymtab_strings", &size);

	cr_assert_not_null(strings);
	cr_assert(has_string(strings, size, "shimtest_gpl_only"));
	cr_assert(has_string(strings, size, "shimtest_for_all"));
	free(strings);
}

static int init_runs, exit_runs;

static int __init shimtest_init(void)
{
	init_runs++;
	return 0;
}
module_init(shimtest_init);

static void __exit shimtest_exit(void)
{
	exit_runs++;
}
module_exit(shimtest_exit);

Test(module, initcalls_run_when_the_program_asks)
{
	cr_assert_eq(init_runs, 0, "module_init ran before do_initcalls()");
	cr_assert_eq(do_initcalls(), 0);
	cr_assert_eq(init_runs, 1);
	cr_assert_eq(exit_runs, 0);
	do_exitcalls();
	cr_assert_eq(exit_runs, 1);
}
