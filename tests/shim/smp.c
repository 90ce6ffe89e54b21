/*
 * smp.c - the online CPUs: the process's affinity mask at start.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <sched.h>

#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/completion.h>
#include <shim/test.h>
#include "helpers.h"

TestSuite(smp, .timeout = SUITE_TIMEOUT);

Test(smp, online_cpus_are_the_affinity_mask)
{
	cpu_set_t set;
	int cpu, n = 0, expect;

	cr_assert_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	expect = CPU_COUNT(&set);
	if (expect > NR_CPUS)
		expect = NR_CPUS;
	cr_assert_eq(num_online_cpus(), expect);
	for_each_online_cpu(cpu) {
		cr_assert(CPU_ISSET(cpu, &set),
			  "cpu %d online but not in the mask", cpu);
		cr_assert(cpu_online_map & (1UL << cpu));
		n++;
	}
	cr_assert_eq(n, num_online_cpus());
	cr_assert_eq(__builtin_popcountl(cpu_online_map), num_online_cpus());
}

Test(smp, smp_processor_id_is_online)
{
	int i;

	for (i = 0; i < 1000; i++)
		cr_assert(cpu_online(smp_processor_id()));
	cr_assert_not(cpu_online(-1));
	cr_assert_not(cpu_online(NR_CPUS));
}

struct pinned {
	int cpu;
	int ret, bad_ret;
	int seen;
	struct completion done;
};

static int pinned_thread(void *arg)
{
	struct pinned *p = arg;

	p->ret = set_cpus_allowed(current, 1UL << p->cpu);
	p->seen = smp_processor_id();
	p->bad_ret = set_cpus_allowed(current, 0);
	complete(&p->done);
	return 0;
}

Test(smp, set_cpus_allowed_pins_a_kernel_thread)
{
	struct pinned p;
	int cpu;

	for_each_online_cpu(cpu) {
		p.cpu = cpu;
		init_completion(&p.done);
		start_kthread(pinned_thread, &p);
		wait_for_completion(&p.done);
		cr_assert_eq(p.ret, 0);
		cr_assert_eq(p.seen, cpu, "pinned to %d, ran on %d", cpu,
			     p.seen);
		cr_assert_eq(p.bad_ret, -EINVAL, "an empty mask is refused");
	}
}
