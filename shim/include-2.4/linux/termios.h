/* linux/termios.h - see asm/termios.h */
#ifndef _LINUX24_TERMIOS_H
#define _LINUX24_TERMIOS_H

#include <linux/types.h>
#include <asm/termios.h>

#endif /* _LINUX24_TERMIOS_H */
