/*
 * board.c - a made-up ISA serial board, driven as a 2.4 driver drives
 * one, for the device search's own test: nothing in the tree knows this
 * board, and the search must find, from the driver alone, a device and
 * module parameters that take it past its probe and into each of its
 * deferred-work call sites.
 *
 * The board sits where io= says (the user set its jumpers; no io=, no
 * board).  Its scratch register reads back, its identity register reads
 * BOARD_ID; reset, it tests itself until its status register says it is
 * done, and the driver waits as long as that takes.  Its line is irq=, or found by autodetection: the board
 * interrupts once its interrupt enable register is written.  In the
 * handler, the status register says whether an interrupt is pending, and
 * the acknowledge register which one, as a CD180's interrupt vector
 * does: received data (a flip pushed at the next tick, tq_timer),
 * transmitter empty (a write wakeup in the immediate bottom half) or a
 * modem change (a hangup in process context, keventd).
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/tqueue.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <world/irq.h>
#include "board.h"

#define REG_DATA 0
#define REG_IER 1
#define REG_STATUS 2 /* bit 0 set: nothing pending */
#define REG_ACK 3    /* which interrupt, read in the handler */
#define REG_MSR 5
#define REG_ID 6
#define REG_SCRATCH 7
#define BOARD_PORTS 8

#define BOARD_ID 0x4b
#define STATUS_IDLE 0x01 /* in the handler: nothing pending */
#define STATUS_BUSY 0x80 /* after a reset: testing itself */
#define ACK_RX 0x81
#define ACK_TX 0x82
#define ACK_MODEM 0x83
#define MSR_DCD 0x80
#define IER_ALL 0x0f
#define MAX_LOOPS 8

static int io;
static int irq;
BOARD_PARM(io, "i");
BOARD_PARM(irq, "i");

static struct board {
	int dcd;
	unsigned long rx, tx, hangups;
	struct tq_struct rx_task, tx_task, hangup_task;
} board;

static void rx_push(void *data)
{
	struct board *b = data;

	b->rx++;
}

static void tx_wakeup(void *data)
{
	struct board *b = data;

	b->tx++;
}

static void do_hangup(void *data)
{
	struct board *b = data;

	b->hangups++;
}

static void board_interrupt(int line, void *dev_id, struct pt_regs *regs)
{
	struct board *b = dev_id;
	int loops = 0;

	while (!(inb(io + REG_STATUS) & STATUS_IDLE) && ++loops < MAX_LOOPS) {
		unsigned char ack = inb(io + REG_ACK);

		if (ack == ACK_RX) {
			(void) inb(io + REG_DATA);
			queue_task(&b->rx_task, &tq_timer);
		} else if (ack == ACK_TX) {
			queue_task(&b->tx_task, &tq_immediate);
			mark_bh(IMMEDIATE_BH);
		} else if (ack == ACK_MODEM) {
			int dcd = !!(inb(io + REG_MSR) & MSR_DCD);

			if (b->dcd && !dcd)
				schedule_task(&b->hangup_task);
			b->dcd = dcd;
		} else {
			printk(KERN_WARNING "board: bad ack 0x%02x\n", ack);
		}
	}
}

static int board_probe(void)
{
	unsigned char v1, v2;

	outb(0x5a, io + REG_SCRATCH);
	v1 = inb(io + REG_SCRATCH);
	outb(0xa5, io + REG_SCRATCH);
	v2 = inb(io + REG_SCRATCH);
	if (v1 != 0x5a || v2 != 0xa5) {
		printk(KERN_INFO "board: none at 0x%03x\n", io);
		return -ENODEV;
	}
	v1 = inb(io + REG_ID);
	if (v1 != BOARD_ID) {
		printk(KERN_INFO "board: 0x%03x is a 0x%02x, not ours\n", io,
		       v1);
		return -ENODEV;
	}
	/* the board tests itself after a reset, and says when it is done:
	 * a driver that trusts its board waits as long as it takes */
	while (inb(io + REG_STATUS) & STATUS_BUSY)
		cpu_relax();
	if (!irq) {
		unsigned long mask = probe_irq_on();

		outb(IER_ALL, io + REG_IER);
		irq = probe_irq_off(mask);
		outb(0, io + REG_IER);
		if (irq <= 0) {
			printk(KERN_INFO "board: no interrupt line found\n");
			irq = 0;
			return -ENODEV;
		}
	}
	return 0;
}

int init_module(void)
{
	int ret;

	if (!io) {
		printk(KERN_ERR "board: say where the board is (io=)\n");
		return -ENODEV;
	}
	if (io < 0x100 || io > 0x3f8 || (io & (BOARD_PORTS - 1))) {
		printk(KERN_ERR "board: io=0x%x is no place for it\n", io);
		return -EINVAL;
	}
	ret = board_probe();
	if (ret)
		return ret;
	INIT_TQUEUE(&board.rx_task, rx_push, &board);
	INIT_TQUEUE(&board.tx_task, tx_wakeup, &board);
	INIT_TQUEUE(&board.hangup_task, do_hangup, &board);
	ret = request_irq(irq, board_interrupt, SA_SHIRQ, "board", &board);
	if (ret)
		return ret;
	board.dcd = !!(inb(io + REG_MSR) & MSR_DCD);
	outb(IER_ALL, io + REG_IER);
	board_register_driver("board");
	printk(KERN_INFO "board at 0x%03x, irq %d\n", io, irq);
	return 0;
}

void cleanup_module(void)
{
	outb(0, io + REG_IER);
	free_irq(irq, &board);
	flush_scheduled_tasks();
	board_unregister_driver("board");
}
