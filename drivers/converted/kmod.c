/*
 * kmod.c - user-mode helpers started from the kernel, as of 2.5.39.
 *
 * call_usermodehelper() must start the helper from keventd, whose
 * environment is clean: it puts a task on its stack, schedules it and
 * waits for its completion.  On keventd itself it cannot wait for
 * keventd, so it runs the task's routine directly.  The routine forks a
 * kernel thread with CLONE_VFORK, which execs the helper.
 *
 * request_module() runs modprobe through call_usermodehelper() (2.5.39
 * still forked modprobe by hand; the deferred path is the same one), and
 * hotplug events, raised in any context, are queued as tasks whose
 * routine calls the hotplug helper from keventd: the current_is_keventd()
 * path.
 *
 * Nothing is exec'd: the helper's execve() is simulated and recorded
 * (world/umh.c).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <asm/atomic.h>

#include <entry/kmod.h>
#include <world/umh.h>

#ifndef SIGCHLD
#define SIGCHLD		17
#endif
#ifndef CLONE_VFORK
#define CLONE_VFORK	0x00004000
#endif

/*
	modprobe_path is set via /proc/sys.
*/
char modprobe_path[256] = "/sbin/modprobe";
char hotplug_path[256] = "/sbin/hotplug";

/* set by the boot once the root file system is there (init/main.c) */
static int system_running;

static atomic_t kmod_concurrent = ATOMIC_INIT(0);
#define MAX_KMOD_CONCURRENT 50	/* Completely arbitrary value - KAO */
static int kmod_loop_msg;

static atomic_t hotplug_seqnum = ATOMIC_INIT(0);

/* what the sandbox counts */
static atomic_t helper_calls, via_task_queue, from_keventd, helper_failed;
static atomic_t hotplug_events, hotplug_done;

/* what the helper's thread does in place of execve() */
static int exec_usermodehelper(char *program_path, char *argv[], char *envp[])
{
	return sim_usermode_exec(program_path, argv, envp);
}

struct subprocess_info {
	struct completion *complete;
	char *path;
	char **argv;
	char **envp;
	pid_t retval;
	/* the shim's kernel_thread() knows no CLONE_VFORK: the helper
	 * completes this once it has exec'd, and the parent waits for it */
	struct completion vfork_done;
};

/*
 * This is the task which runs the usermode application
 */
static int ____call_usermodehelper(void *data)
{
	struct subprocess_info *sub_info = data;
	int retval;

	strcpy(current->comm, "kmod");
	daemonize();

	retval = exec_usermodehelper(sub_info->path, sub_info->argv,
				     sub_info->envp);

	/* Exec failed? */
	if (retval)
		sub_info->retval = (pid_t)retval;
	complete(&sub_info->vfork_done);
	return 0;
}

/*
 * This is run by keventd.
 */
static void __call_usermodehelper(void *data)
{
	struct subprocess_info *sub_info = data;
	pid_t pid;

	/*
	 * CLONE_VFORK: wait until the usermode helper has execve'd successfully
	 * We need the data structures to stay around until that is done.
	 */
	init_completion(&sub_info->vfork_done);
	pid = kernel_thread(____call_usermodehelper, sub_info,
			    CLONE_VFORK | SIGCHLD);
	if (pid < 0)
		sub_info->retval = pid;
	else
		wait_for_completion(&sub_info->vfork_done);
	complete(sub_info->complete);
}

/**
 * call_usermodehelper - start a usermode application
 * @path: pathname for the application
 * @argv: null-terminated argument list
 * @envp: null-terminated environment list
 *
 * Runs a user-space application.  The application is started asynchronously.  It
 * runs as a child of keventd.  It runs with full root capabilities.  keventd silently
 * reaps the child when it exits.
 *
 * Must be called from process context.  Returns zero on success, else a negative
 * error code.
 */
int call_usermodehelper(char *path, char **argv, char **envp)
{
	DECLARE_COMPLETION(done);
	struct subprocess_info sub_info = {
		.complete	= &done,
		.path		= path,
		.argv		= argv,
		.envp		= envp,
		.retval		= 0,
	};
	DECLARE_WORK(work, __call_usermodehelper, &sub_info);

	if (!system_running)
		return -EBUSY;

	if (path[0] == '\0')
		goto out;

	atomic_inc(&helper_calls);
	if (current_is_keventd()) {
		/* We can't wait on keventd! */
		atomic_inc(&from_keventd);
		__call_usermodehelper(&sub_info);
	} else {
		atomic_inc(&via_task_queue);
		schedule_work(&work);
		wait_for_completion(&done);
	}
	if (sub_info.retval)
		atomic_inc(&helper_failed);
out:
	return sub_info.retval;
}

