#ifndef _LINUX_DEBUGOBJECTS_H
#define _LINUX_DEBUGOBJECTS_H

#include <linux/types.h>

/*
 * A registry of live objects (pending work, armed timers...) kept outside
 * the objects themselves, as the kernel's debugobjects does: checks never
 * read the object, so they work on memory that was never initialised, and
 * kfree() can tell that it is freeing something still in use.
 */
/* Nonzero unless the program runs with SHIM_DEBUG=0. */
extern int debug_objects_enabled(void);

struct debug_obj_descr {
	const char *name;
	/* what names the object in a report (a work's routine), as later kernels */
	void *(*debug_hint)(const void *addr);
};

/* 0 if @addr was inactive and is now active, -EBUSY if already active. */
extern int debug_object_activate(void *addr, struct debug_obj_descr *descr,
				 const char *owner);
extern void debug_object_deactivate(void *addr, struct debug_obj_descr *descr);
/* The owner label given at activation if @addr is active, else NULL. */
extern const char *debug_object_active(const void *addr);
/*
 * Before a routine runs: BUG, naming it, if its work or its data lies in
 * memory kfree() has taken back (slab poisoning keeps freed memory a while).
 */
extern void debug_check_routine_memory(const void *work, const void *data,
				       void (*routine)(void *),
				       const char *queue);
/* BUG if an active object lies in [addr, addr + size), naming @caller. */
extern void debug_check_no_obj_freed(const void *addr, size_t size,
				     const char *caller);

#endif /* _LINUX_DEBUGOBJECTS_H */
