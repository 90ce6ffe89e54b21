/* linux/sysrq.h - the magic SysRq key: not configured (linux/config.h) */
#ifndef _LINUX24_SYSRQ_H
#define _LINUX24_SYSRQ_H

struct pt_regs;
struct kbd_struct;
struct tty_struct;

static inline void handle_sysrq(int key, struct pt_regs *pt_regs,
				struct kbd_struct *kbd, struct tty_struct *tty)
{
}

#endif /* _LINUX24_SYSRQ_H */
