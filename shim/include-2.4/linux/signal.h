/* linux/signal.h - 2.4's signal sets, on asm/signal.h's numbers */
#ifndef _LINUX24_SIGNAL_H
#define _LINUX24_SIGNAL_H

#include <asm/signal.h>

static inline void sigaddset(sigset_t *set, int sig)
{
	sig--;
	set->sig[sig / _NSIG_BPW] |= 1UL << (sig % _NSIG_BPW);
}

static inline void sigdelset(sigset_t *set, int sig)
{
	sig--;
	set->sig[sig / _NSIG_BPW] &= ~(1UL << (sig % _NSIG_BPW));
}

static inline int sigismember(sigset_t *set, int sig)
{
	sig--;
	return 1 & (set->sig[sig / _NSIG_BPW] >> (sig % _NSIG_BPW));
}

static inline void sigemptyset(sigset_t *set)
{
	set->sig[0] = 0;
	set->sig[1] = 0;
}

static inline void sigfillset(sigset_t *set)
{
	set->sig[0] = -1UL;
	set->sig[1] = -1UL;
}

#define sigmask(sig) (1UL << ((sig) -1))

#endif /* _LINUX24_SIGNAL_H */
