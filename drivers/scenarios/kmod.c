/*
 * kmod.c - scenarios of the kmod port: user-mode helpers started through
 * keventd and waited for, started directly when already on keventd,
 * refused before the system runs, failing to fork, and many at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <linux/errno.h>
#include <world/util.h>
#include <world/irq.h>
#include <world/umh.h>
#include <entry/kmod.h>

#include "scenario.h"

static char lines[SIM_UMH_MAX_CALLS][SIM_UMH_LINE];

static void report_calls(struct scenario_ctx *ctx, const char *key, int sorted)
{
	const char *ptrs[64];
	int i, n = sim_umh_calls(lines, 64);

	for (i = 0; i < n; i++)
		ptrs[i] = lines[i];
	if (sorted)
		qsort(ptrs, n, sizeof(ptrs[0]), scn_cmp_str);
	obs_str_list(ctx, key, ptrs, n);
}

static void modprobe(struct scenario_ctx *ctx)
{
	char *hp_argv[] = { "/sbin/hotplug", "usb", NULL };
	char *hp_envp[] = { "HOME=/", "ACTION=add", NULL };
	char *bad_argv[] = { "/sbin/nonexistent", NULL };
	char empty[] = "";
	int64_t ret[5];
	struct kmod_stats st;

	kmod_init();
	kmod_set_system_running(1);
	ret[0] = request_module("net-pf-10");
	ret[1] = request_module("char-major-10-135");
	ret[2] = call_usermodehelper("/sbin/hotplug", hp_argv, hp_envp);
	ret[3] = call_usermodehelper("/sbin/nonexistent", bad_argv, hp_envp);
	ret[4] = call_usermodehelper(empty, bad_argv, hp_envp);
	obs_i64_list(ctx, "retvals", ret, 5);
	report_calls(ctx, "helper_calls", 0);
	kmod_get_stats(&st);
	obs_u64(ctx, "via_task_queue", st.via_task_queue);
	obs_u64(ctx, "from_keventd", st.from_keventd);
	inv(ctx, "all_waited_on_keventd",
	    st.via_task_queue == 4 && st.from_keventd == 0);
	inv(ctx, "missing_helper_fails", ret[3] == -ENOENT);
	inv(ctx, "empty_path_is_noop", ret[4] == 0 && sim_umh_count() == 3);
	kmod_exit();
}
SCENARIO(kmod, "modprobe", 0, modprobe,
	 "request_module and call_usermodehelper from process context: a task "
	 "on the caller's stack scheduled on keventd, waited for");

static void raise_hotplug(void *arg)
{
	kmod_hotplug_event("net", (const char *) arg);
}

static void from_keventd(struct scenario_ctx *ctx)
{
	static const char *actions[] = { "add", "remove", "add", "online",
					 "add" };
	struct kmod_stats st;
	int i;

	kmod_init();
	kmod_set_system_running(1);
	for (i = 0; i < 5; i++)
		sim_call_in_irq(raise_hotplug, (void *) actions[i]);
	kmod_quiesce();
	/* the events may run on different workers: a set, sorted */
	report_calls(ctx, "helper_calls", 1);
	kmod_get_stats(&st);
	obs_u64(ctx, "hotplug_events", st.hotplug_events);
	obs_u64(ctx, "hotplug_done", st.hotplug_done);
	obs_u64(ctx, "from_keventd", st.from_keventd);
	inv(ctx, "helpers_started_directly_on_keventd",
	    st.from_keventd == 5 && st.via_task_queue == 0);
	inv(ctx, "every_event_handled", st.hotplug_done == 5);
	/*
	 * A device goes as the module does, as in the kernel: only
	 * kmod_exit()'s own flush runs its event before the helpers stop.
	 */
	sim_call_in_irq(raise_hotplug, (void *) "remove");
	kmod_exit();
	obs_u64(ctx, "helpers_by_exit", sim_umh_count());
}
SCENARIO(
	kmod, "from_keventd", 0, from_keventd,
	"hotplug events raised in interrupt context, handled on keventd: "
	"call_usermodehelper sees current_is_keventd() and does not wait on itself");

static void not_running(struct scenario_ctx *ctx)
{
	char *argv[] = { "/sbin/hotplug", "usb", NULL };
	char *envp[] = { NULL };
	int64_t ret[2];

	kmod_init();
	ret[0] = call_usermodehelper("/sbin/hotplug", argv, envp);
	ret[1] = request_module("floppy");
	obs_i64_list(ctx, "retvals", ret, 2);
	inv(ctx, "refused_before_boot",
	    ret[0] == -EBUSY && ret[1] == -EPERM && sim_umh_count() == 0);
	kmod_exit();
}
SCENARIO(kmod, "not_running", 0, not_running,
	 "helpers asked for before the system runs are refused");

