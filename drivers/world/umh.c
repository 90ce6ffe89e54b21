/*
 * umh.c - the simulated user-mode helpers (see world/umh.h).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/errno.h>
#include <world/util.h>
#include <world/umh.h>

static char calls[SIM_UMH_MAX_CALLS][SIM_UMH_LINE];
static unsigned long ncalls;
static u64 set_digest;
static spinlock_t umh_lock = SPIN_LOCK_UNLOCKED;

static int exists(const char *path)
{
	return !strcmp(path, "/sbin/modprobe") ||
	       !strcmp(path, "/sbin/hotplug");
}

int sim_usermode_exec(const char *path, char **argv, char **envp)
{
	char line[SIM_UMH_LINE];
	size_t len = 0;
	int i;

	might_sleep();
	if (!exists(path))
		return -ENOENT;
	len += snprintf(line + len, sizeof(line) - len, "%s", path);
	for (i = 1; argv && argv[i] && len < sizeof(line); i++)
		len += snprintf(line + len, sizeof(line) - len, " %s", argv[i]);
	for (i = 0; envp && envp[i] && len < sizeof(line); i++)
		if (!strncmp(envp[i], "ACTION=", 7) ||
		    !strncmp(envp[i], "SEQNUM=", 7))
			len += snprintf(line + len, sizeof(line) - len, " [%s]",
					envp[i]);

	spin_lock(&umh_lock);
	if (ncalls < SIM_UMH_MAX_CALLS)
		memcpy(calls[ncalls], line, sizeof(line));
	ncalls++;
	set_digest += world_mix64(
		world_digest(WORLD_DIGEST_INIT, line, strlen(line)));
	spin_unlock(&umh_lock);
	return 0;
}

int sim_umh_calls(char (*lines)[SIM_UMH_LINE], int max)
{
	int i, n;

	spin_lock(&umh_lock);
	n = ncalls < (unsigned long) max ? (int) ncalls : max;
	if (n > SIM_UMH_MAX_CALLS)
		n = SIM_UMH_MAX_CALLS;
	for (i = 0; i < n; i++)
		memcpy(lines[i], calls[i], SIM_UMH_LINE);
	spin_unlock(&umh_lock);
	return n;
}

unsigned long sim_umh_count(void)
{
	unsigned long n;

	spin_lock(&umh_lock);
	n = ncalls;
	spin_unlock(&umh_lock);
	return n;
}

u64 sim_umh_set_digest(void)
{
	u64 d;

	spin_lock(&umh_lock);
	d = set_digest;
	spin_unlock(&umh_lock);
	return d;
}

void sim_umh_reset(void)
{
	spin_lock(&umh_lock);
	ncalls = 0;
	set_digest = 0;
	spin_unlock(&umh_lock);
}
