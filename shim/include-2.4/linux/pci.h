/*
 * linux/pci.h - the PCI bus as a 2.4 driver searches it.
 *
 * The bus is the world's (drivers/include/world/pci.h): empty unless the
 * SHIM_DEVICE line puts functions on it, so that by default a search
 * finds no device (pci_find_device() NULL, pcibios_find_device()
 * PCIBIOS_DEVICE_NOT_FOUND, pci_register_driver() claims none) and a
 * driver goes on to its ISA boards.  A function's struct pci_dev is
 * filled from the world's description once, as 2.4's PCI core did at
 * boot, and is the same object for every file of a driver.  The vendor
 * and device numbers are the user's tree's linux/pci_ids.h, when it is
 * there to be found.
 */
#ifndef _LINUX24_PCI_H
#define _LINUX24_PCI_H

#include <linux/config.h>
#include <linux/types.h>
#include <linux/list.h>
#include <linux/errno.h>
#include <linux/ioport.h>
#include <shim/fault.h>
#include <asm/types.h>
#include "../../../drivers/include/world/pci.h"
#if defined(__has_include)
#if __has_include(<linux/pci_ids.h>)
#include <linux/pci_ids.h>
#endif
#endif

/* configuration space */
#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_COMMAND_IO 0x1
#define PCI_COMMAND_MEMORY 0x2
#define PCI_COMMAND_MASTER 0x4
#define PCI_COMMAND_SPECIAL 0x8
#define PCI_COMMAND_INVALIDATE 0x10
#define PCI_COMMAND_VGA_PALETTE 0x20
#define PCI_COMMAND_PARITY 0x40
#define PCI_COMMAND_WAIT 0x80
#define PCI_COMMAND_SERR 0x100
#define PCI_COMMAND_FAST_BACK 0x200
#define PCI_STATUS 0x06
#define PCI_CLASS_REVISION 0x08
#define PCI_REVISION_ID 0x08
#define PCI_CLASS_PROG 0x09
#define PCI_CLASS_DEVICE 0x0a
#define PCI_CACHE_LINE_SIZE 0x0c
#define PCI_LATENCY_TIMER 0x0d
#define PCI_HEADER_TYPE 0x0e
#define PCI_BIST 0x0f
#define PCI_BASE_ADDRESS_0 0x10
#define PCI_BASE_ADDRESS_1 0x14
#define PCI_BASE_ADDRESS_2 0x18
#define PCI_BASE_ADDRESS_3 0x1c
#define PCI_BASE_ADDRESS_4 0x20
#define PCI_BASE_ADDRESS_5 0x24
#define PCI_BASE_ADDRESS_SPACE 0x01
#define PCI_BASE_ADDRESS_SPACE_IO 0x01
#define PCI_BASE_ADDRESS_SPACE_MEMORY 0x00
#define PCI_BASE_ADDRESS_MEM_TYPE_MASK 0x06
#define PCI_BASE_ADDRESS_MEM_TYPE_32 0x00
#define PCI_BASE_ADDRESS_MEM_TYPE_1M 0x02
#define PCI_BASE_ADDRESS_MEM_TYPE_64 0x04
#define PCI_BASE_ADDRESS_MEM_PREFETCH 0x08
#define PCI_BASE_ADDRESS_MEM_MASK (~0x0fUL)
#define PCI_BASE_ADDRESS_IO_MASK (~0x03UL)
#define PCI_SUBSYSTEM_VENDOR_ID 0x2c
#define PCI_SUBSYSTEM_ID 0x2e
#define PCI_ROM_ADDRESS 0x30
#define PCI_CAPABILITY_LIST 0x34
#define PCI_INTERRUPT_LINE 0x3c
#define PCI_INTERRUPT_PIN 0x3d
#define PCI_MIN_GNT 0x3e
#define PCI_MAX_LAT 0x3f

#define PCI_DEVFN(slot, func) ((((slot) &0x1f) << 3) | ((func) &0x07))
#define PCI_SLOT(devfn) (((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn) ((devfn) &0x07)