static void kthread_fail(struct scenario_ctx *ctx)
{
	int64_t ret[2];

	kmod_init();
	kmod_set_system_running(1);
	shim_fail_kthread_nth(1);
	ret[0] = request_module("snd-card-0");
	ret[1] = request_module("snd-card-0");
	shim_fail_kthread_nth(0);
	obs_i64_list(ctx, "retvals", ret, 2);
	report_calls(ctx, "helper_calls", 0);
	inv(ctx, "fork_failure_reported", ret[0] < 0 && ret[1] == 0);
	kmod_exit();
}
SCENARIO(kmod, "kthread_fail", 0, kthread_fail,
	 "the helper's kernel_thread fails: the error comes back through the "
	 "task to the waiting caller");

static int init_once(void *arg)
{
	int ret = kmod_init();

	if (!ret)
		kmod_exit();
	return ret;
}

/* kmod_init's allocations, then its threads: none today (see tty's) */
static void init_nomem(struct scenario_ctx *ctx)
{
	obs_i64(ctx, "init_despite_kmalloc_failures",
		scn_fail_in_turn(ctx, "init_kmalloc", 0, init_once, NULL));
	obs_i64(ctx, "init_despite_kthread_failures",
		scn_fail_in_turn(ctx, "init_kthread", 1, init_once, NULL));
}
SCENARIO(kmod, "init_nomem", 0, init_nomem,
	 "kmod_init's allocations, then its threads, fail in turn: -ENOMEM "
	 "each time, nothing left behind, and a later init works");

#define STORM_LOADERS 8
#define STORM_MODULES 15
#define STORM_HOTPLUG 2
#define STORM_EVENTS 20

struct storm {
	struct scenario_ctx *ctx;
	unsigned long errors;
};

static void storm_thread(void *arg, int t)
{
	struct storm *st = arg;
	int i;

	if (t < STORM_LOADERS) {
		for (i = 0; i < STORM_MODULES; i++) {
			char name[32];

			snprintf(name, sizeof(name), "mod-%d-%d", t, i);
			if (request_module(name))
				__atomic_add_fetch(&st->errors, 1,
						   __ATOMIC_SEQ_CST);
		}
		return;
	}
	for (i = 0; i < STORM_EVENTS; i++) {
		sim_call_in_irq(raise_hotplug, (void *) "add");
		scn_sleep_ms(1);
	}
}

static void storm(struct scenario_ctx *ctx)
{
	struct storm st;
	struct kmod_stats ks;
	u64 expect = 0;
	int t, i;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	kmod_init();
	kmod_set_system_running(1);
	scn_run_threads(STORM_LOADERS + STORM_HOTPLUG, storm_thread, &st);
	kmod_quiesce();
	kmod_get_stats(&ks);

	/* the set of modprobe calls is known; the hotplug ones by count */
	for (t = 0; t < STORM_LOADERS; t++)
		for (i = 0; i < STORM_MODULES; i++) {
			char line[SIM_UMH_LINE];

			snprintf(line, sizeof(line),
				 "/sbin/modprobe -s -k -- mod-%d-%d", t, i);
			expect += world_mix64(world_digest(WORLD_DIGEST_INIT,
							   line, strlen(line)));
		}
	for (i = 1; i <= STORM_HOTPLUG * STORM_EVENTS; i++) {
		char line[SIM_UMH_LINE];

		snprintf(line, sizeof(line),
			 "/sbin/hotplug net [ACTION=add] [SEQNUM=%d]", i);
		expect += world_mix64(
			world_digest(WORLD_DIGEST_INIT, line, strlen(line)));
	}
	obs_u64(ctx, "helper_calls", sim_umh_count());
	obs_u64(ctx, "via_task_queue", ks.via_task_queue);
	obs_u64(ctx, "from_keventd", ks.from_keventd);
	obs_hex(ctx, "call_set_digest", sim_umh_set_digest());
	obs_u64(ctx, "errors", st.errors);
	inv(ctx, "every_helper_ran_once",
	    sim_umh_count() == STORM_LOADERS * STORM_MODULES +
				       STORM_HOTPLUG * STORM_EVENTS);
	inv(ctx, "call_set_as_expected", sim_umh_set_digest() == expect);
	inv(ctx, "hotplug_on_keventd",
	    ks.from_keventd == STORM_HOTPLUG * STORM_EVENTS);
	inv(ctx, "no_runaway", st.errors == 0 && ks.concurrent == 0);
	kmod_exit();
}
SCENARIO(kmod, "storm", 1, storm,
	 "8 threads load 15 modules each while 2 interrupt sources raise 40 "
	 "hotplug events: each helper runs once, the hotplug ones from keventd");
