/*
 * asm/byteorder.h - i386's byte order, as 2.4 code reaches it: little
 * endian, with linux/byteorder's names (swab16(), cpu_to_le32(),
 * be16_to_cpu() ...).  Written here rather than reached through a tree's
 * own, whose linux/byteorder/ the build would find as the system's.
 */
#ifndef _ASM24_BYTEORDER_H
#define _ASM24_BYTEORDER_H

#include <asm/types.h>

#define __LITTLE_ENDIAN 1234
#define __LITTLE_ENDIAN_BITFIELD
#define __BYTEORDER_HAS_U64__

#define ___constant_swab16(x)                     \
	((__u16) ((((__u16) (x) &0x00ffU) << 8) | \
		  (((__u16) (x) &0xff00U) >> 8)))
#define ___constant_swab32(x)                           \
	((__u32) ((((__u32) (x) &0x000000ffUL) << 24) | \
		  (((__u32) (x) &0x0000ff00UL) << 8) |  \
		  (((__u32) (x) &0x00ff0000UL) >> 8) |  \
		  (((__u32) (x) &0xff000000UL) >> 24)))
#define ___constant_swab64(x) ((__u64) __builtin_bswap64((__u64) (x)))

static inline __u16 __swab16(__u16 x)
{
	return __builtin_bswap16(x);
}

static inline __u32 __swab32(__u32 x)
{
	return __builtin_bswap32(x);
}

static inline __u64 __swab64(__u64 x)
{
	return __builtin_bswap64(x);
}

static inline __u16 __swab16p(const __u16 *x)
{
	return __swab16(*x);
}

static inline __u32 __swab32p(const __u32 *x)
{
	return __swab32(*x);
}

static inline __u64 __swab64p(const __u64 *x)
{
	return __swab64(*x);
}

static inline void __swab16s(__u16 *x)
{
	*x = __swab16(*x);
}

static inline void __swab32s(__u32 *x)
{
	*x = __swab32(*x);
}

static inline void __swab64s(__u64 *x)
{
	*x = __swab64(*x);
}

#define swab16 __swab16
#define swab32 __swab32
#define swab64 __swab64
#define swab16p __swab16p
#define swab32p __swab32p
#define swab64p __swab64p
#define swab16s __swab16s
#define swab32s __swab32s
#define swab64s __swab64s

#define __cpu_to_le16(x) ((__u16) (x))
#define __le16_to_cpu(x) ((__u16) (x))
#define __cpu_to_le32(x) ((__u32) (x))
#define __le32_to_cpu(x) ((__u32) (x))
#define __cpu_to_le64(x) ((__u64) (x))
#define __le64_to_cpu(x) ((__u64) (x))
#define __cpu_to_be16(x) __swab16((x))
#define __be16_to_cpu(x) __swab16((x))
#define __cpu_to_be32(x) __swab32((x))
#define __be32_to_cpu(x) __swab32((x))
#define __cpu_to_be64(x) __swab64((x))
#define __be64_to_cpu(x) __swab64((x))
#define __constant_cpu_to_le16(x) ((__u16) (x))
#define __constant_cpu_to_le32(x) ((__u32) (x))
#define __constant_cpu_to_be16(x) ___constant_swab16((x))
#define __constant_cpu_to_be32(x) ___constant_swab32((x))

#define cpu_to_le16 __cpu_to_le16
#define le16_to_cpu __le16_to_cpu
#define cpu_to_le32 __cpu_to_le32
#define le32_to_cpu __le32_to_cpu
#define cpu_to_le64 __cpu_to_le64
#define le64_to_cpu __le64_to_cpu
#define cpu_to_be16 __cpu_to_be16
#define be16_to_cpu __be16_to_cpu
#define cpu_to_be32 __cpu_to_be32
#define be32_to_cpu __be32_to_cpu
#define cpu_to_be64 __cpu_to_be64
#define be64_to_cpu __be64_to_cpu
#define le16_to_cpup(x) (*(const __u16 *) (x))
#define le32_to_cpup(x) (*(const __u32 *) (x))
#define cpu_to_le16p(x) (*(const __u16 *) (x))
#define cpu_to_le32p(x) (*(const __u32 *) (x))
/* in place */
#define cpu_to_le16s(x) ((void) (x))
#define le16_to_cpus(x) ((void) (x))
#define cpu_to_le32s(x) ((void) (x))
#define le32_to_cpus(x) ((void) (x))
#define cpu_to_be16s(x) __swab16s((x))
#define be16_to_cpus(x) __swab16s((x))
#define cpu_to_be32s(x) __swab32s((x))
#define be32_to_cpus(x) __swab32s((x))

/*
 * Network order, which linux/byteorder/generic.h gave every driver; a
 * constant stays one, for a case label (switch (ntohs(skb->protocol))).
 */
#define ___htonl(x) \
	(__builtin_constant_p(x) ? ___constant_swab32(x) : __swab32(x))
#define ___htons(x) \
	(__builtin_constant_p(x) ? ___constant_swab16(x) : __swab16(x))
#define ___ntohl(x) ___htonl(x)
#define ___ntohs(x) ___htons(x)
#define __constant_htonl(x) ___constant_swab32((x))
#define __constant_ntohl(x) ___constant_swab32((x))
#define __constant_htons(x) ___constant_swab16((x))
#define __constant_ntohs(x) ___constant_swab16((x))
#define htonl(x) ___htonl(x)
#define ntohl(x) ___ntohl(x)
#define htons(x) ___htons(x)
#define ntohs(x) ___ntohs(x)

#endif /* _ASM24_BYTEORDER_H */
