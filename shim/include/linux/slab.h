#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

#include <linux/types.h>

#define __GFP_WAIT 0x10u /* may sleep */
#define __GFP_HIGH 0x20u
#define __GFP_IO 0x40u
#define __GFP_FS 0x80u

#define GFP_ATOMIC (__GFP_HIGH)
#define GFP_NOIO (__GFP_WAIT)
#define GFP_NOFS (__GFP_WAIT | __GFP_IO)
#define GFP_KERNEL (__GFP_WAIT | __GFP_IO | __GFP_FS)
#define GFP_USER GFP_KERNEL

/*
 * kmalloc/kfree keep count of what is outstanding, can be made to fail
 * (shim/test.h), and name their caller in diagnostics: a kfree() of memory
 * holding pending work, or memory leaked at exit.
 */
extern void *shim_kmalloc(size_t size, unsigned int gfp, const char *caller);
extern void shim_kfree(const void *p, const char *caller);

#define kmalloc(size, flags) shim_kmalloc((size), (flags), __func__)
#define kfree(p) shim_kfree((p), __func__)

static inline void *shim_kzalloc(size_t size, unsigned int gfp,
				 const char *caller)
{
	extern void *memset(void *, int, size_t);
	void *p = shim_kmalloc(size, gfp, caller);

	if (p)
		memset(p, 0, size);
	return p;
}
#define kzalloc(size, flags) shim_kzalloc((size), (flags), __func__)

/* Object caches: fixed-size kmalloc, counted the same way. */
typedef struct kmem_cache_s kmem_cache_t;

#define SLAB_HWCACHE_ALIGN 0x00002000UL

extern kmem_cache_t *
kmem_cache_create(const char *name, size_t size, size_t offset,
		  unsigned long flags,
		  void (*ctor)(void *, kmem_cache_t *, unsigned long),
		  void (*dtor)(void *, kmem_cache_t *, unsigned long));
extern int kmem_cache_destroy(kmem_cache_t *cachep);
extern void *shim_kmem_cache_alloc(kmem_cache_t *cachep, unsigned int flags,
				   const char *caller);
extern void shim_kmem_cache_free(kmem_cache_t *cachep, void *objp,
				 const char *caller);

#define kmem_cache_alloc(c, flags) shim_kmem_cache_alloc((c), (flags), __func__)
#define kmem_cache_free(c, p) shim_kmem_cache_free((c), (p), __func__)

#endif /* _LINUX_SLAB_H */
