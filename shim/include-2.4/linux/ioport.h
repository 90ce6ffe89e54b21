/*
 * linux/ioport.h - I/O port and memory regions as 2.4 claimed them.
 *
 * One table per space (ioport_resource, iomem_resource), as 2.4's
 * kernel/resource.c kept: a request that overlaps a region already
 * claimed fails (NULL; check_region() says -EBUSY), a release names the
 * region by its start and size.  What a module leaves claimed when it is
 * unloaded stays claimed, and the host can see it (shim_regions_held()).
 */
#ifndef _LINUX24_IOPORT_H
#define _LINUX24_IOPORT_H

struct pci_dev;

struct resource {
	const char *name;
	unsigned long start, end;
	unsigned long flags;
	struct resource *parent, *sibling, *child;
};

struct resource_list {
	struct resource_list *next;
	struct resource *res;
	struct pci_dev *dev;
};

#define IORESOURCE_BITS 0x000000ff
#define IORESOURCE_IO 0x00000100
#define IORESOURCE_MEM 0x00000200
#define IORESOURCE_IRQ 0x00000400
#define IORESOURCE_DMA 0x00000800
#define IORESOURCE_PREFETCH 0x00001000
#define IORESOURCE_READONLY 0x00002000
#define IORESOURCE_CACHEABLE 0x00004000
#define IORESOURCE_RANGELENGTH 0x00008000
#define IORESOURCE_SHADOWABLE 0x00010000
#define IORESOURCE_BUS_HAS_VGA 0x00080000
#define IORESOURCE_UNSET 0x20000000
#define IORESOURCE_AUTO 0x40000000
#define IORESOURCE_BUSY 0x80000000

extern struct resource ioport_resource;
extern struct resource iomem_resource;

extern int check_resource(struct resource *root, unsigned long start,
			  unsigned long n);
extern int request_resource(struct resource *root, struct resource *new);
extern int release_resource(struct resource *old);

extern struct resource *__request_region(struct resource *parent,
					 unsigned long start, unsigned long n,
					 const char *name);
extern int __check_region(struct resource *parent, unsigned long start,
			  unsigned long n);
extern void __release_region(struct resource *parent, unsigned long start,
			     unsigned long n);

#define request_region(start, n, name) \
	__request_region(&ioport_resource, (start), (n), (name))
#define request_mem_region(start, n, name) \
	__request_region(&iomem_resource, (start), (n), (name))
#define check_region(start, n) __check_region(&ioport_resource, (start), (n))
#define release_region(start, n) \
	__release_region(&ioport_resource, (start), (n))
#define check_mem_region(start, n) __check_region(&iomem_resource, (start), (n))
#define release_mem_region(start, n) \
	__release_region(&iomem_resource, (start), (n))

#endif /* _LINUX24_IOPORT_H */
