#ifndef _ASM_PAGE_H
#define _ASM_PAGE_H

/* i386's pages, which the host's are too */
#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))

#endif /* _ASM_PAGE_H */
