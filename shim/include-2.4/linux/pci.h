/*
 * linux/pci.h - the PCI bus as a 2.4 driver searches it.
 *
 * The sandbox's PCI bus is present and empty: a search finds no device
 * (pci_find_device() NULL, pcibios_find_device() PCIBIOS_DEVICE_NOT_FOUND,
 * pci_register_driver() claims none), so a driver goes on to its ISA
 * boards.  The vendor and device numbers are the user's tree's
 * linux/pci_ids.h, when it is there to be found.
 */
#ifndef _LINUX24_PCI_H
#define _LINUX24_PCI_H

#include <linux/config.h>
#include <linux/types.h>
#include <linux/list.h>
#include <linux/errno.h>
#include <linux/ioport.h>
#include <asm/types.h>
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

#define pci_resource_start(dev, bar) ((dev)->resource[(bar)].start)
#define pci_resource_end(dev, bar) ((dev)->resource[(bar)].end)
#define pci_resource_flags(dev, bar) ((dev)->resource[(bar)].flags)
#define pci_resource_len(dev, bar)                    \
	((pci_resource_start((dev), (bar)) == 0 &&    \
	  pci_resource_end((dev), (bar)) ==           \
		  pci_resource_start((dev), (bar))) ? \
		 0 :                                  \
		 (pci_resource_end((dev), (bar)) -    \
		  pci_resource_start((dev), (bar)) + 1))

/* the bus is there, with nothing on it */
static inline int pcibios_present(void)
{
	return 1;
}
#define pci_present pcibios_present

static inline int pcibios_find_class(unsigned int class_code,
				     unsigned short index, unsigned char *bus,
				     unsigned char *dev_fn)
{
	return PCIBIOS_DEVICE_NOT_FOUND;
}

static inline int pcibios_find_device(unsigned short vendor,
				      unsigned short dev_id,
				      unsigned short index, unsigned char *bus,
				      unsigned char *dev_fn)
{
	return PCIBIOS_DEVICE_NOT_FOUND;
}

#define __PCIBIOS_CONFIG(op, size, type)                                     \
	static inline int pcibios_##op##_config_##size(unsigned char bus,    \
						       unsigned char dev_fn, \
						       unsigned char where,  \
						       type val)             \
	{                                                                    \
		return PCIBIOS_DEVICE_NOT_FOUND;                             \
	}
__PCIBIOS_CONFIG(read, byte, unsigned char *)
__PCIBIOS_CONFIG(read, word, unsigned short *)
__PCIBIOS_CONFIG(read, dword, unsigned int *)
__PCIBIOS_CONFIG(write, byte, unsigned char)
__PCIBIOS_CONFIG(write, word, unsigned short)
__PCIBIOS_CONFIG(write, dword, unsigned int)

static inline struct pci_dev *pci_find_device(unsigned int vendor,
					      unsigned int device,
					      const struct pci_dev *from)
{
	return NULL;
}

static inline struct pci_dev *pci_find_subsys(unsigned int vendor,
					      unsigned int device,
					      unsigned int ss_vendor,
					      unsigned int ss_device,
					      const struct pci_dev *from)
{
	return NULL;
}

static inline struct pci_dev *pci_find_class(unsigned int class,
					     const struct pci_dev *from)
{
	return NULL;
}

static inline struct pci_dev *pci_find_slot(unsigned int bus,
					    unsigned int devfn)
{
	return NULL;
}

/* no device: these are never reached with one */
#define __PCI_CONFIG(op, size, type)                                    \
	static inline int pci_##op##_config_##size(struct pci_dev *dev, \
						   int where, type val) \
	{                                                               \
		return PCIBIOS_DEVICE_NOT_FOUND;                        \
	}
__PCI_CONFIG(read, byte, u8 *)
__PCI_CONFIG(read, word, u16 *)
__PCI_CONFIG(read, dword, u32 *)
__PCI_CONFIG(write, byte, u8)
__PCI_CONFIG(write, word, u16)
__PCI_CONFIG(write, dword, u32)

static inline int pci_enable_device(struct pci_dev *dev)
{
	return -EIO;
}

static inline void pci_set_master(struct pci_dev *dev)
{
}

static inline int pci_find_capability(struct pci_dev *dev, int cap)
{
	return 0;
}

static inline int pci_register_driver(struct pci_driver *drv)
{
	return 0; /* devices claimed */
}

static inline void pci_unregister_driver(struct pci_driver *drv)
{
}

/* as 2.4's, with no device to find: the driver goes away */
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

#define pci_for_each_dev(dev) for ((dev) = NULL; (dev); (dev) = NULL)

/* DMA mappings: one address space here */
#define PCI_DMA_BIDIRECTIONAL 0
#define PCI_DMA_TODEVICE 1
#define PCI_DMA_FROMDEVICE 2
#define PCI_DMA_NONE 3

#endif /* _LINUX24_PCI_H */
