#ifndef _SHIM_LINUX_STDDEF_H
#define _SHIM_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

#endif /* _SHIM_LINUX_STDDEF_H */
