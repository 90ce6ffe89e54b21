/* linux/types.h - the shim's types, and the BSD and SysV names 2.4 had */
#ifndef _LINUX24_TYPES_H
#define _LINUX24_TYPES_H

#include_next <linux/types.h>

typedef unsigned short umode_t;
typedef unsigned short nlink_t;
typedef unsigned long ino_t;
typedef unsigned short dev_t;
typedef long time_t;
typedef long clock_t;
typedef char *caddr_t;
typedef int daddr_t;
typedef int key_t;
typedef long suseconds_t;

typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
typedef unsigned char unchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

typedef u8 u_int8_t;
typedef s8 int8_t;
typedef u16 u_int16_t;
typedef s16 int16_t;
typedef u32 u_int32_t;
typedef s32 int32_t;
typedef u64 u_int64_t;
/* the C99 names 2.4 gave too; the same types as the C library's, which a
 * host file beside 2.4 code may include as well */
typedef u8 uint8_t;
typedef u16 uint16_t;
typedef u32 uint32_t;
typedef u64 uint64_t;
typedef s64 int64_t;

#endif /* _LINUX24_TYPES_H */