#define PCIBIOS_SUCCESSFUL 0x00
#define PCIBIOS_FUNC_NOT_SUPPORTED 0x81
#define PCIBIOS_BAD_VENDOR_ID 0x83
#define PCIBIOS_DEVICE_NOT_FOUND 0x86
#define PCIBIOS_BAD_REGISTER_NUMBER 0x87
#define PCIBIOS_SET_FAILED 0x88
#define PCIBIOS_BUFFER_TOO_SMALL 0x89

#ifndef PCI_ANY_ID
#define PCI_ANY_ID (~0)
#endif

#define DEVICE_COUNT_COMPATIBLE 4
#define DEVICE_COUNT_IRQ 2
#define DEVICE_COUNT_DMA 2
#define DEVICE_COUNT_RESOURCE 12

struct pci_bus;
struct pci_driver;
struct proc_dir_entry;

struct pci_dev {
	struct list_head global_list;
	struct list_head bus_list;
	struct pci_bus *bus;
	struct pci_bus *subordinate;
	void *sysdata;
	struct proc_dir_entry *procent;
	unsigned int devfn;
	unsigned short vendor;
	unsigned short device;
	unsigned short subsystem_vendor;
	unsigned short subsystem_device;
	unsigned int class;
	u8 hdr_type;
	u8 rom_base_reg;
	struct pci_driver *driver;
	void *driver_data;
	unsigned long dma_mask;
	unsigned short vendor_compatible[DEVICE_COUNT_COMPATIBLE];
	unsigned short device_compatible[DEVICE_COUNT_COMPATIBLE];
	unsigned int irq;
	struct resource resource[DEVICE_COUNT_RESOURCE];
	struct resource dma_resource[DEVICE_COUNT_DMA];
	struct resource irq_resource[DEVICE_COUNT_IRQ];
	char name[80];
	char slot_name[8];
	int active;
	int ro;
	unsigned short regs;
	int (*prepare)(struct pci_dev *dev);
	int (*activate)(struct pci_dev *dev);
	int (*deactivate)(struct pci_dev *dev);
};

struct pci_ops;

/* a bus, or an ISA PnP card (which 2.4 described as a bus) */
struct pci_bus {
	struct list_head node;
	struct pci_bus *parent;
	struct list_head children;
	struct list_head devices;
	struct pci_dev *self;
	struct resource *resource[4];
	struct pci_ops *ops;
	void *sysdata;
	struct proc_dir_entry *procdir;
	unsigned char number;
	unsigned char primary;
	unsigned char secondary;
	unsigned char subordinate;
	char name[48];
	unsigned short vendor;
	unsigned short device;
	unsigned int serial;
	unsigned char pnpver;
	unsigned char productver;
	unsigned char checksum;
	unsigned char pad1;
};

struct pci_device_id {
	unsigned int vendor, device;
	unsigned int subvendor, subdevice;
	unsigned int class, class_mask;
	unsigned long driver_data;
};

struct pci_driver {
	struct list_head node;
	char *name;
	const struct pci_device_id *id_table;
	int (*probe)(struct pci_dev *dev, const struct pci_device_id *id);
	void (*remove)(struct pci_dev *dev);
	void (*suspend)(struct pci_dev *dev);
	void (*resume)(struct pci_dev *dev);
};

/*
 * What a driver sees of a function: its pci_dev, filled once from the
 * world's description, as 2.4's PCI core filled it at boot from config
 * space, and the bus it is on.
 */
struct __pci_view {
	struct pci_dev dev;
	struct pci_bus bus;
};

