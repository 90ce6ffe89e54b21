/*
 * resource.c - I/O port and memory regions, and ISA DMA channels, as 2.4
 * claimed them (kernel/resource.c, kernel/dma.c).
 *
 * Each space is a list of the regions claimed, kept in order; a request
 * overlapping one fails, a release must name a region by its exact start
 * and size (2.4 printed "Trying to free nonexistent resource" otherwise).
 * Regions are the shim's own memory, not the caller's: a module that
 * leaves one claimed leaks nothing of its own, but the region stays
 * claimed, and shim_regions_held() says so.  A request, a check and a
 * DMA channel can be made to fail as if taken (shim/fault.c).
 */
#include "shim.h"

/* the shape of 2.4's struct resource (shim/include-2.4/linux/ioport.h) */
struct resource {
	const char *name;
	unsigned long start, end;
	unsigned long flags;
	struct resource *parent, *sibling, *child;
};

#define IORESOURCE_IO 0x00000100
#define IORESOURCE_MEM 0x00000200
#define IORESOURCE_BUSY 0x80000000

struct resource ioport_resource = { "PCI IO", 0x0000, 0xffff, IORESOURCE_IO };
struct resource iomem_resource = { "PCI mem", 0x00000000, 0xffffffff,
				   IORESOURCE_MEM };

static DEFINE_SPINLOCK(resource_lock);

/* the first child of @root that ends at or after @start, and its link */
static struct resource **find_slot(struct resource *root, unsigned long start)
{
	struct resource **p = &root->child;

	while (*p && (*p)->end < start)
		p = &(*p)->sibling;
	return p;
}

static int conflicts(struct resource *root, unsigned long start,
		     unsigned long end)
{
	struct resource *r = *find_slot(root, start);

	return start < root->start || end > root->end || end < start ||
	       (r && r->start <= end);
}

int request_resource(struct resource *root, struct resource *new)
{
	struct resource **p;
	int ret = -EBUSY;

	spin_lock(&resource_lock);
	if (!conflicts(root, new->start, new->end)) {
		p = find_slot(root, new->start);
		new->sibling = *p;
		new->parent = root;
		new->child = NULL;
		*p = new;
		ret = 0;
	}
	spin_unlock(&resource_lock);
	return ret;
}

int release_resource(struct resource *old)
{
	struct resource **p;
	int ret = -EINVAL;

	spin_lock(&resource_lock);
	for (p = &old->parent->child; *p; p = &(*p)->sibling) {
		if (*p == old) {
			*p = old->sibling;
			old->parent = NULL;
			ret = 0;
			break;
		}
	}
	spin_unlock(&resource_lock);
	return ret;
}

int check_resource(struct resource *root, unsigned long start, unsigned long n)
{
	int ret;

	spin_lock(&resource_lock);
	ret = conflicts(root, start, start + n - 1) ? -EBUSY : 0;
	spin_unlock(&resource_lock);
	return ret;
}

/* "request_region(0x220, 8, \"zbox\")", or the mem_ or check_ forms */
#define fault_region(parent, call, start, n, name)                            \
	shim_fault_resource(__builtin_return_address(0),                      \
			    "%s_%sregion(%#lx, %lu%s%s%s)", (call),           \
			    (parent) == &iomem_resource ? "mem_" : "",        \
			    (start), (n), (name) ? ", \"" : "", (name) ?: "", \
			    (name) ? "\"" : "")

struct resource *__request_region(struct resource *parent, unsigned long start,
				  unsigned long n, const char *name)
{
	struct resource *res;

	if (fault_region(parent, "request", start, n, name))
		return NULL;
	res = shim_host_zalloc(sizeof(*res));
	if (!res)
		return NULL;
	res->name = name;
	res->start = start;
	res->end = start + n - 1;
	res->flags = IORESOURCE_BUSY;
	if (request_resource(parent, res)) {
		shim_host_free(res);
		return NULL;
	}
	return res;
}

int __check_region(struct resource *parent, unsigned long start,
		   unsigned long n)
{
	if (fault_region(parent, "check", start, n, NULL))
		return -EBUSY;
	return check_resource(parent, start, n);
}

void __release_region(struct resource *parent, unsigned long start,
		      unsigned long n)
{
	unsigned long end = start + n - 1;
	struct resource **p, *res = NULL;

	spin_lock(&resource_lock);
	for (p = &parent->child; *p; p = &(*p)->sibling) {
		if ((*p)->start == start && (*p)->end == end) {
			res = *p;
			*p = res->sibling;
			break;
		}
	}
	spin_unlock(&resource_lock);
	if (!res) {
		printk(KERN_WARNING "Trying to free nonexistent resource "
				    "<%04lx-%04lx>\n",
		       start, end);
		return;
	}
	shim_host_free(res);
}

/*
 * Regions claimed in port (@mem 0) or memory space, named into @buf
 * ("region zbox 0x2a0-0x2a7", "mem region ...").
 */
int shim_regions_held(int mem, char *buf, size_t len)
{
	struct resource *r, *root = mem ? &iomem_resource : &ioport_resource;
	size_t off = 0;
	int n = 0;

	if (len)
		buf[0] = 0;
	spin_lock(&resource_lock);
	for (r = root->child; r; r = r->sibling, n++)
		if (off < len)
			off += snprintf(buf + off, len - off,
					"%s%sregion %s %#lx-%#lx",
					n ? ", " : "", mem ? "mem " : "",
					r->name ? r->name : "?", r->start,
					r->end);
	spin_unlock(&resource_lock);
	return n;
}

/* ISA DMA channels (kernel/dma.c): 4 cascades the two controllers */
#define MAX_DMA_CHANNELS 8

DEFINE_SPINLOCK(dma_spin_lock);
static const char *dma_chan_busy[MAX_DMA_CHANNELS] = { [4] = "cascade" };

int request_dma(unsigned int dmanr, const char *device_id)
{
	int ret = 0;

	if (dmanr >= MAX_DMA_CHANNELS)
		return -EINVAL;
	if (shim_fault_resource(__builtin_return_address(0),
				"request_dma(%u, \"%s\")", dmanr,
				device_id ?: "?"))
		return -EBUSY;
	spin_lock(&resource_lock);
	if (dma_chan_busy[dmanr])
		ret = -EBUSY;
	else
		dma_chan_busy[dmanr] = device_id ? device_id : "?";
	spin_unlock(&resource_lock);
	return ret;
}

void free_dma(unsigned int dmanr)
{
	if (dmanr >= MAX_DMA_CHANNELS) {
		printk(KERN_WARNING "Trying to free DMA%d\n", dmanr);
		return;
	}
	spin_lock(&resource_lock);
	if (!dma_chan_busy[dmanr])
		printk(KERN_WARNING "Trying to free free DMA%d\n", dmanr);
	dma_chan_busy[dmanr] = NULL;
	spin_unlock(&resource_lock);
}

/* DMA channels taken (the cascade apart), named into @buf. */
int shim_dma_held(char *buf, size_t len)
{
	size_t off = 0;
	int i, n = 0;

	if (len)
		buf[0] = 0;
	spin_lock(&resource_lock);
	for (i = 0; i < MAX_DMA_CHANNELS; i++) {
		if (!dma_chan_busy[i] || i == 4)
			continue;
		if (off < len)
			off += snprintf(buf + off, len - off, "%sdma %d %s",
					n ? ", " : "", i, dma_chan_busy[i]);
		n++;
	}
	spin_unlock(&resource_lock);
	return n;
}
