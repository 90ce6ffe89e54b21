/*
 * linux/serialP.h - the private structures of 2.4's serial driver
 * (serial.c) and those built like it: the state of a port that outlives
 * its opens (serial_state), the state of an open port (async_struct,
 * whose tqueue runs its bottom half), and the PCI board table.
 */
#ifndef _LINUX_SERIALP_H
#define _LINUX_SERIALP_H

#include <linux/config.h>
#include <linux/termios.h>
#include <linux/tqueue.h>
#include <linux/circ_buf.h>
#include <linux/wait.h>
#include <linux/serial.h>
#include <linux/spinlock.h>

struct serial_state {
	int magic;
	int baud_base;
	unsigned long port;
	int irq;
	int flags;
	int hub6;
	int type;
	int line;
	int revision; /* the 16C950's chip revision */
	int xmit_fifo_size;
	int custom_divisor;
	int count;
	u8 *iomem_base;
	u16 iomem_reg_shift;
	unsigned short close_delay;
	unsigned short closing_wait; /* time to wait before closing */
	struct async_icount icount;
	struct termios normal_termios;
	struct termios callout_termios;
	int io_type;
	struct async_struct *info;
};

struct async_struct {
	int magic;
	unsigned long port;
	int hub6;
	int flags;
	int xmit_fifo_size;
	struct serial_state *state;
	struct tty_struct *tty;
	int read_status_mask;
	int ignore_status_mask;
	int timeout;
	int quot;
	int x_char; /* xon/xoff character */
	int close_delay;
	unsigned short closing_wait;
	unsigned short closing_wait2;
	int IER; /* interrupt enable register */
	int MCR; /* modem control register */
	int LCR; /* line control register */
	int ACR; /* the 16C950's additional control register */
	unsigned long event;
	unsigned long last_active;
	int line;
	int blocked_open; /* opens waiting for carrier */
	long session;	  /* of the opening process */
	long pgrp;	  /* of the opening process */
	struct circ_buf xmit;
	spinlock_t xmit_lock;
	u8 *iomem_base;
	u16 iomem_reg_shift;
	int io_type;
	struct tq_struct tqueue;
	wait_queue_head_t open_wait;
	wait_queue_head_t close_wait;
	wait_queue_head_t delta_msr_wait;
	struct async_struct *next_port; /* on its interrupt's list */
	struct async_struct *prev_port;
};

#define CONFIGURED_SERIAL_PORT(info) ((info)->port || ((info)->iomem_base))

#define SERIAL_MAGIC 0x5301
#define SSTATE_MAGIC 0x5302

/* the events the bottom half handles */
#define RS_EVENT_WRITE_WAKEUP 0

/* how to tell which port of a multiport card interrupted */
struct rs_multiport_struct {
	int port1;
	unsigned char mask1, match1;
	int port2;
	unsigned char mask2, match2;
	int port3;
	unsigned char mask3, match3;
	int port4;
	unsigned char mask4, match4;
	int port_monitor;
};

#define ALPHA_KLUDGE_MCR 0

struct pci_dev;
struct pci_board {
	unsigned short vendor;
	unsigned short device;
	unsigned short subvendor;
	unsigned short subdevice;
	int flags;
	int num_ports;
	int base_baud;
	int uart_offset;
	int reg_shift;
	int (*init_fn)(struct pci_dev *dev, struct pci_board *board,
		       int enable);
	int first_uart_offset;
};

struct pci_board_inst {
	struct pci_board board;
	struct pci_dev *dev;
};

#ifndef PCI_ANY_ID
#define PCI_ANY_ID (~0)
#endif

/* which base address register the ports are in, and the interrupt's */
#define SPCI_FL_BASE_MASK 0x0007
#define SPCI_FL_BASE0 0x0000
#define SPCI_FL_BASE1 0x0001
#define SPCI_FL_BASE2 0x0002
#define SPCI_FL_BASE3 0x0003
#define SPCI_FL_BASE4 0x0004
#define SPCI_FL_GET_BASE(x) (x & SPCI_FL_BASE_MASK)

#define SPCI_FL_IRQ_MASK (0x0007 << 4)
#define SPCI_FL_IRQBASE0 (0x0000 << 4)
#define SPCI_FL_IRQBASE1 (0x0001 << 4)
#define SPCI_FL_IRQBASE2 (0x0002 << 4)
#define SPCI_FL_IRQBASE3 (0x0003 << 4)
#define SPCI_FL_IRQBASE4 (0x0004 << 4)
#define SPCI_FL_GET_IRQBASE(x) ((x & SPCI_FL_IRQ_MASK) >> 4)

/* each port's base from a table of BARs, rather than an offset in one */
#define SPCI_FL_BASE_TABLE 0x0100
#define SPCI_FL_IRQ_TABLE 0x0200
#define SPCI_FL_IRQRESOURCE 0x0400
#define SPCI_FL_REGION_SZ_CAP 0x0800
#define SPCI_FL_NO_SHIRQ 0x1000
#define SPCI_FL_ISPNP 0x2000
#define SPCI_FL_PNPDEFAULT (SPCI_FL_IRQRESOURCE | SPCI_FL_ISPNP)

#endif /* _LINUX_SERIALP_H */
