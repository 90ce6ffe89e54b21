/*
 * linux/isapnp.h - ISA Plug and Play as 2.4 drivers searched it: no card
 * answers here, so a search finds nothing and a driver goes on to its
 * fixed ports.
 */
#ifndef _LINUX24_ISAPNP_H
#define _LINUX24_ISAPNP_H

#include <linux/pci.h>

#define ISAPNP_VENDOR(a, b, c)                                               \
	(((((a) - 'A' + 1) & 0x3f) << 2) | ((((b) - 'A' + 1) & 0x18) >> 3) | \
	 ((((b) - 'A' + 1) & 0x07) << 13) | ((((c) - 'A' + 1) & 0x1f) << 8))
#define ISAPNP_DEVICE(x)                                                      \
	((((x) &0xf000) >> 8) | (((x) &0x0f00) >> 8) | (((x) &0x00f0) << 8) | \
	 (((x) &0x000f) << 8))
#define ISAPNP_FUNCTION(x) ISAPNP_DEVICE(x)
#define ISAPNP_ANY_ID 0xffff

/* what a card can be configured with: alternatives of ports, irqs, ... */
struct isapnp_resources;

struct isapnp_port {
	unsigned short min, max; /* base range */
	unsigned char align, size, flags, pad;
	struct isapnp_resources *res;
	struct isapnp_port *next;
};

struct isapnp_irq {
	unsigned short map; /* the lines it may use */
	unsigned char flags, pad;
	struct isapnp_resources *res;
	struct isapnp_irq *next;
};

struct isapnp_dma {
	unsigned char map, flags;
	struct isapnp_resources *res;
	struct isapnp_dma *next;
};

struct isapnp_mem {
	unsigned int min, max, align, size;
	unsigned char flags, pad;
	struct isapnp_resources *res;
	struct isapnp_mem *next;
};

struct isapnp_mem32;

struct isapnp_resources {
	unsigned short priority;
	unsigned short dependent;
	struct isapnp_port *port;
	struct isapnp_irq *irq;
	struct isapnp_dma *dma;
	struct isapnp_mem *mem;
	struct isapnp_mem32 *mem32;
	struct pci_dev *dev;
	struct isapnp_resources *alt; /* the alternatives */
	struct isapnp_resources *next;
};

#define isapnp_for_each_dev(dev) for ((dev) = NULL; (dev); (dev) = NULL)
#define isapnp_for_each_card(card) for ((card) = NULL; (card); (card) = NULL)

struct isapnp_device_id {
	unsigned short card_vendor, card_device;
	unsigned short vendor, function;
	unsigned long driver_data;
};

static inline int isapnp_present(void)
{
	return 0;
}

static inline struct pci_bus *isapnp_find_card(unsigned short vendor,
					       unsigned short device,
					       struct pci_bus *from)
{
	return NULL;
}

static inline int isapnp_activate_dev(struct pci_dev *dev, const char *name)
{
	return -ENODEV;
}

static inline struct pci_dev *isapnp_find_dev(struct pci_bus *card,
					      unsigned short vendor,
					      unsigned short function,
					      struct pci_dev *from)
{
	return NULL;
}

#endif /* _LINUX24_ISAPNP_H */
