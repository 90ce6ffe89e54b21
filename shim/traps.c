/*
 * traps.c - a fault in kernel code is an oops.
 *
 * A driver that dereferences a bad pointer, divides by zero or hits a trap
 * instruction gets what the kernel would print, not a bare "Segmentation
 * fault": what went wrong and where, the task it happened in (a work on
 * events/1 is not a test's main thread), its preempt count.  The host
 * (host.c) catches the signal, then adds a call trace and lets the signal
 * take its default action, so the process dies of it as before and a test
 * sees the same status.
 */
#include <signal.h>
#include <string.h>

#include "shim.h"
#include <asm/page.h>

/*
 * In the signal handler: snprintf and one console write only, which take
 * no lock the fault can hold; not printk, whose lock a driver may be
 * holding when it faults.
 */
static void oops(int sig, unsigned long addr, unsigned long ip)
{
	struct task_struct *tsk = shim_current_or_null();
	char buf[512];
	int n = 0;

	switch (sig) {
	case SIGSEGV:
	case SIGBUS:
		n = snprintf(buf, sizeof(buf),
			     KERN_ALERT "Unable to handle "
					"kernel %s at virtual address %08lx\n",
			     addr < PAGE_SIZE ? "NULL pointer dereference" :
						"paging request",
			     addr);
		break;
	case SIGFPE:
		n = snprintf(buf, sizeof(buf), KERN_ALERT "divide error\n");
		break;
	case SIGILL:
		n = snprintf(buf, sizeof(buf), KERN_ALERT "invalid operand\n");
		break;
	}
	n += snprintf(buf + n, sizeof(buf) - n,
		      KERN_EMERG "Oops: %s in %s/%d, "
				 "preempt_count 0x%08lx, ip %08lx\n",
		      strsignal(sig), tsk ? tsk->comm : "(no task)",
		      tsk ? tsk->pid : 0, preempt_count(), ip);
	n += snprintf(buf + n, sizeof(buf) - n, KERN_EMERG "Call Trace:\n");
	shim_console_write(buf,
			   n < (int) sizeof(buf) ? n : (int) sizeof(buf) - 1);
	shim_ctl_crash();
}

/* at boot (init.c): from then on a fault is an oops */
void shim_traps_init(void)
{
	shim_host_traps_init(oops);
}
