#ifndef _SHIM_ASM_PARAM_H
#define _SHIM_ASM_PARAM_H

/* <sys/param.h> reaches <asm/param.h> too: take the system's, then our HZ. */
#include_next <asm/param.h>

#undef HZ
#define HZ 1000

#endif /* _SHIM_ASM_PARAM_H */
