/*
 * pci.c - a 2.4 PCI driver on the 2.4 headers (linux/pci.h over the
 * world's bus): what its probe and remove see, for pci.c beside k24.h.
 */
#include <linux/config.h>
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/pci.h>

#include "k24.h"

static struct k24_pci *seen;

static int k24_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	u16 cmd = 0;

	seen->probed++;
	seen->driver_data = id->driver_data;
	seen->vendor = dev->vendor;
	seen->device = dev->device;
	seen->class = dev->class;
	seen->irq = dev->irq;
	seen->devfn = dev->devfn;
	seen->bar0 = pci_resource_start(dev, 0);
	seen->bar0_len = pci_resource_len(dev, 0);
	seen->bar0_flags = pci_resource_flags(dev, 0);
	seen->found_again = pci_find_device(dev->vendor, dev->device, NULL) ==
			    dev;
	if (pci_enable_device(dev))
		return -EIO;
	pci_set_master(dev);
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	seen->command = cmd;
	seen->bios[0] = pcibios_find_device(dev->vendor, dev->device, 0,
					    &seen->bios_bus, &seen->bios_devfn);
	seen->bios[1] = pcibios_find_device(dev->vendor, dev->device, 1,
					    &seen->bios_bus, &seen->bios_devfn);
	seen->misaligned = pci_read_config_word(dev, 1, &cmd);
	seen->absent = pcibios_read_config_word(0, PCI_DEVFN(31, 0), 0, &cmd);
	return 0;
}

static void k24_remove(struct pci_dev *dev)
{
	seen->removed++;
}

static struct pci_device_id k24_ids[] = {
	{ 0x1393, 0x1680, PCI_ANY_ID, PCI_ANY_ID, 0, 0, 7 },
	{ 0x11cb, 0x2000, PCI_ANY_ID, PCI_ANY_ID, 0, 0, 8 },
	{
		0,
	}
};

static struct pci_driver k24_driver = {
	name : "k24",
	id_table : k24_ids,
	probe : k24_probe,
	remove : k24_remove,
};

void k24_pci_driver(struct k24_pci *out)
{
	seen = out;
	out->init = pci_module_init(&k24_driver);
	if (!out->init)
		pci_unregister_driver(&k24_driver);
}
