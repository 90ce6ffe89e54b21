/*
 * linux/config.h - the configuration 2.4 code is built for here.
 *
 * arch/i386/defconfig of 2.4.0 (an SMP PC with ISA, PCI, ISA PnP and
 * networking), built as a module: what a distribution kernel of the time
 * was, so drivers take their usual paths.  Left out, each for a reason:
 * symbol versions (CONFIG_MODVERSIONS: nothing here checks them), the
 * serial console (built in only, never in a module), and the consoles
 * and block, SCSI and sound drivers the defconfig has but no tty driver
 * looks at.
 */
#ifndef _LINUX_CONFIG_H
#define _LINUX_CONFIG_H

#define CONFIG_X86 1
#define CONFIG_ISA 1
#define CONFIG_UID16 1
#define CONFIG_MODULES 1
#define CONFIG_KMOD 1
#define CONFIG_M686FXSR 1
#define CONFIG_X86_WP_WORKS_OK 1
#define CONFIG_X86_INVLPG 1
#define CONFIG_X86_CMPXCHG 1
#define CONFIG_X86_BSWAP 1
#define CONFIG_X86_POPAD_OK 1
#define CONFIG_X86_L1_CACHE_SHIFT 5
#define CONFIG_X86_TSC 1
#define CONFIG_X86_GOOD_APIC 1
#define CONFIG_X86_PGE 1
#define CONFIG_X86_FXSR 1
#define CONFIG_X86_XMM 1
#define CONFIG_NOHIGHMEM 1
#define CONFIG_SMP 1
#define CONFIG_NET 1
#define CONFIG_X86_IO_APIC 1
#define CONFIG_X86_LOCAL_APIC 1
#define CONFIG_PCI 1
#define CONFIG_PCI_GOANY 1
#define CONFIG_PCI_BIOS 1
#define CONFIG_PCI_DIRECT 1
#define CONFIG_PCI_NAMES 1
#define CONFIG_HOTPLUG 1
#define CONFIG_SYSVIPC 1
#define CONFIG_SYSCTL 1
#define CONFIG_PNP 1
#define CONFIG_ISAPNP 1
#define CONFIG_VT 1
#define CONFIG_SERIAL_MODULE 1
#define CONFIG_UNIX98_PTYS 1
#define CONFIG_UNIX98_PTY_COUNT 256
#define CONFIG_PROC_FS 1
#define CONFIG_DEVPTS_FS 1

/*
 * The options a driver's build chose on top of these (make demo SRC=:
 * what a module build of its tree would set, or CONFIG=), a header of
 * #define and #undef lines the build names.
 */
#ifdef SHIM_KCONFIG
#include SHIM_KCONFIG
#endif

#endif /* _LINUX_CONFIG_H */
