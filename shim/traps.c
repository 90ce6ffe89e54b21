/*
 * traps.c - a fault in kernel code is an oops.
 *
 * A driver that dereferences a bad pointer, divides by zero or hits a trap
 * instruction gets what the kernel would print, not a bare "Segmentation
 * fault": what went wrong and where, the task it happened in (a work on
 * events/1 is not a test's main thread), its preempt count and a call
 * trace.  Then the signal takes its default action, so the process dies of
 * it as before and a test sees the same status.
 *
 * Under a sanitizer the sanitizer's own handler reports better: none here.
 */
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <ucontext.h>
#include <unistd.h>

#include "shim.h"
#include <asm/page.h>

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)

/*
 * The boot thread's alternate stack, so that it can report its own stack
 * overflow; other threads run the handler on their own stack (an overflow
 * there dies unreported, as before).
 */
static char oops_stack[1 << 16];

static void oops_write(const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(STDERR_FILENO, s, len);

		if (n <= 0)
			return;
		s += n;
		len -= n;
	}
}

/*
 * The words the kernel used.  Only async-signal-safe calls from here on
 * but for snprintf and backtrace, which take no lock the fault can hold:
 * not printk, whose lock a driver may be holding when it faults.
 */
static void oops(int sig, siginfo_t *info, void *uctx)
{
	struct task_struct *tsk = shim_current_or_null();
	unsigned long addr = (unsigned long) info->si_addr, ip = 0;
	char buf[512];
	void *trace[32];
	int n = 0, depth;

#ifdef REG_RIP
	ip = ((ucontext_t *) uctx)->uc_mcontext.gregs[REG_RIP];
#endif
	switch (sig) {
	case SIGSEGV:
	case SIGBUS:
		n = snprintf(buf, sizeof(buf), KERN_ALERT "Unable to handle "
			     "kernel %s at virtual address %08lx\n",
			     addr < PAGE_SIZE ? "NULL pointer dereference" :
			     "paging request", addr);
		break;
	case SIGFPE:
		n = snprintf(buf, sizeof(buf), KERN_ALERT "divide error\n");
		break;
	case SIGILL:
		n = snprintf(buf, sizeof(buf), KERN_ALERT "invalid operand\n");
		break;
	}
	n += snprintf(buf + n, sizeof(buf) - n, KERN_EMERG "Oops: %s in %s/%d, "
		      "preempt_count 0x%08lx, ip %08lx\n", strsignal(sig),
		      tsk ? tsk->comm : "(no task)", tsk ? tsk->pid : 0,
		      preempt_count(), ip);
	n += snprintf(buf + n, sizeof(buf) - n, KERN_EMERG "Call Trace:\n");
	oops_write(buf, n < (int) sizeof(buf) ? n : (int) sizeof(buf) - 1);
	depth = backtrace(trace, 32);
	backtrace_symbols_fd(trace, depth, STDERR_FILENO);

	/* die of it: the default action, at once (SA_NODEFER) */
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };

/*
 * In a kernel thread, which blocks every host signal: a fault blocked
 * would kill the process with no word said.  A fault is the thread's own,
 * never the host program's, so taking it steals nothing.
 */
void shim_traps_thread_init(void)
{
	sigset_t set;
	unsigned int i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(fault_signals); i++)
		sigaddset(&set, fault_signals[i]);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* at boot (init.c): from then on a fault is an oops */
void shim_traps_init(void)
{
	struct sigaction sa = { 0 };
	stack_t ss = { .ss_sp = oops_stack, .ss_size = sizeof(oops_stack) };
	void *warm[1];
	unsigned int i;

	/* backtrace() loads libgcc on first use: not inside a handler */
	backtrace(warm, 1);
	sigaltstack(&ss, NULL);
	sa.sa_sigaction = oops;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(fault_signals); i++)
		sigaction(fault_signals[i], &sa, NULL);
}

#else

void shim_traps_init(void)
{
}

void shim_traps_thread_init(void)
{
}

#endif
