/*
 * signal.c - signals 2.4 code sends to processes: counted per signal
 * number, never delivered.  The sandbox has no processes for them to
 * reach; a scenario reads the counts (shim_signals_sent()) as what the
 * driver or the tty layer meant to tell user space.
 */
#include "shim.h"

#define NSIG_COUNTED 64

static unsigned long signals_sent[NSIG_COUNTED];

static int count(int sig)
{
	if (sig <= 0 || sig >= NSIG_COUNTED)
		return -EINVAL;
	__atomic_add_fetch(&signals_sent[sig], 1, __ATOMIC_RELAXED);
	return 0;
}

/* to a process group: -EINVAL for none (pgrp <= 0), as 2.4 */
int kill_pg(int pgrp, int sig, int priv)
{
	(void) priv;
	return pgrp <= 0 ? -EINVAL : count(sig);
}

/* to every process of a session */
int kill_sl(int sess, int sig, int priv)
{
	(void) priv;
	return sess <= 0 ? -EINVAL : count(sig);
}

int kill_proc(int pid, int sig, int priv)
{
	(void) pid;
	(void) priv;
	return count(sig);
}

int send_sig(int sig, struct task_struct *p, int priv)
{
	(void) p;
	(void) priv;
	return count(sig);
}

unsigned long shim_signals_sent(int sig)
{
	if (sig <= 0 || sig >= NSIG_COUNTED)
		return 0;
	return __atomic_load_n(&signals_sent[sig], __ATOMIC_RELAXED);
}
