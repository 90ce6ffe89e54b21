#ifndef _LINUX_DELAY_H
#define _LINUX_DELAY_H

/* Busy-waits, as on hardware; allowed in atomic context. */
extern void udelay(unsigned long usecs);
extern void mdelay(unsigned long msecs);

#endif /* _LINUX_DELAY_H */
