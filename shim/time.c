/*
 * time.c - jiffies, in two modes.
 *
 * Real: jiffies follow the host's monotonic clock at HZ ticks a second.
 * Virtual: jiffies stand still until a test moves them with
 * shim_clock_advance(), which fires every timer that falls due, in expiry
 * order, before it returns; runs are then deterministic.
 * Both start at INITIAL_JIFFIES, five minutes before the counter wraps.
 */
#include "shim.h"
#include <linux/jiffies.h>
#include <linux/delay.h>

#define NSEC_PER_JIFFY (1000000000ULL / HZ)

static u64 boot_ns;
static int clock_virtual;
static unsigned long virtual_jiffies;

void shim_clock_init(void)
{
	boot_ns = shim_clock_ns();
}

unsigned long shim_jiffies(void)
{
	if (__atomic_load_n(&clock_virtual, __ATOMIC_ACQUIRE))
		return __atomic_load_n(&virtual_jiffies, __ATOMIC_ACQUIRE);
	return INITIAL_JIFFIES +
	       (unsigned long) ((shim_clock_ns() - boot_ns) / NSEC_PER_JIFFY);
}

/* Host nanoseconds from now until jiffy @j begins (0 if it has). */
u64 shim_ns_until_jiffy(unsigned long j)
{
	u64 at = boot_ns + (u64) (j - INITIAL_JIFFIES) * NSEC_PER_JIFFY;
	u64 now = shim_clock_ns();

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
	u64 end = shim_clock_ns() + usecs * 1000ULL;

	/* in a controlled run time is the scheduler's: spend it there */
	if (unlikely(shim_controlled)) {
		shim_ctl_delay(usecs * 1000ULL);
		return;
	}
	while (shim_clock_ns() < end)
		;
}

void mdelay(unsigned long msecs)
{
	udelay(msecs * 1000UL);
}
