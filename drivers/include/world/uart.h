/*
 * world/uart.h - a simulated 16550-style UART.
 *
 * The driver sees registers (sim_uart_in/out, the 8250's offsets and
 * bits); the far end of the line is a thread that calls sim_uart_feed(),
 * or the UART's own transmitter in loopback mode.  The line has hardware
 * flow control: the far end never overruns the receive FIFO, it waits,
 * so every character sent reaches the driver, in order.  The interrupt is
 * level-triggered: while received data waits in the FIFO the feeder keeps
 * raising the line, as a 16550 keeps its interrupt asserted.
 *
 * Each UART has a device thread ("uart<N>") that runs the transmitter and
 * raises the transmit-holding-register-empty interrupt.
 */
#ifndef _WORLD_UART_H
#define _WORLD_UART_H

#include <linux/types.h>

/* register offsets */
#define UART_RX 0  /* In:  Receive buffer */
#define UART_TX 0  /* Out: Transmit buffer */
#define UART_IER 1 /* Out: Interrupt Enable Register */
#define UART_IIR 2 /* In:  Interrupt ID Register */
#define UART_FCR 2 /* Out: FIFO Control Register */
#define UART_LCR 3 /* Out: Line Control Register */
#define UART_MCR 4 /* Out: Modem Control Register */
#define UART_LSR 5 /* In:  Line Status Register */
#define UART_MSR 6 /* In:  Modem Status Register */

#define UART_IER_RDI 0x01  /* Enable receiver data interrupt */
#define UART_IER_THRI 0x02 /* Enable Transmitter holding register int. */
#define UART_IER_RLSI 0x04 /* Enable receiver line status interrupt */

#define UART_IIR_NO_INT 0x01 /* No interrupts pending */
#define UART_IIR_ID 0x06     /* Mask for the interrupt ID */
#define UART_IIR_THRI 0x02   /* Transmitter holding register empty */
#define UART_IIR_RDI 0x04    /* Receiver data interrupt */

#define UART_MCR_LOOP 0x10 /* Enable loopback test mode */
#define UART_MCR_OUT2 0x08 /* Out2 complement */
#define UART_MCR_RTS 0x02  /* RTS complement */
#define UART_MCR_DTR 0x01  /* DTR complement */

#define UART_LSR_TEMT 0x40 /* Transmitter empty */
#define UART_LSR_THRE 0x20 /* Transmit-hold-register empty */
#define UART_LSR_BI 0x10   /* Break interrupt indicator */
#define UART_LSR_FE 0x08   /* Frame error indicator */
#define UART_LSR_PE 0x04   /* Parity error indicator */
#define UART_LSR_OE 0x02   /* Overrun error indicator */
#define UART_LSR_DR 0x01   /* Receiver data ready */

#define SIM_UART_LINES 8
#define SIM_UART_TX_FIFO 16
#define SIM_UART_RX_FIFO_MAX 4096

struct sim_uart;

struct sim_uart_stats {
	u64 rx_accepted; /* characters the far end put into the FIFO */
	u64 rx_read;	 /* characters the driver took from it */
	u64 rx_dropped;	 /* characters lost: no driver listening */
	u64 tx_bytes;	 /* characters transmitted */
	u64 tx_digest;	 /* their digest, in order */
	u64 stalls;	 /* times the far end had to wait for room */
	u64 overruns;
};

/* hardware: plug a UART in as line @line on interrupt @irq */
extern struct sim_uart *sim_uart_plug(int line, unsigned int irq,
				      unsigned int rx_fifo, int loopback);
extern void sim_uart_unplug(struct sim_uart *u);
extern struct sim_uart *sim_uart_line(int line);
extern unsigned int sim_uart_irq(struct sim_uart *u);

/* the driver's side: port I/O */
extern unsigned char sim_uart_in(struct sim_uart *u, int reg);
extern void sim_uart_out(struct sim_uart *u, int reg, unsigned char value);

/* the far end: send @len characters; returns how many reached the UART */
extern size_t sim_uart_feed(struct sim_uart *u, const unsigned char *buf,
			    size_t len);
extern void sim_uart_get_stats(struct sim_uart *u, struct sim_uart_stats *st);

#endif /* _WORLD_UART_H */