/**
 * request_module - try to load a kernel module
 * @module_name: Name of module
 *
 * Load a module using the user mode module loader. The function returns
 * zero on success or a negative errno code on failure. Note that a
 * successful module load does not mean the module did not then unload
 * and exit on an error of its own. Callers must check that the service
 * they requested is now available not blindly invoke it.
 */
int request_module(const char *module_name)
{
	static char *envp[] = { "HOME=/",
				"TERM=linux",
				"PATH=/sbin:/usr/sbin:/bin:/usr/bin",
				NULL };
	char *argv[] = { modprobe_path, "-s", "-k", "--",
			 (char *) module_name, NULL };
	int ret;

	if (!system_running)
		return -EPERM;

	/* If modprobe needs a service that is in a module, we get a recursive
	 * loop.  Limit the number of running kmod threads to max_threads/2 or
	 * MAX_KMOD_CONCURRENT, whichever is the smaller.  A cleaner method
	 * would be to run the parents of this process, counting how many times
	 * kmod was invoked.  That would mean accessing the internals of the
	 * process tables to get the command line, proc_pid_cmdline is static
	 * and it is not worth changing the proc code just to handle this case.
	 * KAO.
	 */
	if (atomic_inc_return(&kmod_concurrent) > MAX_KMOD_CONCURRENT) {
		/* We may be blaming an innocent here, but unlikely */
		if (kmod_loop_msg++ < 5)
			printk(KERN_ERR
			       "kmod: runaway modprobe loop assumed and stopped\n");
		atomic_dec(&kmod_concurrent);
		return -ENOMEM;
	}

	ret = call_usermodehelper(modprobe_path, argv, envp);
	if (ret != 0)
		printk(KERN_ERR "request_module[%s]: not ready (error %d)\n",
		       module_name, ret);
	atomic_dec(&kmod_concurrent);
	return ret;
}

/*
 * A hotplug event: raised wherever a device comes or goes, often in
 * interrupt context, so the helper is started later, from keventd.
 */
struct hotplug_event {
	struct work_struct work;
	char subsystem[32];
	char action[16];
	int seqnum;
};

static void hotplug_event_routine(void *data)
{
	struct hotplug_event *ev = data;
	char *argv[3], *envp[6];
	char action_env[32], seq_env[32];
	int ret;

	argv[0] = hotplug_path;
	argv[1] = ev->subsystem;
	argv[2] = NULL;

	snprintf(action_env, sizeof(action_env), "ACTION=%s", ev->action);
	snprintf(seq_env, sizeof(seq_env), "SEQNUM=%d", ev->seqnum);
	envp[0] = "HOME=/";
	envp[1] = "PATH=/sbin:/bin:/usr/sbin:/usr/bin";
	envp[2] = action_env;
	envp[3] = seq_env;
	envp[4] = NULL;

	ret = call_usermodehelper(argv[0], argv, envp);
	if (ret)
		printk(KERN_DEBUG "hotplug %s %s: error %d\n", ev->subsystem,
		       ev->action, ret);
	atomic_inc(&hotplug_done);
	kfree(ev);
}

int kmod_hotplug_event(const char *subsystem, const char *action)
{
	struct hotplug_event *ev;

	ev = kmalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return -ENOMEM;
	snprintf(ev->subsystem, sizeof(ev->subsystem), "%s", subsystem);
	snprintf(ev->action, sizeof(ev->action), "%s", action);
	ev->seqnum = atomic_inc_return(&hotplug_seqnum);
	INIT_WORK(&ev->work, hotplug_event_routine, ev);
	atomic_inc(&hotplug_events);
	schedule_work(&ev->work);
	return 0;
}

void kmod_set_system_running(int running)
{
	system_running = running;
}

void kmod_get_stats(struct kmod_stats *st)
{
	st->helper_calls = atomic_read(&helper_calls);
	st->via_task_queue = atomic_read(&via_task_queue);
	st->from_keventd = atomic_read(&from_keventd);
	st->failed = atomic_read(&helper_failed);
	st->hotplug_events = atomic_read(&hotplug_events);
	st->hotplug_done = atomic_read(&hotplug_done);
	st->concurrent = atomic_read(&kmod_concurrent);
}

/* wait until the hotplug events queued so far have been handled */
void kmod_quiesce(void)
{
	flush_scheduled_work();
}

int __init kmod_init(void)
{
	atomic_set(&helper_calls, 0);
	atomic_set(&via_task_queue, 0);
	atomic_set(&from_keventd, 0);
	atomic_set(&helper_failed, 0);
	atomic_set(&hotplug_events, 0);
	atomic_set(&hotplug_done, 0);
	atomic_set(&hotplug_seqnum, 0);
	return 0;
}

void __exit kmod_exit(void)
{
	/* no hotplug event may still hold its memory */
	flush_scheduled_work();
	system_running = 0;
}

EXPORT_SYMBOL(call_usermodehelper);
EXPORT_SYMBOL(request_module);

MODULE_LICENSE("GPL");
