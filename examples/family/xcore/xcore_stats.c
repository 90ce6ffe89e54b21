/*
 *  xcore_stats.c  -- what went through each line of the xcore family,
 *  built into the core with CONFIG_XCORE_STATS.
 */

#include <linux/config.h>
#include <linux/kernel.h>

#include "xcard.h"
#include "xcore.h"

static unsigned long xcore_counts[XCORE_MAX_CARDS][2];

void xcore_count(int line, int what)
{
	if (line >= 0 && line < XCORE_MAX_CARDS)
		xcore_counts[line][what]++;
}
