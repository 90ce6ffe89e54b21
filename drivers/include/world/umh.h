/*
 * world/umh.h - the simulated user-mode side of kmod: execve() of a
 * helper is recorded, never done.  "/sbin/modprobe" and "/sbin/hotplug"
 * exist; any other path fails with -ENOENT.
 */
#ifndef _WORLD_UMH_H
#define _WORLD_UMH_H

#include <linux/types.h>

#define SIM_UMH_MAX_CALLS 1024
#define SIM_UMH_LINE 160

/* in the helper's own thread: "exec" @path; 0, or -errno if it does not exist */
extern int sim_usermode_exec(const char *path, char **argv, char **envp);
/* the calls so far as "path arg... [ACTION=.. SEQNUM=..]", oldest first */
extern int sim_umh_calls(char (*lines)[SIM_UMH_LINE], int max);
extern unsigned long sim_umh_count(void);
extern u64 sim_umh_set_digest(void); /* order-independent */
extern void sim_umh_reset(void);

#endif /* _WORLD_UMH_H */
