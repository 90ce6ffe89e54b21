/* asm/softirq.h - bottom halves kept off, as 2.4 had it */
#ifndef _ASM24_SOFTIRQ_H
#define _ASM24_SOFTIRQ_H

#include <asm/hardirq.h>
#include <linux/spinlock.h>

#define cpu_bh_disable(cpu) local_bh_disable()
#define cpu_bh_enable(cpu) local_bh_enable()

#endif /* _ASM24_SOFTIRQ_H */
