/*
 * asm/system.h - interrupt control as 2.4 code has it on SMP i386.
 *
 * cli(), sti(), save_flags() and restore_flags() are the global
 * interrupt lock (shim/global_irq.c says its rules, from 2.4.0); the
 * double-underscore forms and local_irq_*() act on the calling task
 * only, as __cli/__sti on one CPU did.  Local flags are the shim's
 * (local_irq_save()'s); global ones are 2.4's 0 to 3.
 */
#ifndef _ASM24_SYSTEM_H
#define _ASM24_SYSTEM_H

#include <linux/config.h>
#include_next <asm/system.h>

extern void __global_cli(void);
extern void __global_sti(void);
extern unsigned long __global_save_flags(void);
extern void __global_restore_flags(unsigned long flags);

#define __cli() local_irq_disable()
#define __sti() local_irq_enable()
#define __save_flags(x) ((x) = shim_local_irq_save_flags())
#define __restore_flags(x) shim_local_irq_restore(x)

/* the local flag as it is, without disabling anything */
static inline unsigned long shim_local_irq_save_flags(void)
{
	unsigned long flags = shim_local_irq_save();

	if (!flags)
		local_irq_enable();
	return flags;
}

#define cli() __global_cli()
#define sti() __global_sti()
#define save_flags(x) ((x) = __global_save_flags())
#define restore_flags(x) __global_restore_flags(x)
/* not i386's in 2.4.0 (other architectures had it): the obvious pair */
#define save_and_cli(x)        \
	do {                   \
		save_flags(x); \
		cli();         \
	} while (0)
#define save_and_sti(x)        \
	do {                   \
		save_flags(x); \
		sti();         \
	} while (0)

#define safe_halt() __sti()
#define set_wmb(var, value)      \
	do {                     \
		(var) = (value); \
		wmb();           \
	} while (0)

#define HAVE_DISABLE_HLT
static inline void disable_hlt(void)
{
}

static inline void enable_hlt(void)
{
}

#endif /* _ASM24_SYSTEM_H */
