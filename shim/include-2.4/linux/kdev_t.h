/*
 * linux/kdev_t.h - device numbers as 2.4 had them inside the kernel: a
 * 16-bit kdev_t, major in the high byte, minor in the low.
 */
#ifndef _LINUX24_KDEV_T_H
#define _LINUX24_KDEV_T_H

#define MINORBITS 8
#define MINORMASK ((1U << MINORBITS) - 1)

typedef unsigned short kdev_t;

#define MAJOR(dev) ((unsigned int) ((dev) >> MINORBITS))
#define MINOR(dev) ((unsigned int) ((dev) &MINORMASK))
#define HASHDEV(dev) ((unsigned int) (dev))
#define NODEV 0
#define MKDEV(ma, mi) (((ma) << MINORBITS) | (mi))
#define B_FREE 0xffff

/* "MA:MI" in hex, in a buffer of the caller's thread (2.4: static data) */
static inline const char *kdevname(kdev_t dev)
{
	extern int snprintf(char *, __SIZE_TYPE__, const char *, ...);
	static __thread char buffer[32];

	snprintf(buffer, sizeof(buffer), "%02x:%02x", MAJOR(dev), MINOR(dev));
	return buffer;
}

static inline unsigned int kdev_t_to_nr(kdev_t dev)
{
	return (MAJOR(dev) << 8) | MINOR(dev);
}

static inline kdev_t to_kdev_t(int dev)
{
	int major, minor;

	major = (dev >> 8);
	minor = (dev & 0xff);
	return MKDEV(major, minor);
}

#endif /* _LINUX24_KDEV_T_H */
