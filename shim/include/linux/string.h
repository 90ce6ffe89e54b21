#ifndef _LINUX_STRING_H_
#define _LINUX_STRING_H_

/* The kernel's string functions have the C library's names and meaning. */
#include <string.h>

#endif /* _LINUX_STRING_H_ */