static inline void __pci_fill(void *view, int fn)
{
	struct __pci_view *v = view;
	struct pci_dev *dev = &v->dev;
	unsigned int ids[SIM_PCI_NIDS];
	unsigned long bars[SIM_PCI_BARS][3];
	int b;

	if (sim_pci_describe(fn, ids, &bars[0][0]))
		return;
	INIT_LIST_HEAD(&v->bus.children);
	INIT_LIST_HEAD(&v->bus.devices);
	INIT_LIST_HEAD(&dev->global_list);
	list_add(&dev->bus_list, &v->bus.devices);
	dev->bus = &v->bus;
	dev->devfn = ids[SIM_PCI_DEVFN];
	dev->vendor = ids[SIM_PCI_VENDOR];
	dev->device = ids[SIM_PCI_DEVICE];
	dev->subsystem_vendor = ids[SIM_PCI_SUBVENDOR];
	dev->subsystem_device = ids[SIM_PCI_SUBDEVICE];
	dev->class = ids[SIM_PCI_CLASS];
	dev->irq = ids[SIM_PCI_IRQ];
	dev->dma_mask = 0xffffffff;
	dev->slot_name[0] = '0';
	dev->slot_name[1] = '0';
	dev->slot_name[2] = ':';
	dev->slot_name[3] = '0' + PCI_SLOT(dev->devfn) / 10;
	dev->slot_name[4] = '0' + PCI_SLOT(dev->devfn) % 10;
	dev->slot_name[5] = '.';
	dev->slot_name[6] = '0' + PCI_FUNC(dev->devfn);
	for (b = 0; b < SIM_PCI_BARS; b++) {
		struct resource *r = &dev->resource[b];

		if (!bars[b][1])
			continue;
		r->name = dev->name;
		r->start = bars[b][0];
		r->end = bars[b][0] + bars[b][1] - 1;
		r->flags = bars[b][2] == SIM_PCI_BAR_IO ? IORESOURCE_IO :
							  IORESOURCE_MEM;
	}
}

static inline struct pci_dev *__pci_dev(int fn)
{
	struct __pci_view *v =
		fn < 0 ? NULL : sim_pci_view(fn, sizeof(*v), __pci_fill);

	return v ? &v->dev : NULL;
}

/* the world's number of @dev, -1 for none (a search from the start) */
static inline int __pci_fn(const struct pci_dev *dev)
{
	return dev ? sim_pci_slot(dev->bus->number, dev->devfn) : -1;
}

/* reading a BAR's resource is looking at the BAR: the report says so */
#define __pci_resource(dev, bar, what) \
	(sim_pci_bar_used(__pci_fn(dev), (bar)), (dev)->resource[(bar)].what)
#define pci_resource_start(dev, bar) __pci_resource(dev, bar, start)
#define pci_resource_end(dev, bar) __pci_resource(dev, bar, end)
#define pci_resource_flags(dev, bar) __pci_resource(dev, bar, flags)
#define pci_resource_len(dev, bar)                    \
	((pci_resource_start((dev), (bar)) == 0 &&    \
	  pci_resource_end((dev), (bar)) ==           \
		  pci_resource_start((dev), (bar))) ? \
		 0 :                                  \
		 (pci_resource_end((dev), (bar)) -    \
		  pci_resource_start((dev), (bar)) + 1))

/* a machine with a PCI BIOS, whether or not a board is plugged in */
static inline int pcibios_present(void)
{
	return 1;
}
#define pci_present pcibios_present

static inline struct pci_dev *pci_find_subsys(unsigned int vendor,
					      unsigned int device,
					      unsigned int ss_vendor,
					      unsigned int ss_device,
					      const struct pci_dev *from)
{
	return __pci_dev(sim_pci_find(vendor, device, ss_vendor, ss_device, 0,
				      0, __pci_fn(from)));
}

static inline struct pci_dev *pci_find_device(unsigned int vendor,
					      unsigned int device,
					      const struct pci_dev *from)
{
	return pci_find_subsys(vendor, device, PCI_ANY_ID, PCI_ANY_ID, from);
}

/* @class: class, subclass and programming interface, as dev->class */
static inline struct pci_dev *pci_find_class(unsigned int class,
					     const struct pci_dev *from)
{
	return __pci_dev(sim_pci_find(PCI_ANY_ID, PCI_ANY_ID, PCI_ANY_ID,
				      PCI_ANY_ID, class, 0xffffff,
				      __pci_fn(from)));
}

static inline struct pci_dev *pci_find_slot(unsigned int bus,
					    unsigned int devfn)
{
	return __pci_dev(sim_pci_slot(bus, devfn));
}

#define pci_for_each_dev(dev)                                              \
	for ((dev) = pci_find_device(PCI_ANY_ID, PCI_ANY_ID, NULL); (dev); \
	     (dev) = pci_find_device(PCI_ANY_ID, PCI_ANY_ID, (dev)))

