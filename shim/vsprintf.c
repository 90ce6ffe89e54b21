/*
 * vsprintf.c - the kernel's number parsing (simple_strtoul and friends);
 * its formatting is the C library's (linux/kernel.h).
 */
#include "shim.h"

static int hexdigit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* Base 0: "0x" means 16, a leading "0" means 8, else 10; as the kernel. */
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base)
{
	unsigned long result = 0;

	if (!base) {
		base = 10;
		if (*cp == '0') {
			base = 8;
			cp++;
			if ((*cp == 'x' || *cp == 'X') && hexdigit(cp[1])) {
				cp++;
				base = 16;
			}
		}
	} else if (base == 16 && cp[0] == '0' &&
		   (cp[1] == 'x' || cp[1] == 'X')) {
		cp += 2;
	}
	for (;;) {
		unsigned int digit;

		if (*cp >= '0' && *cp <= '9')
			digit = *cp - '0';
		else if (*cp >= 'a' && *cp <= 'z')
			digit = *cp - 'a' + 10;
		else if (*cp >= 'A' && *cp <= 'Z')
			digit = *cp - 'A' + 10;
		else
			break;
		if (digit >= base)
			break;
		result = result * base + digit;
		cp++;
	}
	if (endp)
		*endp = (char *) cp;
	return result;
}

long simple_strtol(const char *cp, char **endp, unsigned int base)
{
	if (*cp == '-')
		return -(long) simple_strtoul(cp + 1, endp, base);
	return simple_strtoul(cp, endp, base);
}
