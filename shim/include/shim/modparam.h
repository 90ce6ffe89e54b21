/*
 * shim/modparam.h - a 2.4 module's parameters, for the host.
 *
 * 2.4's MODULE_PARM(var, type) told insmod where var is and what it
 * holds; here it records {name, type, address, size} in a section of the
 * program (linux/module.h of shim/include-2.4), and the host sets them,
 * as insmod did, before the module's init_module() runs.
 *
 * Types are insmod's: an optional count "N" or range "MIN-MAX" of
 * elements, then b (byte), h (short), i (int), l (long), s (a string:
 * the variable is a char *, set to a copy) or cN (a char array of N
 * bytes, NUL included).  Values are numbers as strtoul() reads them
 * (0x.. hex, 0.. octal), or text for s and c; an array takes values
 * separated by commas, from its first element; text in double quotes
 * may hold commas and blanks (name="a,b",0x2a0).
 */
#ifndef _SHIM_MODPARAM_H
#define _SHIM_MODPARAM_H

#include <stddef.h>

struct shim_modparam {
	const char *name;
	const char *type;
	void *addr;
	size_t size; /* of the variable: the whole array */
};

/* The module's parameters, in the order of the program: NULL past the last. */
extern const struct shim_modparam *shim_modparam_get(int index);
/*
 * Set parameter @name from @value as insmod would: 0, -ENOENT (no such
 * parameter), -EINVAL (a value its type does not take, more values than
 * it holds or fewer than its minimum, a string too long for its array).
 */
extern int shim_modparam_set(const char *name, const char *value);
/*
 * Which string parameter's element @s is (the copy it was set to, a
 * pointer the module still holds): 0 with its @name and @index, or
 * -ENOENT.  What a search learns a string parameter should say is what
 * the module compared that string with.
 */
extern int shim_modparam_string_of(const char *s, const char **name,
				   int *index);
/*
 * Set every "name=value" of @line, separated by spaces (SHIM_MODPARAMS);
 * 0, or the first error, naming the parameter on the console.
 */
extern int shim_modparams_apply(const char *line);

#endif /* _SHIM_MODPARAM_H */
