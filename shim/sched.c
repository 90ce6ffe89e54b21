/*
 * sched.c - tasks, current, the sleep/wake protocol and kernel threads.
 *
 * A task is a host thread with a struct task_struct.  Sleeping follows the
 * kernel's protocol: a task marks itself sleeping (set_current_state), tests
 * its condition, then calls schedule().  A waker sets the task back to
 * TASK_RUNNING and bumps its wake sequence; schedule() sleeps on that
 * sequence (a futex) only while the state is not TASK_RUNNING, reading the
 * sequence before the state, so a wake-up that lands between
 * set_current_state() and schedule() makes schedule() return at once.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"
#include <linux/completion.h>
#include <linux/preempt.h>
#include <shim/test.h>

struct shim_thread {
	pthread_t thread;
	unsigned int started;		/* futex word: the thread is running */
	int (*fn)(void *);
	void *arg;
};

__thread unsigned long shim_preempt;
static __thread struct task_struct *shim_current;

static pthread_key_t task_key;
static pthread_once_t task_key_once = PTHREAD_ONCE_INIT;
static int last_pid;
static int kthreads_running;

unsigned long shim_preempt_count(void)
{
	return shim_preempt;
}

void shim_preempt_add(unsigned long val)
{
	shim_preempt += val;
}

void shim_preempt_sub(unsigned long val)
{
	/* each field of the count is a byte: val * 0xff masks val's field */
	if (unlikely((shim_preempt & (val * 0xff)) < val)) {
		printk(KERN_EMERG "BUG: preempt count underflow in %s/%d: "
		       "0x%08lx - 0x%08lx (unlock without lock?)\n",
		       current->comm, current->pid, shim_preempt, val);
		BUG();
	}
	shim_preempt -= val;
}

unsigned long shim_local_irq_save(void)
{
	unsigned long flags = shim_preempt & IRQSOFF_OFFSET;

	shim_preempt |= IRQSOFF_OFFSET;
	return flags;
}

void shim_local_irq_restore(unsigned long flags)
{
	shim_preempt = (shim_preempt & ~IRQSOFF_OFFSET) | (flags & IRQSOFF_OFFSET);
}

int shim_irqs_disabled(void)
{
	return (shim_preempt & IRQSOFF_OFFSET) != 0;
}

void shim_set_thread_name(const char *comm)
{
	char name[16];

	/* the host keeps 15 characters; the kernel's comm has 16 with NUL */
	snprintf(name, sizeof(name), "%.15s", comm);
	pthread_setname_np(pthread_self(), name);
}

static void show_comm(struct task_struct *tsk)
{
	memcpy(tsk->shim_comm_shown, tsk->comm, sizeof(tsk->comm));
	shim_set_thread_name(tsk->comm);
}

static struct task_struct *alloc_task(const char *comm, unsigned long flags)
{
	struct task_struct *tsk = calloc(1, sizeof(*tsk) + sizeof(struct shim_thread));

	if (!tsk)
		return NULL;
	tsk->state = TASK_RUNNING;
	tsk->flags = flags;
	tsk->pid = __atomic_add_fetch(&last_pid, 1, __ATOMIC_RELAXED);
	snprintf(tsk->comm, sizeof(tsk->comm), "%s", comm);
	memcpy(tsk->shim_comm_shown, tsk->comm, sizeof(tsk->comm));
	atomic_set(&tsk->usage, 1);
	tsk->shim_host = tsk + 1;
	return tsk;
}

void get_task_struct(struct task_struct *tsk)
{
	atomic_inc(&tsk->usage);
}

void put_task_struct(struct task_struct *tsk)
{
	if (atomic_dec_and_test(&tsk->usage))
		free(tsk);
}

static void adopted_thread_exit(void *tsk)
{
	put_task_struct(tsk);
}

static void make_task_key(void)
{
	int err = pthread_key_create(&task_key, adopted_thread_exit);

	if (err)
		shim_host_bug("pthread_key_create", err);
}

/*
 * current for a thread the shim did not start (main, a test's pthread):
 * give it a task on first use, named as the host names the thread.
 */
static struct task_struct *adopt_current(void)
{
	struct task_struct *tsk;
	char name[16] = "host";
	int err;

