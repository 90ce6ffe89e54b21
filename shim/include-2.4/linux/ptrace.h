/* linux/ptrace.h - pt_regs, for interrupt handlers' third argument */
#ifndef _LINUX24_PTRACE_H
#define _LINUX24_PTRACE_H

#include <asm/ptrace.h>

#endif /* _LINUX24_PTRACE_H */
