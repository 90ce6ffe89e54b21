/* linux/malloc.h - 2.4.0's old name for linux/slab.h */
#include <linux/slab.h>
