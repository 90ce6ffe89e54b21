/* gizmo_io.c - the gizmo driver's second file */
#include <linux/kernel.h>

#include "gizmo.h"

void gizmo_io_start(void)
{
	printk(KERN_INFO "%s: count %d, twice %d\n", __FUNCTION__, gizmo_count,
	       gizmo_twice(gizmo_count));
}
