/* asm/ptrace.h - the registers an interrupt saved, i386's layout in 2.4 */
#ifndef _ASM24_PTRACE_H
#define _ASM24_PTRACE_H

struct pt_regs {
	long ebx;
	long ecx;
	long edx;
	long esi;
	long edi;
	long ebp;
	long eax;
	int xds;
	int xes;
	long orig_eax;
	long eip;
	int xcs;
	long eflags;
	long esp;
	int xss;
};

#define user_mode(regs) ((VM_MASK & (regs)->eflags) || (3 & (regs)->xcs))
#define instruction_pointer(regs) ((regs)->eip)
#define VM_MASK 0x00020000

#endif /* _ASM24_PTRACE_H */
