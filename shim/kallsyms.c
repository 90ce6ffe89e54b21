/*
 * kallsyms.c - addresses to function names, from the program's own symbol
 * table, as the kernel's kallsyms names the frames of an oops.  Read once,
 * on first use, from the executable itself (static functions included);
 * what is not in it (a shared library's code) has no name.  Variables are
 * read too, so that a driver's own task queue is named by its variable.
 */
#include <elf.h>
#include <stdlib.h>

#include "shim.h"

struct ksym {
	unsigned long addr, size;
	const char *name;
};

static struct shim_mutex kallsyms_lock = SHIM_MUTEX_INIT;
static struct ksym *syms;
static long nr_syms;
static int loaded;
static unsigned long bias; /* where the loader put the program */

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The function symbols of one symbol table section of @image. */
static void read_symtab(const char *image, size_t len, const Elf64_Shdr *sh,
			const Elf64_Shdr *strtab)
{
	const Elf64_Sym *sym = (const void *) (image + sh->sh_offset);
	long i, n = sh->sh_size / sizeof(*sym);

	if (sh->sh_offset + sh->sh_size > len ||
	    strtab->sh_offset + strtab->sh_size > len)
		return;
	syms = shim_host_alloc(n * sizeof(*syms), sizeof(void *));
	if (!syms)
		return;
	for (i = 0; i < n; i++) {
		/* functions, and the variables a queue or a report may name */
		if ((ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC &&
		     ELF64_ST_TYPE(sym[i].st_info) != STT_OBJECT) ||
		    !sym[i].st_value || sym[i].st_name >= strtab->sh_size)
			continue;
		syms[nr_syms].addr = sym[i].st_value;
		syms[nr_syms].size = sym[i].st_size;
		syms[nr_syms].name = image + strtab->sh_offset + sym[i].st_name;
		nr_syms++;
	}
}

static void load(void)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	size_t len;
	const char *image;
	long i;

	/* mapped, not read: a batch's resets need not copy it back */
	image = shim_host_map_file("/proc/self/exe", &len);
	if (!image || len < sizeof(*eh))
		return;
	eh = (const void *) image;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (size_t) eh->e_shnum * sizeof(*sh) > len)
		return;
	sh = (const void *) (image + eh->e_shoff);
	for (i = 0; i < eh->e_shnum && !nr_syms; i++)
		if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < eh->e_shnum)
			read_symtab(image, len, &sh[i], &sh[sh[i].sh_link]);
	/* a position-independent program runs where the loader put it */
	for (i = 0; i < nr_syms; i++)
		if (!strcmp(syms[i].name, "shim_symbol"))
			bias = (unsigned long) shim_symbol - syms[i].addr;
	for (i = 0; i < nr_syms; i++)
		syms[i].addr += bias;
	qsort(syms, nr_syms, sizeof(*syms), ksym_cmp);
}

static void load_once(void)
{
	shim_mutex_lock_unseen(&kallsyms_lock);
	if (!loaded) {
		loaded = 1;
		load();
	}
	shim_mutex_unlock_unseen(&kallsyms_lock);
}

/* @addr as the program's file has it, for addr2line. */
unsigned long shim_symbol_link_address(unsigned long addr)
{
	load_once();
	return addr - bias;
}

/**
 * shim_symbol - name the function holding @addr, as "name+0xoff/0xsize"
 *
 * Returns @buf, or NULL if no function of the program holds @addr.
 */
char *shim_symbol(unsigned long addr, char *buf, size_t len)
{
	long lo = 0, hi;
	struct ksym *k;

	load_once();
	/* the last symbol at or below @addr */
	hi = nr_syms;
	while (lo < hi) {
		long mid = (lo + hi) / 2;

		if (syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	k = &syms[lo - 1];
	if (addr - k->addr >= (k->size ? k->size : 1))
		return NULL;
	if (addr == k->addr)
		snprintf(buf, len, "%s", k->name);
	else
		snprintf(buf, len, "%s+0x%lx/0x%lx", k->name, addr - k->addr,
			 k->size);
	return buf;
}

/*
 * The name of the function or variable that starts exactly at @addr, as
 * the program's symbol table has it, or NULL: the string lives as long as
 * the program.
 */
const char *shim_symbol_name(const void *addr)
{
	long lo = 0, hi;

	load_once();
	hi = nr_syms;
	while (lo < hi) {
		long mid = (lo + hi) / 2;

		if (syms[mid].addr < (unsigned long) addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr_syms && syms[lo].addr == (unsigned long) addr ?
		       syms[lo].name :
		       NULL;
}

/*
 * The function a return address @ip is in, named for a report (the
 * kernel's %pB): the call is the byte before it, since a call that does
 * not return may be the last instruction of its function.  "?" if none.
 */
const char *shim_symbol_caller(void *ip, char *buf, size_t len)
{
	return shim_symbol((unsigned long) ip - 1, buf, len) ?: "?";
}
