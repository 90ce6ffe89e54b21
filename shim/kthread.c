/*
 * kthread.c - tasks: their birth, references and end; kernel threads.
 *
 * A task is a host thread with a struct task_struct.  kernel_thread()
 * starts one; a thread the shim did not start (main, a test's thread) gets
 * a task the first time it asks for current.  A task is freed when its last
 * reference goes: the kernel's task_struct outlives its thread by RCU, ours
 * by a reference count that wakers and complete_and_exit() take.
 */
#include "shim.h"
#include <linux/completion.h>

static int last_pid;
static int kthreads_running;

static struct task_struct *alloc_task(const char *comm, unsigned long flags)
{
	struct task_struct *tsk = shim_host_zalloc(sizeof(*tsk));

	if (!tsk)
		return NULL;
	tsk->state = TASK_RUNNING;
	tsk->flags = flags;
	tsk->lock_depth = -1;
	tsk->cpus_allowed = ~0UL;
	tsk->pid = __atomic_add_fetch(&last_pid, 1, __ATOMIC_RELAXED);
	snprintf(tsk->comm, sizeof(tsk->comm), "%s", comm);
	memcpy(tsk->shim_comm_shown, tsk->comm, sizeof(tsk->comm));
	atomic_set(&tsk->usage, 1);
	shim_task_born();
	return tsk;
}

void get_task_struct(struct task_struct *tsk)
{
	atomic_inc(&tsk->usage);
}

void put_task_struct(struct task_struct *tsk)
{
	if (atomic_dec_and_test(&tsk->usage))
		shim_host_free(tsk);
}

static void adopted_thread_exit(void *tsk)
{
	shim_task_gone();
	put_task_struct(tsk);
}

/*
 * current for a thread the shim did not start: a task on first use, named
 * as the host names the thread, let go when the thread ends.
 */
struct task_struct *shim_adopt_current(void)
{
	struct task_struct *tsk;
	char name[16];

	shim_thread_get_name(name, sizeof(name));
	tsk = alloc_task(name, 0);
	if (!tsk)
		shim_host_bug("calloc", ENOMEM);
	tsk->shim_thread = shim_thread_adopt(adopted_thread_exit, tsk);
	shim_set_current(tsk);
	return tsk;
}

void daemonize(void)
{
	memcpy(current->shim_comm_shown, current->comm, sizeof(current->comm));
	shim_thread_set_name(current->comm);
}

/*
 * The end of a kernel thread, whether it returned or called
 * complete_and_exit() (@comp).  It stops counting as running before @comp
 * is signalled, so whoever waits on @comp sees it gone; but it stays
 * counted awake until then, so that the waiter it wakes is counted in
 * before it is counted out: in between, a quiesce would see no task that
 * can run while the waiter is about to (shim_quiesce()).
 */
static void kthread_exit(struct task_struct *tsk, struct completion *comp)
{
	tsk->flags |= PF_EXITING;
	__atomic_store_n(&tsk->state, TASK_ZOMBIE, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&kthreads_running, 1, __ATOMIC_SEQ_CST);
	if (comp)
		complete(comp);
	shim_task_gone();
	shim_set_current(NULL);
	put_task_struct(tsk);
}

struct kthread_start {
	struct task_struct *tsk;
	int (*fn)(void *);
	void *arg;
};

static void kthread_main(void *p)
{
	struct kthread_start start = *(struct kthread_start *) p;

	shim_host_free(p);
	shim_set_current(start.tsk);
	start.fn(start.arg);
	kthread_exit(start.tsk, NULL);
}

/* The thread is gone (not counted running) before @comp is signalled. */
void complete_and_exit(struct completion *comp, long code)
{
	struct task_struct *tsk = current;

	(void) code;
	if (!(tsk->flags & PF_KTHREAD)) {
		printk(KERN_EMERG
		       "BUG: complete_and_exit() from %s/%d, which is "
		       "not a kernel thread\n",
		       tsk->comm, tsk->pid);
		BUG();
	}
	kthread_exit(tsk, comp);
	shim_thread_exit();
}

/**
 * kernel_thread - start a kernel thread running @fn(@arg)
 *
 * Returns its pid once the thread runs, or a negative errno.  It takes no
 * host signals but its own faults, and carries the caller's comm until it
 * renames itself (daemonize()).
 */
int kernel_thread(int (*fn)(void *), void *arg, unsigned long flags)
{
	struct kthread_start *start;
	struct task_struct *tsk;
	int err, pid;

	(void) flags;
	/* do_fork() allocates with GFP_KERNEL */
	might_sleep();
	if (!shim_booting && shim_fault_kthread())
		return -EAGAIN;
	if (shim_fault_resource(__builtin_return_address(0),
				"kernel_thread(%s)",
				shim_symbol_name(fn) ?: "?"))
		return -EAGAIN;

	tsk = alloc_task(current->comm, PF_KTHREAD);
	start = shim_host_zalloc(sizeof(*start));
	if (!tsk || !start) {
		if (tsk)
			shim_task_gone();
		shim_host_free(tsk);
		shim_host_free(start);
		return -ENOMEM;
	}
	start->tsk = tsk;
	start->fn = fn;
	start->arg = arg;
	pid = tsk->pid;
	get_task_struct(tsk); /* ours until the thread has started */
	__atomic_add_fetch(&kthreads_running, 1, __ATOMIC_SEQ_CST);
	err = shim_thread_create(&tsk->shim_thread, tsk->comm, kthread_main,
				 start, 0);
	if (err) {
		__atomic_sub_fetch(&kthreads_running, 1, __ATOMIC_SEQ_CST);
		shim_task_gone();
		shim_host_free(start);
		shim_host_free(tsk);
		return err;
	}
	put_task_struct(tsk);
	return pid;
}

int shim_kthreads_running(void)
{
	return __atomic_load_n(&kthreads_running, __ATOMIC_SEQ_CST);
}
