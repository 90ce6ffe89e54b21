/*
 * world/fdc.h - a simulated 82077-style floppy controller with one
 * 1.44 MB drive.
 *
 * A command (seek, recalibrate, read, write) takes simulated time: the
 * controller arms a timer, does the transfer (its "DMA") when it fires,
 * and raises its interrupt line.  Sense-interrupt-status and the result
 * phase are read synchronously, as port I/O.  Faults can be injected: an
 * interrupt that never comes, sectors that fail their CRC.
 * It uses no deferred-work API.
 */
#ifndef _WORLD_FDC_H
#define _WORLD_FDC_H

#include <linux/types.h>

#define FD_SECTSIZE 512
#define FD_SECTORS 18 /* per track */
#define FD_HEADS 2
#define FD_TRACKS 80
#define FD_TOTAL (FD_SECTORS * FD_HEADS * FD_TRACKS)

/* commands */
#define FD_RECALIBRATE 0x07
#define FD_SEEK 0x0F
#define FD_READ 0xE6
#define FD_WRITE 0xC5
#define FD_SENSEI 0x08
#define FD_VERSION 0x10

/* status bits */
#define ST0_DS 0x03	  /* drive select mask */
#define ST0_ECE 0x10	  /* equipment check error */
#define ST0_SE 0x20	  /* seek end */
#define ST0_INTR 0xC0	  /* interrupt code mask */
#define ST0_ABNORMAL 0x40 /* abnormal termination */
#define ST0_RESET 0xC0	  /* what a reset leaves */
#define ST1_ND 0x04	  /* no data: sector not found */
#define ST1_CRC 0x20	  /* data error */

#define FDC_82077 0x90 /* what FD_VERSION answers */

struct fdc_cmd {
	int op;
	int cyl, head, sector; /* sector counts from 1 */
	int count;	       /* sectors, not past the end of the track */
	unsigned char *buf;    /* the DMA buffer */
};

struct sim_fdc;

struct sim_fdc_stats {
	unsigned long commands, seeks, recals, reads, writes, resets;
	unsigned long interrupts, lost_interrupts, crc_errors;
	unsigned long sectors_read, sectors_written;
};

extern struct sim_fdc *sim_fdc_plug(unsigned int irq);
extern void sim_fdc_unplug(struct sim_fdc *fdc);
extern struct sim_fdc *sim_fdc_get(void);

/* the driver's side */
extern int sim_fdc_version(struct sim_fdc *fdc);
extern void sim_fdc_motor(struct sim_fdc *fdc, int on);
extern int sim_fdc_command(struct sim_fdc *fdc, const struct fdc_cmd *cmd);
extern int sim_fdc_sense(struct sim_fdc *fdc, unsigned char *st0,
			 unsigned char *pcn);
extern int sim_fdc_result(struct sim_fdc *fdc, unsigned char *buf, int max);
extern void sim_fdc_reset(struct sim_fdc *fdc);

/* faults: the @nth command from now gets no interrupt */
extern void sim_fdc_lose_irq(struct sim_fdc *fdc, int nth);
/*
 * The next command sent from process context (a bottom half) is done at
 * once, its interrupt raised before the command returns, and the driver
 * is then held in the command's handshake until sim_fdc_unstall(): a
 * controller slow to take the last command byte.  The driver's bottom
 * half stays running, and the one its interrupt scheduled stays queued.
 */
extern void sim_fdc_stall(struct sim_fdc *fdc);
/* sleep until a stalled command holds the driver */
extern void sim_fdc_wait_stalled(struct sim_fdc *fdc);
extern void sim_fdc_unstall(struct sim_fdc *fdc);
/* reads and writes of @lba fail with a CRC error the next @times times */
extern void sim_fdc_bad_sector(struct sim_fdc *fdc, unsigned long lba,
			       int times);

extern void sim_fdc_get_stats(struct sim_fdc *fdc, struct sim_fdc_stats *st);
extern u64 sim_fdc_image_digest(struct sim_fdc *fdc);
extern void sim_fdc_fill(struct sim_fdc *fdc,
			 u64 seed); /* a formatted, written disk */
extern void sim_fdc_peek(struct sim_fdc *fdc, unsigned long lba,
			 unsigned char *buf);

#endif /* _WORLD_FDC_H */
