/*
 * k24.h - what the 2.4 side of these tests (kernel/, built on the 2.4
 * headers) offers the Criterion side (built on the C library's).
 */
#ifndef _TESTS_K24_H
#define _TESTS_K24_H

/* kernel/headers.c */
int k24_module(int *in_use_after_init, int *n_inits, int *n_exits);
void k24_flags(unsigned long *before, unsigned long *inside,
	       unsigned long *restored);
int k24_uaccess(char *user_buf, unsigned long *not_copied_null, int *get_null);
int k24_pages(long *outstanding_with_page);
const char *k24_kdevname(void);
int k24_regions(void);
int k24_abi(void);
unsigned long k24_busy_wait_ticks(unsigned long ticks);

#endif /* _TESTS_K24_H */
