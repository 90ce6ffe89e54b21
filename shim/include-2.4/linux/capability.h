/* linux/capability.h - the capabilities tty drivers test, 2.4's numbers */
#ifndef _LINUX24_CAPABILITY_H
#define _LINUX24_CAPABILITY_H

#define CAP_CHOWN 0
#define CAP_DAC_OVERRIDE 1
#define CAP_KILL 5
#define CAP_NET_ADMIN 12
#define CAP_SYS_MODULE 16
#define CAP_SYS_RAWIO 17
#define CAP_SYS_ADMIN 21
#define CAP_SYS_TTY_CONFIG 26

#endif /* _LINUX24_CAPABILITY_H */
