/*
 * time.c - jiffies, in two modes.
 *
 * Real: jiffies follow the host's monotonic clock at HZ ticks a second.
 * Virtual: jiffies stand still until a test moves them with
 * shim_clock_advance(), which fires every timer that falls due, in expiry
 * order, before it returns; runs are then deterministic.
 * Both start at INITIAL_JIFFIES, five minutes before the counter wraps.
 */
#include <time.h>

#include "shim.h"
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <shim/test.h>

#define NSEC_PER_JIFFY	(1000000000ULL / HZ)

static uint64_t boot_ns;
static int clock_virtual;
static unsigned long virtual_jiffies;

uint64_t shim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void shim_clock_init(void)
{
	boot_ns = shim_now_ns();
}

unsigned long shim_jiffies(void)
{
	if (__atomic_load_n(&clock_virtual, __ATOMIC_ACQUIRE))
		return __atomic_load_n(&virtual_jiffies, __ATOMIC_ACQUIRE);
	return INITIAL_JIFFIES + (unsigned long) ((shim_now_ns() - boot_ns) /
						  NSEC_PER_JIFFY);
}

/* Host nanoseconds from now until jiffy @j begins (0 if it has). */
uint64_t shim_ns_until_jiffy(unsigned long j)
{
	uint64_t at = boot_ns + (uint64_t) (j - INITIAL_JIFFIES) * NSEC_PER_JIFFY;
	uint64_t now = shim_now_ns();

	return at > now ? at - now : 0;
}

void shim_clock_virtual(void)
{
	__atomic_store_n(&virtual_jiffies, INITIAL_JIFFIES, __ATOMIC_RELEASE);
	__atomic_store_n(&clock_virtual, 1, __ATOMIC_RELEASE);
	/* ksoftirqd must stop waiting for real time */
	shim_kick_ksoftirqd();
}

int shim_clock_is_virtual(void)
{
	return __atomic_load_n(&clock_virtual, __ATOMIC_ACQUIRE);
}

/* timer.c moves virtual jiffies forward as it fires timers */
void shim_set_virtual_jiffies(unsigned long j)
{
	__atomic_store_n(&virtual_jiffies, j, __ATOMIC_RELEASE);
}

void udelay(unsigned long usecs)
{
	uint64_t end = shim_now_ns() + usecs * 1000ULL;

	while (shim_now_ns() < end)
		;
}

void mdelay(unsigned long msecs)
{
	udelay(msecs * 1000UL);
}
