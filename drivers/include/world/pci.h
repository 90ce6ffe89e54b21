/*
 * world/pci.h - a PCI bus of simulated functions, for drivers that find
 * their boards on PCI rather than at an ISA port.
 *
 * A function knows no board: it has the identity a driver asked for, a
 * class, BARs and an interrupt line; what its BARs answer is the generic
 * device's (world/device.h), as any port or memory address.  What is on
 * the bus is said by words of the SHIM_DEVICE line, so that one line
 * still replays a run:
 *
 *   pci=FN[,FN...]  a function each FN (the word may come several times)
 *   FN := ID[/CLASS][@BARS]
 *   ID := N         the N-th distinct search the driver makes (from 1):
 *                   the function appears as that search is first made,
 *                   with the vendor, device, subsystem and class it asks
 *                   for, so that it finds it
 *       | VVVV:DDDD[:SSSS:TTTT]
 *                   vendor, device (and subsystem vendor and device),
 *                   hexadecimal: on the bus from the start
 *   CLASS           24 bits, hexadecimal: class, subclass, programming
 *                   interface, as 2.4's pci_dev.class (default: the one
 *                   asked for, else 078000, "communication, other")
 *   BARS            up to six letters, BAR 0 first: i an I/O range, m a
 *                   memory range, - none (default iiiiii; a BAR not
 *                   named is none)
 *
 * A search is distinct by what it asks (vendor, device, subsystem, class
 * and mask): a driver walking the bus from one function to the next with
 * the same question asks once.  A search for anything (every id a
 * wildcard, no class) makes no function appear.  Nothing on the bus by
 * default: a driver goes on to its ISA boards, as it does today.
 *
 * Where things are: function n at bus 0, slot n + 1, function 0; I/O
 * BARs in 0x100-port blocks from 0xe000 (no ISA probe reads there; the
 * blocks at 0x?c00, where EISA ids are read, are skipped), memory BARs
 * in 4 MB blocks from 0xe0000000 (reached through ioremap(), as the
 * device's mem: space); interrupt lines 11, 10, 9, 12, 15 in turn
 * (world/irq.h's lines, shared as PCI's are).  Configuration space is
 * laid out as 2.4 read it: vendor, device, command, class, BARs (sized
 * by writing all ones, as the PCI core does), subsystem, interrupt line
 * and pin; ids and class are read-only, every other byte reads back
 * what was written (never written: 0).
 *
 * This header is plain C, included by 2.4's linux/pci.h
 * (shim/include-2.4), which builds 2.4's API on it, and by host code.
 */
#ifndef _WORLD_PCI_H
#define _WORLD_PCI_H

#define SIM_PCI_FUNCTIONS 8 /* on the bus, at most */
#define SIM_PCI_BARS 6
#define SIM_PCI_ANY 0xffffffffu /* PCI_ANY_ID */

/* what sim_pci_describe() gives, per function */
enum sim_pci_id {
	SIM_PCI_VENDOR,
	SIM_PCI_DEVICE,
	SIM_PCI_SUBVENDOR,
	SIM_PCI_SUBDEVICE,
	SIM_PCI_CLASS,
	SIM_PCI_DEVFN,
	SIM_PCI_IRQ,
	SIM_PCI_NIDS
};

/* a BAR's flags in sim_pci_describe() */
#define SIM_PCI_BAR_IO 1
#define SIM_PCI_BAR_MEM 2

/*
 * A driver's search: the first function after function @from (-1: from
 * the first) whose ids match (SIM_PCI_ANY matches any) and whose class
 * masked by @class_mask is @class; its number, or -1.  Noted as a
 * search, which a pci=N function may answer.
 */
extern int sim_pci_find(unsigned int vendor, unsigned int device,
			unsigned int subvendor, unsigned int subdevice,
			unsigned int class, unsigned int class_mask, int from);
/* the function at @bus, @devfn, or -1 */
extern int sim_pci_slot(unsigned int bus, unsigned int devfn);
/* function @fn's ids (enum sim_pci_id) and BARs (start, length, flags
 * each); 0, or -1 if there is no such function */
extern int sim_pci_describe(int fn, unsigned int *ids, unsigned long *bars);
/*
 * Configuration space of function @fn: @size bytes (1, 2, 4) at @where,
 * read into *@val or written from it.  0, or -1 (no such function, or
 * @where not aligned to @size or past 255).
 */
extern int sim_pci_config(int fn, int write, int where, int size,
			  unsigned int *val);
/* the driver looked at BAR @bar of function @fn (for the report) */
extern void sim_pci_bar_used(int fn, int bar);
/*
 * Storage of @size bytes for the kernel's own view of function @fn (its
 * struct pci_dev), the same for every caller: filled by @fill the first
 * time, zeroed before.  NULL if there is no such function.
 */
extern void *sim_pci_view(int fn, unsigned long size,
			  void (*fill)(void *view, int fn));

#ifndef __KERNEL__
#include <stddef.h>
#include <stdio.h>

/*
 * Host side: the functions the pci= words of a SHIM_DEVICE line put on
 * the bus (other words are device.c's); every search and view so far
 * forgotten.  0, or -EINVAL with why in @err (@len bytes).
 */
extern int sim_pci_configure(const char *line, char *err, size_t len);

/*
 * For SHIM_DEVICE_REPORT, the member "pci": {"searches": [[vendor,
 * device, subvendor, subdevice, class, class mask], ...] in the order
 * first made (pci=N answers the N-th), "walks": searches for anything,
 * "functions": [[vendor, device, class, BARS, BARs looked at (a mask),
 * the FN of the line that made it, from 0], ...]}, and a comma after it.
 */
extern void sim_pci_report(FILE *f);
#endif

#endif /* _WORLD_PCI_H */
