/*
 * ports/kmod.h - the kmod port's entry points, for scenarios.
 */
#ifndef _PORTS_KMOD_H
#define _PORTS_KMOD_H

struct kmod_stats {
	unsigned long helper_calls; /* call_usermodehelper() calls that ran one */
	unsigned long via_task_queue; /* ... handed to keventd and waited for */
	unsigned long from_keventd; /* ... made on keventd itself: run directly */
	unsigned long failed;	    /* ... that returned an error */
	unsigned long hotplug_events; /* events queued */
	unsigned long hotplug_done;   /* events whose helper ran */
	int concurrent;		      /* request_module() calls in progress */
};

extern int kmod_init(void);
extern void kmod_exit(void);
/* the boot has got far enough for user-mode helpers (init/main.c's flag) */
extern void kmod_set_system_running(int running);

extern int request_module(const char *module_name);
extern int call_usermodehelper(char *path, char **argv, char **envp);
/* any context: a hotplug event, its helper run from keventd */
extern int kmod_hotplug_event(const char *subsystem, const char *action);

extern void kmod_get_stats(struct kmod_stats *st);
/* wait until the hotplug events queued so far have been handled */
extern void kmod_quiesce(void);

#endif /* _PORTS_KMOD_H */
