/*
 * k24.h - what the 2.4 side of these tests (kernel/, built on the 2.4
 * headers) offers the Criterion side (built on the C library's).
 */
#ifndef _TESTS_K24_H
#define _TESTS_K24_H

/* kernel/headers.c */
int k24_module(int *in_use_after_init, int *n_inits, int *n_exits);
void k24_flags(unsigned long *before, unsigned long *inside,
	       unsigned long *restored);
int k24_uaccess(char *user_buf, unsigned long *not_copied_null, int *get_null);
int k24_get_const(const unsigned char *user_buf, int *c);
int k24_uaccess_high(unsigned long *not_copied, int *zeroed, int *get);
int k24_pages(long *outstanding_with_page);
const char *k24_kdevname(void);
int k24_regions(void);
int k24_abi(void);
unsigned long k24_busy_wait_ticks(unsigned long ticks);
/* a member named jiffies: @ticks of @advance between two reads, stored there */
unsigned long k24_jiffies_member(void (*advance)(unsigned long),
				 unsigned long ticks);
/* jiffies where jiffies is a plain variable (kernel/jiffies_member.c) */
unsigned long k24_jiffies_plain(void);

/* kernel/jiffies.c: jiffies as 2.4 code reads them, in ints and timers */
unsigned long k24_jiffies(void);
/* a busy wait of @ticks whose end is kept in an unsigned int; the ticks it took */
unsigned long k24_int_wait(unsigned long ticks);
/* one timer of 2.4 code, expires = jiffies + @ticks (kept in an int first) */
void k24_timer_add(unsigned long ticks);
void k24_timer_add_int(unsigned long ticks);
int k24_timer_mod(unsigned long ticks);
int k24_timer_del(void);
int k24_timer_pending(void);
unsigned long k24_timer_expires(void);
/* how often it ran, and the jiffies it read there in *@at */
int k24_timer_fired(unsigned long *at);
int k24_proc(void);

/* kernel/mmio.c: a board's memory reached by pointer (shim/mmio.c) */
unsigned int k24_mmio_peek(unsigned long phys);
void k24_mmio_poke(unsigned long phys, unsigned char val);
unsigned long k24_mmio_round_trip(unsigned long phys);
/* ioremap(@phys), a word read, one written, a readw(), a struct copied out */
unsigned int k24_mmio_remapped(unsigned long phys, unsigned int *copied);
/* a load from kernel memory that is no device's */
unsigned int k24_mmio_plain(void);

/* kernel/fake_tty.c: a tty driver over no hardware, and files on it */
#define FK_FILES 8
#define FK_TTY_DONT_FLIP 8 /* linux/tty.h's TTY_DONT_FLIP */

struct tty_record;

struct fk_stats {
	int opens, closes, hangups, set_termios, throttles, unthrottles;
	int stops, starts, baud, xmit_cnt;
	unsigned int old_cflag;
};

int fk_init(void);
int fk_exit(void);
int fk_major(void);
void fk_port_stats(int minor, struct fk_stats *st);
/* an interrupt of the port: @n bytes received; the transmitter empty */
void fk_rx(int minor, const char *buf, int n);
/* the same, each byte with its flag (linux/tty.h's TTY_NORMAL, TTY_BREAK...) */
void fk_rx_flags(int minor, const char *buf, const char *flags, int n);
void fk_tx(int minor);
/* file @i of the tests, on @minor */
int fk_open(int i, int minor);
int fk_close(int i);
long fk_write(int i, const char *buf, unsigned long n);
long fk_read(int i, char *buf, unsigned long n);
int fk_hung_up(int i);
/* tty_hangup() (keventd) or, with @now, tty_vhangup() */
void fk_hangup_file(int i, int now);
void fk_tty_flag(int i, int bit, int on);
void fk_low_latency(int i, int on);
int fk_tty_count(int minor);
int fk_record(const char *name, struct tty_record *r);
/* ioctls, their arguments made in the kernel's types */
long fk_set_speed(int i, int baud, int *now);
long fk_lock_speed(int i);
long fk_tcxonc(int i, int action);
long fk_setd(int i, int ldisc);
long fk_break(int i);

/* kernel/pci.c: a PCI driver of 2.4 on the world's bus (world/pci.h) */
struct k24_pci {
	int init; /* pci_module_init() */
	int probed, removed;
	unsigned long driver_data; /* of the id probe() was given */
	unsigned int vendor, device, class, irq, devfn;
	unsigned long bar0, bar0_len, bar0_flags;
	int found_again;      /* pci_find_device() gives the same pci_dev */
	unsigned int command; /* after pci_enable_device(), pci_set_master() */
	int bios[2];	      /* pcibios_find_device(), indices 0 and 1 */
	unsigned char bios_bus, bios_devfn;
	int misaligned; /* pci_read_config_word() at 1 */
	int absent;	/* pcibios_read_config_word() of an empty slot */
};

/* pci_module_init() of a driver of two ids, then its exit */
void k24_pci_driver(struct k24_pci *out);

/*
 * kernel/unwind.c: a module's init taking, in order, a region checked and
 * requested, a memory region, kmalloc() memory, a page, line 9, DMA
 * channel 3, a dynamic major, a misc minor, a tty driver, PCI function
 * 1393:1680 enabled and a kernel thread; unwinding when one is refused.
 */
int k24_unwind_init(void);
void k24_unwind_exit(void);
int k24_tty_drivers(void);

#endif /* _TESTS_K24_H */
