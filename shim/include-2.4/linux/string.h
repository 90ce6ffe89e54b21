/*
 * linux/string.h - the kernel's string functions, for 2.4 code: the
 * shim's, with strcmp() and strncmp() told to the world first when it
 * listens (world/user.h; linked into the device search's binary only).
 * A driver that looks a module parameter up in a table of names (the
 * type of its board: board0=ech,0x2a0) thereby says which names it
 * takes, as trace-cmp says which constants it compares a number with.
 */
#ifndef _LINUX24_STRING_H
#define _LINUX24_STRING_H

#include_next <linux/string.h>

extern void sim_user_strcmp(const char *a, const char *b, size_t n)
	__attribute__((weak));

static inline int __shim24_strcmp(const char *a, const char *b)
{
	if (sim_user_strcmp)
		sim_user_strcmp(a, b, (size_t) -1);
	return strcmp(a, b);
}

static inline int __shim24_strncmp(const char *a, const char *b, size_t n)
{
	if (sim_user_strcmp)
		sim_user_strcmp(a, b, n);
	return strncmp(a, b, n);
}

#define strcmp(a, b) __shim24_strcmp((a), (b))
#define strncmp(a, b, n) __shim24_strncmp((a), (b), (n))

#endif /* _LINUX24_STRING_H */
