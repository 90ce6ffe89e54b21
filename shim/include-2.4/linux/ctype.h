/* linux/ctype.h - character classes of ASCII, as the kernel's lib/ctype.c */
#ifndef _LINUX24_CTYPE_H
#define _LINUX24_CTYPE_H

#define isdigit(c) ((unsigned char) (c) - '0' < 10u)
#define isxdigit(c) (isdigit(c) || ((unsigned char) (c) | 0x20) - 'a' < 6u)
#define islower(c) ((unsigned char) (c) - 'a' < 26u)
#define isupper(c) ((unsigned char) (c) - 'A' < 26u)
#define isalpha(c) (islower(c) || isupper(c))
#define isalnum(c) (isalpha(c) || isdigit(c))
#define isspace(c)                                                  \
	((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r' || \
	 (c) == '\v' || (c) == '\f')
#define iscntrl(c) ((unsigned char) (c) < 32 || (unsigned char) (c) == 127)
#define isprint(c) ((unsigned char) (c) -32u < 95u)
#define isgraph(c) ((unsigned char) (c) -33u < 94u)
#define ispunct(c) (isgraph(c) && !isalnum(c))
#define isascii(c) (((unsigned char) (c)) <= 0x7f)
#define toascii(c) (((unsigned char) (c)) & 0x7f)

static inline unsigned char __tolower(unsigned char c)
{
	return isupper(c) ? c - 'A' + 'a' : c;
}

static inline unsigned char __toupper(unsigned char c)
{
	return islower(c) ? c - 'a' + 'A' : c;
}

#define tolower(c) __tolower(c)
#define toupper(c) __toupper(c)

#endif /* _LINUX24_CTYPE_H */
