/*
 * asm/dma.h - the PC's ISA DMA controllers (two 8237s), as 2.4 i386
 * drivers programmed them: through their ports, so the device sees every
 * write.  Channels are claimed in a table (request_dma(), shim/resource.c).
 */
#ifndef _ASM24_DMA_H
#define _ASM24_DMA_H

#include <linux/config.h>
#include <linux/spinlock.h>
#include <asm/io.h>

#define dma_outb outb
#define dma_inb inb

#define MAX_DMA_CHANNELS 8
#define MAX_DMA_ADDRESS (PAGE_OFFSET + 0x1000000)

#define IO_DMA1_BASE 0x00
#define IO_DMA2_BASE 0xC0

#define DMA1_CMD_REG 0x08
#define DMA1_STAT_REG 0x08
#define DMA1_REQ_REG 0x09
#define DMA1_MASK_REG 0x0A
#define DMA1_MODE_REG 0x0B
#define DMA1_CLEAR_FF_REG 0x0C
#define DMA1_TEMP_REG 0x0D
#define DMA1_RESET_REG 0x0D
#define DMA1_CLR_MASK_REG 0x0E
#define DMA1_MASK_ALL_REG 0x0F

#define DMA2_CMD_REG 0xD0
#define DMA2_STAT_REG 0xD0
#define DMA2_REQ_REG 0xD2
#define DMA2_MASK_REG 0xD4
#define DMA2_MODE_REG 0xD6
#define DMA2_CLEAR_FF_REG 0xD8
#define DMA2_TEMP_REG 0xDA
#define DMA2_RESET_REG 0xDA
#define DMA2_CLR_MASK_REG 0xDC
#define DMA2_MASK_ALL_REG 0xDE

#define DMA_MODE_READ 0x44
#define DMA_MODE_WRITE 0x48
#define DMA_MODE_CASCADE 0xC0
#define DMA_AUTOINIT 0x10

extern spinlock_t dma_spin_lock;

static inline unsigned long claim_dma_lock(void)
{
	unsigned long flags;

	spin_lock_irqsave(&dma_spin_lock, flags);
	return flags;
}

static inline void release_dma_lock(unsigned long flags)
{
	spin_unlock_irqrestore(&dma_spin_lock, flags);
}

static inline void enable_dma(unsigned int dmanr)
{
	if (dmanr <= 3)
		dma_outb(dmanr, DMA1_MASK_REG);
	else
		dma_outb(dmanr & 3, DMA2_MASK_REG);
}

static inline void disable_dma(unsigned int dmanr)
{
	if (dmanr <= 3)
		dma_outb(dmanr | 4, DMA1_MASK_REG);
	else
		dma_outb((dmanr & 3) | 4, DMA2_MASK_REG);
}

static inline void clear_dma_ff(unsigned int dmanr)
{
	if (dmanr <= 3)
		dma_outb(0, DMA1_CLEAR_FF_REG);
	else
		dma_outb(0, DMA2_CLEAR_FF_REG);
}

static inline void set_dma_mode(unsigned int dmanr, char mode)
{
	if (dmanr <= 3)
		dma_outb(mode | dmanr, DMA1_MODE_REG);
	else
		dma_outb(mode | (dmanr & 3), DMA2_MODE_REG);
}

/* the page registers of channels 0 to 7 */
static inline unsigned int __dma_page_reg(unsigned int dmanr)
{
	static const unsigned char reg[8] = { 0x87, 0x83, 0x81, 0x82,
					      0x8F, 0x8B, 0x89, 0x8A };

	return reg[dmanr & 7];
}

static inline void set_dma_page(unsigned int dmanr, char pagenr)
{
	dma_outb(pagenr, __dma_page_reg(dmanr));
}

static inline void set_dma_addr(unsigned int dmanr, unsigned int a)
{
	set_dma_page(dmanr, a >> 16);
	if (dmanr <= 3) {
		dma_outb(a & 0xff, ((dmanr & 3) << 1) + IO_DMA1_BASE);
		dma_outb((a >> 8) & 0xff, ((dmanr & 3) << 1) + IO_DMA1_BASE);
	} else {
		dma_outb((a >> 1) & 0xff, ((dmanr & 3) << 2) + IO_DMA2_BASE);
		dma_outb((a >> 9) & 0xff, ((dmanr & 3) << 2) + IO_DMA2_BASE);
	}
}

static inline void set_dma_count(unsigned int dmanr, unsigned int count)
{
	count--;
	if (dmanr <= 3) {
		dma_outb(count & 0xff, ((dmanr & 3) << 1) + 1 + IO_DMA1_BASE);
		dma_outb((count >> 8) & 0xff,
			 ((dmanr & 3) << 1) + 1 + IO_DMA1_BASE);
	} else {
		dma_outb((count >> 1) & 0xff,
			 ((dmanr & 3) << 2) + 2 + IO_DMA2_BASE);
		dma_outb((count >> 9) & 0xff,
			 ((dmanr & 3) << 2) + 2 + IO_DMA2_BASE);
	}
}

static inline int get_dma_residue(unsigned int dmanr)
{
	unsigned int io_port = dmanr <= 3 ?
				       ((dmanr & 3) << 1) + 1 + IO_DMA1_BASE :
				       ((dmanr & 3) << 2) + 2 + IO_DMA2_BASE;
	unsigned short count;

	count = 1 + dma_inb(io_port);
	count += dma_inb(io_port) << 8;
	return dmanr <= 3 ? count : (count << 1);
}

/* a channel for @device_id: 0, -EINVAL (no such channel) or -EBUSY */
extern int request_dma(unsigned int dmanr, const char *device_id);
extern void free_dma(unsigned int dmanr);

#define isa_dma_bridge_buggy 0

#endif /* _ASM24_DMA_H */
