#ifndef _LINUX_THREADS_H
#define _LINUX_THREADS_H

/* CPUs beyond this many in the process's affinity mask are left offline. */
#define NR_CPUS 64

#endif /* _LINUX_THREADS_H */
