#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H

/*
 * glibc never includes <linux/types.h> from the headers the shim uses, but
 * the kernel's uapi headers do; chain to the system's so both can coexist.
 */
#include_next <linux/types.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef int8_t s8;
typedef uint8_t u8;
typedef int16_t s16;
typedef uint16_t u16;
typedef int32_t s32;
typedef uint32_t u32;
typedef int64_t s64;
typedef uint64_t u64;

#endif /* _SHIM_LINUX_TYPES_H */
