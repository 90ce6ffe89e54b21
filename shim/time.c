/*
 * time.c - jiffies, in two modes.
 *
 * Real: jiffies follow the host's monotonic clock at HZ ticks a second.
 * Virtual: jiffies stand still until a test moves them with
 * shim_clock_advance(), which fires every timer that falls due, in expiry
 * order, before it returns; runs are then deterministic.
 * Both start at INITIAL_JIFFIES, five minutes before the counter wraps;
 * 2.4 code counts from 0 (shim/include-2.4/linux/jiffies.h).
 */
#include "shim.h"
#include <linux/jiffies.h>
#include <linux/delay.h>

#define NSEC_PER_JIFFY (1000000000ULL / HZ)

static u64 boot_ns;
static int clock_virtual;
static unsigned long virtual_jiffies;

/*
 * jiffies as a plain variable, as 2.4 declared it, for 2.4 code that
 * names something else jiffies too (a structure member), which the
 * polled macro of the 2.4 headers would rewrite: in 2.4's count, from 0,
 * kept equal to virtual jiffies at each move, and to real time's at each
 * read of it.
 */
volatile unsigned long shim_jiffies_plain;

static void set_plain(unsigned long j)
{
	__atomic_store_n(&shim_jiffies_plain, j - INITIAL_JIFFIES,
			 __ATOMIC_RELAXED);
}

static void set_virtual(unsigned long j)
{
	__atomic_store_n(&virtual_jiffies, j, __ATOMIC_RELEASE);
	set_plain(j);
}

void shim_clock_init(void)
{
	boot_ns = shim_clock_ns();
}

unsigned long shim_jiffies(void)
{
	unsigned long j;

	if (__atomic_load_n(&clock_virtual, __ATOMIC_ACQUIRE))
		return __atomic_load_n(&virtual_jiffies, __ATOMIC_ACQUIRE);
	j = INITIAL_JIFFIES +
	    (unsigned long) ((shim_clock_ns() - boot_ns) / NSEC_PER_JIFFY);
	set_plain(j);
	return j;
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
	set_virtual(INITIAL_JIFFIES);
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
	set_virtual(j);
}

/*
 * A 2.4 driver may wait for time by reading jiffies in a loop, and the
 * timer interrupt moved them under it.  A clock that only a test moves
 * (virtual time; a controlled run's) would hold still under such a loop
 * for ever.  So reads of jiffies by 2.4 code (shim_jiffies_polled(), the
 * 2.4 headers' jiffies) count, per task, reads of one value from one
 * place in a row, a count an interrupt starts again; at JIFFY_POLLS the
 * task has been busy a tick, and the tick comes: virtual jiffies move on
 * by one (the timers falling due then run at the next advance, as a busy
 * CPU would have run them late), a controlled run's clock moves to the
 * next jiffy.  The same code reads the same number of times, so a run
 * stays reproducible.  What a CPU really reads in a tick is far more; the
 * driver sees the same either way (the tick comes), and a driver's
 * delays (riscom8's 50-tick waits for its chip, at each probe) are the
 * sandbox's cost: a thousand reads a tick, not more.
 */
#define JIFFY_POLLS 1000

__thread unsigned int shim_jiffy_polls;
static __thread const char *poll_site;
static __thread unsigned long poll_jiffy;

static unsigned long jiffy_tick(const char *site, unsigned long j)
{
	static int warned;

	/* 2.4 SMP: the tick's interrupt waits while cli()'s lock is held */
	if (shim_irqlock_held_by(current) &&
	    !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		printk(KERN_WARNING
		       "WARNING: %s: %s/%d busy-waits on jiffies holding "
		       "the global interrupt lock (cli()): on 2.4 the timer "
		       "interrupt could not come and the wait never ended\n",
		       site, current->comm, current->pid);
	if (shim_clock_is_virtual()) {
		unsigned long old = j;

		if (__atomic_compare_exchange_n(&virtual_jiffies, &old, j + 1,
						0, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			set_plain(j + 1);
		shim_point(SHIM_POINT_RELAX);
	} else if (shim_controlled) {
		shim_ctl_delay(shim_ns_until_jiffy(j + 1) + 1);
	}
	return shim_jiffies();
}

unsigned long shim_jiffies_polled(const char *site)
{
	unsigned long j = shim_jiffies();

	if (likely(site != poll_site || j != poll_jiffy)) {
		poll_site = site;
		poll_jiffy = j;
		shim_jiffy_polls = 1;
		return j;
	}
	if (likely(++shim_jiffy_polls < JIFFY_POLLS))
		return j;
	shim_jiffy_polls = 0;
	return jiffy_tick(site, j);
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
