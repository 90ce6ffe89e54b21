/*
 * world/device.h - a device without the device: what a driver reaches
 * through port and memory I/O (<asm/io.h>) when no simulated board of its
 * own is plugged in.
 *
 * A real driver probes for its board, reads identity and status
 * registers, and waits for bits in them.  Nothing here knows any board:
 * the device answers every address by a policy, seeded and deterministic,
 * so that both sides of a comparison (legacy and converted) see the same
 * device whatever their interleaving, and a search (demo/device_search.py)
 * can look for the answers that take a driver past its probe and into its
 * interrupt handler.  It is registered (shim_io_register) at program start,
 * configured by the environment:
 *
 *   SHIM_DEVICE="WORD WORD ..."      one line, words separated by blanks
 *
 *   seed=N          the seed of seeded values (default 1)
 *   default[@irq|@task]=POLICY
 *                   the policy of every address no rule names, read in
 *                   hard-interrupt context, outside it, or both (default
 *                   readback)
 *   probe=L[,L...]  the interrupt lines the device asserts when the driver
 *                   writes to it while probing for its line (between
 *                   probe_irq_on() and probe_irq_off(), world/irq.h);
 *                   none by default, and probe_irq_off() then finds none
 *   index=A:D       a register file behind an index port, as a CD180's
 *                   or an 8259's: an access to data port D reaches the
 *                   register whose number was last written to port A, an
 *                   address of its own (up to 8 files)
 *   pci=FN[,FN...]  functions on the PCI bus (world/pci.h)
 *   input=FILE      the answers of an input (FILE, or - for stdin), as
 *                   an engine such as AFL++ steers a device: every read
 *                   no rule names takes its answer from the input's next
 *                   bytes (as many as the read is wide, the first the
 *                   lowest), in the order the reads come; an address at
 *                   most 32 times per reader (a busy wait does not drain
 *                   the input); once the input has run out, and past
 *                   those 32, the default policy.  Deterministic where
 *                   the order of the reads is (a controlled schedule);
 *                   the report's "answers" make it a line of rules that
 *                   does not depend on that order (below)
 *   [mem:]A[-B][@CONTEXT]=POLICY
 *   D#I[-J][@CONTEXT]=POLICY
 *                   a rule: port A (ports A to B), or with mem: physical
 *                   memory, or registers I to J of the file behind data
 *                   port D; read in hard-interrupt context only (@irq),
 *                   outside it only (@task: by a process or by the
 *                   kernel's own work), by a process only (@process), by
 *                   the kernel's own work only (@kernel), or by any.
 *                   Where several rules name an address, the last wins.
 *
 *   POLICY          what a read of the address gives:
 *     readback      the last value written to it; never written, all ones
 *                   (a floating bus)
 *     seeded        a value from (seed, space, address, context, n)
 *     ones, zero    all ones, all zeroes
 *     V             the value V
 *     P,P...[*]     the n-th read as the n-th of these (each one of the
 *                   above); past the last, the last again, or with a
 *                   final * the list over again: "seeded,ones*" is a
 *                   status register that says something, then nothing
 *     default       in a rule's list, what the default policy gives
 *                   that read (the n-th read: the default's n-th
 *                   answer).  A list ending in it stands for the
 *                   default: "0x2a0@irq=0x04,0x01,default" is the answers
 *                   an input gave, then the default's, and the device
 *                   interrupts for it as it would for the default
 *
 * Numbers are C's (0x5a, 90).  n counts the reads of that address by
 * that reader, from 0 at program start: a hard-interrupt handler, the
 * kernel's own deferred work (a timer, a bottom half, a kernel thread:
 * keventd, a worker) or a process (the last two are both "task" to a
 * policy).  Nothing else moves it, so an address's answers do not depend
 * on what other addresses were read, or in which order tasks ran: a
 * process polling a status register while a timer polls it takes none
 * of the timer's answers.  A read
 * wider than a byte (inw, readl) is one read of its first address; a
 * write stores its bytes at each address it covers, for readback.
 *
 * For example, a board whose scratch register at 0x227 reads back, whose
 * identity byte at 0x226 reads 0x4b, whose status register reads "an
 * interrupt is pending" once in each handler's two reads, and which
 * raises line 5 when probed:
 *
 *   SHIM_DEVICE="seed=3 probe=5 0x226=0x4b 0x222@irq=0x04,0x01*"
 *
 * A malformed line is a usage error: the program says why and exits 2.
 *
 * SHIM_DEVICE_REPORT=FILE writes, at exit, what the device saw, for the
 * search: one JSON object (keys "reads", "writes", "compares", "consts",
 * "pairs", "irq"; with input=, "input", "answers" and "stream": an
 * address's answers from the input per reader, [space, address, reader,
 * [values]], the reader "process", "kernel" or "irq", which a line of
 * rules A@reader=V,V,...,default gives both sides of a comparison alike
 * however their tasks interleave; and the stream of every read that
 * could take an answer from the input, as answered, in hex: an input
 * that replays the run.  device.c says what each holds; register I of the file
 * behind data port D is address 1 << 24 | I << 16 | D there; "pairs"
 * are the ports a driver used as an index port and its data port).  A driver built with gcc's
 * -fsanitize-coverage=trace-cmp (make SEARCH=1) tells the device what it
 * compared its reads against (world/sancov.c): input-to-state, as
 * Redqueen (NDSS 2019) learns it.
 */
#ifndef _WORLD_DEVICE_H
#define _WORLD_DEVICE_H

#include <linux/types.h>

/*
 * Host side: configure the device from one SHIM_DEVICE line (NULL or ""
 * for the default: every address reads back) and forget every access
 * and write so far.  0, or -EINVAL with why in @err (@len bytes).
 */
extern int sim_device_configure(const char *line, char *err, size_t len);

/*
 * Has the device something to say since the last call: a handler met a
 * register with more to give, the handlers wrote other than the time
 * before, or the driver wrote to the device outside them?  (The first
 * call: yes.)  The exerciser raises the lines only while it has.
 */
extern int sim_device_news(void);

/* What device.c learns from the driver's comparisons (world/sancov.c):
 * @a and @b compared, @size bytes wide; @konst: @a is a constant. */
extern void sim_device_compare(u64 a, u64 b, int size, int konst);

/*
 * The report's "blocks" (world/sancov.c: the driver's basic blocks that
 * ran, with -fsanitize-coverage=trace-pc), if the program has them.
 */
struct _IO_FILE;
extern void sim_blocks_report(struct _IO_FILE *f) __attribute__((weak));

/* Write the report SHIM_DEVICE_REPORT describes to @path; 0 or -errno. */
extern int sim_device_report(const char *path);

#endif /* _WORLD_DEVICE_H */