/* configuration space: a misaligned register is refused, as in 2.4 */
static inline int __pci_config(struct pci_dev *dev, int write, int where,
			       int size, unsigned int *val)
{
	if (sim_pci_config(__pci_fn(dev), write, where, size, val))
		return (where & (size - 1)) ? PCIBIOS_BAD_REGISTER_NUMBER :
					      PCIBIOS_DEVICE_NOT_FOUND;
	return PCIBIOS_SUCCESSFUL;
}

#define __PCI_READ(size, type, bytes)                                      \
	static inline int pci_read_config_##size(struct pci_dev *dev,      \
						 int where, type *val)     \
	{                                                                  \
		unsigned int v;                                            \
		int rc = __pci_config(dev, 0, where, bytes, &v);           \
                                                                           \
		if (rc == PCIBIOS_SUCCESSFUL)                              \
			*val = v;                                          \
		return rc;                                                 \
	}                                                                  \
	static inline int pcibios_read_config_##size(unsigned char bus,    \
						     unsigned char dev_fn, \
						     unsigned char where,  \
						     type *val)            \
	{                                                                  \
		struct pci_dev *dev = pci_find_slot(bus, dev_fn);          \
                                                                           \
		if (!dev)                                                  \
			return PCIBIOS_DEVICE_NOT_FOUND;                   \
		return pci_read_config_##size(dev, where, val);            \
	}
#define __PCI_WRITE(size, type, bytes)                                      \
	static inline int pci_write_config_##size(struct pci_dev *dev,      \
						  int where, type val)      \
	{                                                                   \
		unsigned int v = val;                                       \
                                                                            \
		return __pci_config(dev, 1, where, bytes, &v);              \
	}                                                                   \
	static inline int pcibios_write_config_##size(unsigned char bus,    \
						      unsigned char dev_fn, \
						      unsigned char where,  \
						      type val)             \
	{                                                                   \
		struct pci_dev *dev = pci_find_slot(bus, dev_fn);           \
                                                                            \
		if (!dev)                                                   \
			return PCIBIOS_DEVICE_NOT_FOUND;                    \
		return pci_write_config_##size(dev, where, val);            \
	}
__PCI_READ(byte, u8, 1)
__PCI_READ(word, u16, 2)
__PCI_READ(dword, u32, 4)
__PCI_WRITE(byte, u8, 1)
__PCI_WRITE(word, u16, 2)
__PCI_WRITE(dword, u32, 4)

/* the @index-th function (from 0) a search finds, as 2.4's compat.c */
static inline int __pcibios_found(struct pci_dev *dev, unsigned char *bus,
				  unsigned char *dev_fn)
{
	*bus = dev->bus->number;
	*dev_fn = dev->devfn;
	return PCIBIOS_SUCCESSFUL;
}

static inline int pcibios_find_device(unsigned short vendor,
				      unsigned short dev_id,
				      unsigned short index, unsigned char *bus,
				      unsigned char *dev_fn)
{
	struct pci_dev *dev = NULL;

	while ((dev = pci_find_device(vendor, dev_id, dev)))
		if (!index--)
			return __pcibios_found(dev, bus, dev_fn);
	return PCIBIOS_DEVICE_NOT_FOUND;
}

static inline int pcibios_find_class(unsigned int class_code,
				     unsigned short index, unsigned char *bus,
				     unsigned char *dev_fn)
{
	struct pci_dev *dev = NULL;

	while ((dev = pci_find_class(class_code, dev)))
		if (!index--)
			return __pcibios_found(dev, bus, dev_fn);
	return PCIBIOS_DEVICE_NOT_FOUND;
}

/*
 * the BIOS enabled its decoders: each kind of range it has; or, made to
 * fail (shim/fault.c), found its ranges colliding: 2.4.0's -EINVAL
 */
#define pci_enable_device(dev) __pci_enable_device((dev), __func__)