	pthread_once(&task_key_once, make_task_key);
	pthread_getname_np(pthread_self(), name, sizeof(name));
	tsk = alloc_task(name, 0);
	if (!tsk)
		shim_host_bug("calloc", ENOMEM);
	((struct shim_thread *) tsk->shim_host)->thread = pthread_self();
	err = pthread_setspecific(task_key, tsk);
	if (err)
		shim_host_bug("pthread_setspecific", err);
	shim_current = tsk;
	return tsk;
}

/* current, without adopting a thread that has none (for the oops handler) */
struct task_struct *shim_current_or_null(void)
{
	return shim_current;
}

struct task_struct *shim_get_current(void)
{
	struct task_struct *tsk = shim_current;

	return likely(tsk) ? tsk : adopt_current();
}

void __might_sleep(const char *func)
{
	if (unlikely(shim_preempt)) {
		printk(KERN_ERR "BUG: sleeping function called from invalid "
		       "context: %s() in %s/%d, preempt_count 0x%08lx\n",
		       func, current->comm, current->pid, shim_preempt);
		BUG();
	}
}

void schedule(void)
{
	struct task_struct *tsk = current;
	uint32_t seq;

	if (unlikely(shim_preempt)) {
		printk(KERN_ERR "BUG: scheduling while atomic: %s/%d/0x%08lx\n",
		       tsk->comm, tsk->pid, shim_preempt);
		BUG();
	}
	if (unlikely(memcmp(tsk->comm, tsk->shim_comm_shown, sizeof(tsk->comm))))
		show_comm(tsk);

	if (__atomic_load_n(&tsk->state, __ATOMIC_SEQ_CST) == TASK_RUNNING) {
		/* schedule() while runnable only gives up the CPU */
		sched_yield();
		return;
	}
	for (;;) {
		seq = __atomic_load_n(&tsk->shim_wake_seq, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&tsk->state, __ATOMIC_SEQ_CST) == TASK_RUNNING)
			break;
		shim_futex_wait(&tsk->shim_wake_seq, seq, NULL);
	}
}

/*
 * Waking is two steps.  Marking makes @p runnable if its state is in
 * @mode (the decision, taken under whatever lock the waker holds) and
 * takes a reference, since once runnable @p may run, exit and be freed
 * (the kernel's task_struct outlives its waker by RCU; ours is freed at
 * thread exit).  Kicking bumps its wake sequence, wakes the host thread
 * and drops the reference; it is best done after the waker has dropped
 * its locks, or the woken thread runs at once into the lock still held
 * (Linux defers its wake-ups with wake_q for the same reason).
 */
