/*
 * init.c - the boot: what runs before main(), and the initcalls.
 *
 * A batch of schedules (SHIM_SCHED_BATCH) forks first (priority 101),
 * before anything of the shim has run.  The shim comes up next (102):
 * clock, CPUs, ksoftirqd.  The stacks start keventd or the events queue at priority 110, as a booted
 * kernel has them before any driver's init.  At 120 the boot is over: from
 * then on allocations and thread starts are counted, and the environment's
 * fault injection (SHIM_FAIL_KMALLOC, SHIM_FAIL_KTHREAD, SHIM_FAIL_RESOURCE)
 * starts counting.
 */
#include "shim.h"
#include <linux/init.h>

int shim_booting = 1;
int shim_debug_checks = 1;
int shim_hooks = SHIM_HOOK_DEBUG;

int shim_debug_enabled(void)
{
	return shim_debug_checks;
}

static unsigned long env_number(const char *name)
{
	const char *s = shim_getenv(name);
	char *end;
	unsigned long n;

	if (!s || !*s)
		return 0;
	n = simple_strtoul(s, &end, 10);
	if (*end) {
		printk(KERN_ERR "shim: %s=%s is not a number; ignored\n", name,
		       s);
		return 0;
	}
	return n;
}

/* Before the boot: a batch of schedules forks here, one child each. */
__attribute__((constructor(101))) static void shim_batch(void)
{
	shim_host_batch();
}

__attribute__((constructor(102))) static void shim_boot(void)
{
	const char *s;

	/* first: from here on every thread the shim starts is scheduled */
	shim_ctl_init();
	shim_traps_init();
	s = shim_getenv("SHIM_DEBUG");
	if (s && !strcmp(s, "0")) {
		shim_debug_checks = 0;
		__atomic_and_fetch(&shim_hooks, ~SHIM_HOOK_DEBUG,
				   __ATOMIC_RELAXED);
	}
	if (shim_controlled)
		__atomic_or_fetch(&shim_hooks, SHIM_HOOK_CONTROLLED,
				  __ATOMIC_RELAXED);
	s = shim_getenv("SHIM_LOGLEVEL");
	if (s && *s)
		shim_printk_set_console_level(simple_strtol(s, NULL, 10));
	shim_clock_init();
	shim_smp_init();
	shim_softirq_init();
}

__attribute__((constructor(120))) static void shim_boot_done(void)
{
	unsigned long n;

	n = env_number("SHIM_FAIL_KMALLOC");
	if (n)
		shim_fail_kmalloc_nth(n);
	n = env_number("SHIM_FAIL_KTHREAD");
	if (n)
		shim_fail_kthread_nth(n);
	n = env_number("SHIM_FAIL_RESOURCE");
	if (n)
		shim_fail_resource_nth(n);
	__atomic_store_n(&shim_booting, 0, __ATOMIC_RELEASE);
}

/* The linker gives the bounds of the initcall sections, when there are any. */
extern initcall_t __start_shim_initcalls[] __attribute__((weak));
extern initcall_t __stop_shim_initcalls[] __attribute__((weak));
extern exitcall_t __start_shim_exitcalls[] __attribute__((weak));
extern exitcall_t __stop_shim_exitcalls[] __attribute__((weak));

/* Run every module_init() of the program; the first error, or 0. */
int do_initcalls(void)
{
	initcall_t *call;
	int ret = 0;

	for (call = __start_shim_initcalls;
	     call && call < __stop_shim_initcalls; call++) {
		int r = (*call)();

		if (r && !ret) {
			printk(KERN_ERR "initcall %p returned %d\n",
			       (void *) *call, r);
			ret = r;
		}
	}
	return ret;
}

/* Run every module_exit() of the program, last registered first. */
void do_exitcalls(void)
{
	exitcall_t *call;

	if (!__start_shim_exitcalls)
		return;
	for (call = __stop_shim_exitcalls; call > __start_shim_exitcalls;)
		(*--call)();
}
