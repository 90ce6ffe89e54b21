/*
 * linux/kernel.h - as 2.4 drivers see it: the shim's, less min() and max(),
 * which 2.4.0 did not have (drivers defined their own).
 */
#ifndef _LINUX24_KERNEL_H
#define _LINUX24_KERNEL_H

#include <linux/config.h>
#include_next <linux/kernel.h>

#undef min
#undef max
#undef min_t
#undef max_t

#define NIPQUAD(addr)                                               \
	((unsigned char *) &addr)[0], ((unsigned char *) &addr)[1], \
		((unsigned char *) &addr)[2], ((unsigned char *) &addr)[3]

extern int session_of_pgrp(int pgrp);
extern int get_option(char **str, int *pint);
extern char *get_options(char *str, int nints, int *ints);

#endif /* _LINUX24_KERNEL_H */
