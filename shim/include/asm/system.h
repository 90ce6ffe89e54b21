#ifndef _ASM_SYSTEM_H
#define _ASM_SYSTEM_H

#include <linux/compiler.h>

/* Full, read and write barriers; on the host they are C11 fences. */
#define mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb() mb()
#define smp_rmb() rmb()
#define smp_wmb() wmb()
#define set_mb(var, value)       \
	do {                     \
		(var) = (value); \
		mb();            \
	} while (0)

#define xchg(ptr, v) __atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)
#define cmpxchg(ptr, old, new)                                       \
	({                                                           \
		__typeof__(*(ptr)) __old = (old);                    \
		__atomic_compare_exchange_n((ptr), &__old, (new), 0, \
					    __ATOMIC_SEQ_CST,        \
					    __ATOMIC_SEQ_CST);       \
		__old;                                               \
	})

/*
 * "Interrupts" are per thread: disabling them makes the thread atomic (it
 * may not sleep) until they are enabled again.  flags records the previous
 * state, as on real hardware.  A restore with interrupts enabled means
 * that something enabled them between the save and the restore (a
 * spin_unlock_irq() inside a spin_lock_irqsave() section, or flags that
 * were never saved): a warning naming the function, as the kernel's
 * CONFIG_DEBUG_IRQFLAGS gives.
 */
extern unsigned long shim_local_irq_save(void);
extern void shim_local_irq_restore(unsigned long flags);
extern void shim_local_irq_enable(void);
extern int shim_irqs_disabled(void);

#define local_irq_save(flags)                    \
	do {                                     \
		(flags) = shim_local_irq_save(); \
	} while (0)
#define local_irq_restore(flags) shim_local_irq_restore(flags)
#define local_irq_disable() ((void) shim_local_irq_save())
#define local_irq_enable() shim_local_irq_enable()
#define irqs_disabled() shim_irqs_disabled()

#endif /* _ASM_SYSTEM_H */
