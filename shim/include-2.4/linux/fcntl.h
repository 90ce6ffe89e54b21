/* linux/fcntl.h - open flags and fcntl commands, i386's values in 2.4 */
#ifndef _LINUX24_FCNTL_H
#define _LINUX24_FCNTL_H

#include <asm/fcntl.h>

#endif /* _LINUX24_FCNTL_H */
