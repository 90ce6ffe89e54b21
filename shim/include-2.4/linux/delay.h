/* linux/delay.h - busy waits, as 2.4 had them (the shim's udelay, mdelay) */
#ifndef _LINUX24_DELAY_H
#define _LINUX24_DELAY_H

#include_next <linux/delay.h>

#define __udelay(n) udelay(n)
#define __const_udelay(n) udelay(n)
#define ndelay(n) udelay(((n) + 999) / 1000)

#endif /* _LINUX24_DELAY_H */