int shim_wake_mark(struct task_struct *p, long mode)
{
	long state;

	/* order the waker's condition store before its read of the state */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	state = __atomic_load_n(&p->state, __ATOMIC_SEQ_CST);
	if (!(state & mode))
		return 0;
	get_task_struct(p);
	do {
		if (!(state & mode)) {
			put_task_struct(p);
			return 0;
		}
	} while (!__atomic_compare_exchange_n(&p->state, &state, TASK_RUNNING,
					      0, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	return 1;
}

void shim_wake_kick(struct task_struct *p)
{
	__atomic_add_fetch(&p->shim_wake_seq, 1, __ATOMIC_SEQ_CST);
	shim_futex_wake(&p->shim_wake_seq, 1);
	put_task_struct(p);
}

int shim_try_to_wake_up(struct task_struct *p, long mode)
{
	if (!shim_wake_mark(p, mode))
		return 0;
	shim_wake_kick(p);
	return 1;
}

/* Mark @p for waking; kicked now if the queue is full, else by wake_up_q(). */
int wake_q_add(struct wake_q_head *q, struct task_struct *p, long mode)
{
	if (!shim_wake_mark(p, mode))
		return 0;
	if (q->nr < WAKE_Q_MAX)
		q->tasks[q->nr++] = p;
	else
		shim_wake_kick(p);
	return 1;
}

void wake_up_q(struct wake_q_head *q)
{
	int i;

	for (i = 0; i < q->nr; i++)
		shim_wake_kick(q->tasks[i]);
	q->nr = 0;
}

int wake_up_process(struct task_struct *p)
{
	return shim_try_to_wake_up(p, TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE |
				   TASK_STOPPED);
}

static void process_timeout(unsigned long data)
{
	wake_up_process((struct task_struct *) data);
}

signed long schedule_timeout(signed long timeout)
{
	struct timer_list timer;
	unsigned long expire;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		printk(KERN_ERR "schedule_timeout: wrong timeout value %lx in %s/%d\n",
		       (unsigned long) timeout, current->comm, current->pid);
		set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + timeout;
	init_timer(&timer);
	timer.expires = expire;
	timer.data = (unsigned long) current;
	timer.function = process_timeout;
	add_timer(&timer);
	schedule();
	del_timer_sync(&timer);

	timeout = expire - jiffies;
	return timeout < 0 ? 0 : timeout;
}

void yield(void)
{
	set_current_state(TASK_RUNNING);
	sched_yield();
}

void daemonize(void)
{
	show_comm(current);
}

int set_cpus_allowed(struct task_struct *p, unsigned long new_mask)
{
	struct shim_thread *host = p->shim_host;
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if ((new_mask & (1UL << cpu)) && cpu_online(cpu))
			CPU_SET(cpu, &set);
	if (!CPU_COUNT(&set))
		return -EINVAL;
	return -pthread_setaffinity_np(host->thread, sizeof(set), &set);
}

/* The end of a kernel thread, whether it returned or called complete_and_exit. */
static void kthread_exit(struct task_struct *tsk)
{
	tsk->flags |= PF_EXITING;
	__atomic_store_n(&tsk->state, TASK_ZOMBIE, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&kthreads_running, 1, __ATOMIC_SEQ_CST);
	shim_current = NULL;
	put_task_struct(tsk);
}

static void *kthread_main(void *arg)
{
	struct task_struct *tsk = arg;
	struct shim_thread *host = tsk->shim_host;

	host->thread = pthread_self();
	shim_current = tsk;
	shim_traps_thread_init();
	/* kernel_thread() returns once the thread has its host identity */
	__atomic_store_n(&host->started, 1, __ATOMIC_RELEASE);
	shim_futex_wake(&host->started, 1);
	host->fn(host->arg);
	kthread_exit(tsk);
	return NULL;
}

/*
 * The thread is gone (not counted, its task unreferenced) before @comp is
 * signalled, so whoever waits on @comp sees it gone.
 */
void complete_and_exit(struct completion *comp, long code)
{
	struct task_struct *tsk = current;

	(void) code;
	if (!(tsk->flags & PF_KTHREAD)) {
		printk(KERN_EMERG "BUG: complete_and_exit() from %s/%d, which is "
		       "not a kernel thread\n", tsk->comm, tsk->pid);
		BUG();
	}
	get_task_struct(tsk);		/* complete() may still wake through it */
	kthread_exit(tsk);
	if (comp)
		complete(comp);
	put_task_struct(tsk);
	pthread_exit(NULL);
}

int kernel_thread(int (*fn)(void *), void *arg, unsigned long flags)
{
	struct task_struct *tsk;
	struct shim_thread *host;
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t thread;
	int err, pid;

	(void) flags;
	if (!shim_booting && shim_fault_kthread())
		return -EAGAIN;

	tsk = alloc_task(current->comm, PF_KTHREAD);
	if (!tsk)
		return -ENOMEM;
	host = tsk->shim_host;
	host->fn = fn;
	host->arg = arg;
	pid = tsk->pid;
	get_task_struct(tsk);		/* ours until the thread has started */

	/*
	 * Kernel threads take no host signals: a SIGCHLD or SIGINT is the
	 * host program's (the seed's keventd reaped children on SIGCHLD; here
	 * that would steal the program's own).  Their own faults they take
	 * (traps.c).
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	__atomic_add_fetch(&kthreads_running, 1, __ATOMIC_SEQ_CST);
	err = pthread_create(&thread, &attr, kthread_main, tsk);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		__atomic_sub_fetch(&kthreads_running, 1, __ATOMIC_SEQ_CST);
		free(tsk);
		return -err;
	}
	while (!__atomic_load_n(&host->started, __ATOMIC_ACQUIRE))
		shim_futex_wait(&host->started, 0, NULL);
	put_task_struct(tsk);
	return pid;
}

int shim_kthreads_running(void)
{
	return __atomic_load_n(&kthreads_running, __ATOMIC_SEQ_CST);
}