static inline int __pci_enable_device(struct pci_dev *dev, const char *caller)
{
	u16 cmd = 0, want = 0;
	int b;

	if (shim_fault_resource(NULL, "pci_enable_device(%s) from %s()",
				dev->slot_name, caller))
		return -EINVAL;
	for (b = 0; b < SIM_PCI_BARS; b++) {
		if (dev->resource[b].flags & IORESOURCE_IO)
			want |= PCI_COMMAND_IO;
		if (dev->resource[b].flags & IORESOURCE_MEM)
			want |= PCI_COMMAND_MEMORY;
	}
	if (pci_read_config_word(dev, PCI_COMMAND, &cmd))
		return -EIO;
	if ((cmd & want) != want)
		pci_write_config_word(dev, PCI_COMMAND, cmd | want);
	return 0;
}

static inline void pci_set_master(struct pci_dev *dev)
{
	u16 cmd = 0;
	u8 lat = 0;

	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	if (!(cmd & PCI_COMMAND_MASTER))
		pci_write_config_word(dev, PCI_COMMAND,
				      cmd | PCI_COMMAND_MASTER);
	/* as pcibios_set_master(): a latency timer below 16 is 64 */
	pci_read_config_byte(dev, PCI_LATENCY_TIMER, &lat);
	if (lat < 16)
		pci_write_config_byte(dev, PCI_LATENCY_TIMER, 64);
}

static inline int pci_find_capability(struct pci_dev *dev, int cap)
{
	return 0;
}

/* a table ends at an entry of no vendor, subvendor or class mask */
static inline int __pci_id_end(const struct pci_device_id *id)
{
	return !id->vendor && !id->subvendor && !id->class_mask;
}

static inline const struct pci_device_id *
pci_match_device(const struct pci_device_id *id, const struct pci_dev *dev)
{
	for (; !__pci_id_end(id); id++)
		if ((id->vendor == PCI_ANY_ID || id->vendor == dev->vendor) &&
		    (id->device == PCI_ANY_ID || id->device == dev->device) &&
		    (id->subvendor == PCI_ANY_ID ||
		     id->subvendor == dev->subsystem_vendor) &&
		    (id->subdevice == PCI_ANY_ID ||
		     id->subdevice == dev->subsystem_device) &&
		    !((id->class ^ dev->class) & id->class_mask))
			return id;
	return NULL;
}

/*
 * Each entry of the table is a search of the bus, in its order; then
 * each function no driver has is offered to probe(): those it takes
 * are counted.
 */
static inline int pci_register_driver(struct pci_driver *drv)
{
	const struct pci_device_id *id;
	struct pci_dev *dev;
	int fn, count = 0;

	for (id = drv->id_table; id && !__pci_id_end(id); id++)
		sim_pci_find(id->vendor, id->device, id->subvendor,
			     id->subdevice, id->class, id->class_mask, -1);
	for (fn = 0; (dev = __pci_dev(fn)); fn++) {
		if (dev->driver)
			continue;
		id = drv->id_table ? pci_match_device(drv->id_table, dev) :
				     NULL;
		if (drv->id_table && !id)
			continue;
		if (drv->probe && drv->probe(dev, id) >= 0) {
			dev->driver = drv;
			count++;
		}
	}
	return count;
}

static inline void pci_unregister_driver(struct pci_driver *drv)
{
	struct pci_dev *dev;
	int fn;

	for (fn = 0; (dev = __pci_dev(fn)); fn++) {
		if (dev->driver != drv)
			continue;
		if (drv->remove)
			drv->remove(dev);
		dev->driver = NULL;
	}
}

/* as 2.4's for a module: no device, the driver goes away */
static inline int pci_module_init(struct pci_driver *drv)
{
	int rc = pci_register_driver(drv);

	if (rc > 0)
		return 0;
	pci_unregister_driver(drv);
	return -ENODEV;
}

static inline void *pci_get_drvdata(struct pci_dev *pdev)
{
	return pdev->driver_data;
}

static inline void pci_set_drvdata(struct pci_dev *pdev, void *data)
{
	pdev->driver_data = data;
}

/* DMA mappings: one address space here */
#define PCI_DMA_BIDIRECTIONAL 0
#define PCI_DMA_TODEVICE 1
#define PCI_DMA_FROMDEVICE 2
#define PCI_DMA_NONE 3

#endif /* _LINUX24_PCI_H */
