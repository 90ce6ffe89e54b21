/*
 * asm/serial.h - the PC's standard serial ports, as serial.c's table of
 * 2.4 i386 had them with linux/config.h's configuration (no extra
 * multiport cards, no HUB6, no MCA): COM1 to COM4.
 */
#ifndef _ASM24_SERIAL_H
#define _ASM24_SERIAL_H

#include <linux/config.h>

/* the UART's clock over 16: the usual 1.8432 MHz crystal */
#define BASE_BAUD (1843200 / 16)

#define STD_COM_FLAGS (ASYNC_BOOT_AUTOCONF | ASYNC_SKIP_TEST)
#define STD_COM4_FLAGS ASYNC_BOOT_AUTOCONF

#define RS_TABLE_SIZE

#define C_P(card, port) (((card) << 6 | (port) << 3) + 1)

/* UART, clock, port, irq, flags */
#define STD_SERIAL_PORT_DEFNS                                           \
	{ 0, BASE_BAUD, 0x3F8, 4, STD_COM_FLAGS },	    /* ttyS0 */ \
		{ 0, BASE_BAUD, 0x2F8, 3, STD_COM_FLAGS },  /* ttyS1 */ \
		{ 0, BASE_BAUD, 0x3E8, 4, STD_COM_FLAGS },  /* ttyS2 */ \
		{ 0, BASE_BAUD, 0x2E8, 3, STD_COM4_FLAGS }, /* ttyS3 */

#define EXTRA_SERIAL_PORT_DEFNS
#define HUB6_SERIAL_PORT_DFNS
#define MCA_SERIAL_PORT_DFNS

#define SERIAL_PORT_DFNS                                                    \
	STD_SERIAL_PORT_DEFNS EXTRA_SERIAL_PORT_DEFNS HUB6_SERIAL_PORT_DFNS \
		MCA_SERIAL_PORT_DFNS

#endif /* _ASM24_SERIAL_H */
