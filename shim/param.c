/*
 * param.c - boot parameters for kernel code.
 *
 * The sandbox's kernel command line is its environment: a choice a kernel
 * makes at boot (which workqueue semantics to follow, say) is an
 * environment variable, which kernel code reads here rather than from the
 * host itself (host.h).
 */
#include "shim.h"
#include <linux/init.h>

const char *shim_boot_param(const char *name)
{
	return shim_getenv(name);
}
