/*
 * shim/fault.h - the kernel side of resource fault injection: each API
 * that hands a 2.4 module a resource (shim/fault.c lists them) asks here
 * first, and fails as 2.4 failed it when told to (shim_fail_resource_nth()
 * in shim/test.h).
 */
#ifndef _SHIM_FAULT_H
#define _SHIM_FAULT_H

/*
 * Count this request; 1 if it is the one to fail.  @fmt says what is
 * asked for, @ip (a return address, or NULL) who asked.
 */
extern int shim_fault_resource(const void *ip, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Between these, what is requested is the queue's own, asked for by
 * create_workqueue() for the module (its queue and its workers): counted
 * and failed as the rest, and counted apart too (shim_queue_requests()),
 * for a conversion that gives a driver a queue of its own asks for more
 * than the legacy driver did, by design.
 */
extern void shim_queue_requests_begin(void);
extern void shim_queue_requests_end(void);

#endif /* _SHIM_FAULT_H */
