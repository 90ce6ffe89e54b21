/*
 *  xcore.h  -- the core's own: its counters, with CONFIG_XCORE_STATS.
 */
#ifndef _XCORE_H
#define _XCORE_H

#define XCORE_RX 0
#define XCORE_TX 1

#ifdef CONFIG_XCORE_STATS
extern void xcore_count(int line, int what);
#define XCORE_COUNT(line, what) xcore_count(line, what)
#else
#define XCORE_COUNT(line, what) \
	do {                    \
	} while (0)
#endif

#endif /* _XCORE_H */
