/*
 * world/user.h - what a user gives a driver besides its ports: the
 * ioctls a board needs before its ports work (a firmware download
 * through the driver's own control device, a board told to start), with
 * their argument memory, and, for the device search, what the driver
 * compared a command, an argument or a module parameter's string with.
 *
 * A driver of a board that runs firmware registers a control device (a
 * misc minor, a character major, or a minor of its tty driver) and does
 * nothing with its ports until a loader program has issued it commands:
 * reset, download, start.  Nothing here knows any driver: the calls are
 * said by one line, found by the search (demo/device_search.py) from the
 * driver's own comparisons, saved with the device line and replayed the
 * same on both sides of a comparison:
 *
 *   SHIM_IOCTLS="WORD WORD ..."      one line, words separated by blanks
 *
 *   seed=N          the seed of seeded argument memory (default 1)
 *   probe           before the calls, each file the module registered is
 *                   opened (the exerciser says which) and issued command
 *                   SIM_IOCTL_PROBE with a zeroed argument: the report
 *                   says what its handler compared that command with
 *   MAJOR.MINOR:CMD[=ARG]
 *                   a call, in the order of the line: command CMD on the
 *                   character device MAJOR, MINOR (major 10: the misc
 *                   minor, as 2.4's misc_open() dispatched it), with
 *     ARG = V       the number V as the argument itself, or
 *     ARG = FILL[,OFF:W=V...][,OFF:p]
 *                   a pointer to SIM_IOCTL_ARG bytes of user memory,
 *                   FILL zero (the default) or seeded, with fields set:
 *                   W bytes (1, 2, 4 or 8) at byte OFF holding V, little
 *                   endian, or at OFF a pointer to SIM_IOCTL_DATA more
 *                   bytes of FILL (a firmware image a header points to)
 *
 * Numbers are C's.  Seeded memory is a function of the seed and the
 * call's place in the line only: both sides, and every run, see the
 * same bytes.  User memory is host memory here (asm/uaccess.h of the
 * 2.4 headers); an address past the user half faults, as one past 2.4's
 * user segment did, so that a seeded word a driver takes for a pointer
 * is refused (-EFAULT), not followed.  A malformed line is refused with
 * why.
 *
 * For SHIM_DEVICE_REPORT (world/device.h), the members
 *   "ioctls": {"cmds": [[FILE, CMD], ...],
 *              "values": [[FILE, CMD, K], ...],
 *              "fields": [[FILE, CMD, OFF, W, V, K], ...],
 *              "pointers": [[FILE, CMD, OFF, N], ...]},
 *   "strings": [[PARAM, INDEX, TEXT], ...]
 * (FILE "MAJOR.MINOR"): the commands a probed file's handler compared
 * its command with (those a tty's own layer handles, 0x54xx, left out:
 * the exerciser issues them as a user does); a call whose argument, a
 * number, was compared with K; a W-byte field of its memory at OFF,
 * holding V, compared with the constant K (input-to-state, as for the
 * device's registers: world/sancov.c); a word at OFF the driver copied
 * N bytes from, as a pointer; and the strings a module parameter's
 * element INDEX was compared with (strcmp(), strncmp() of the 2.4
 * headers): a board's type looked up in a table of names.
 */
#ifndef _WORLD_USER_H
#define _WORLD_USER_H

#include <linux/types.h>

/* the command no driver has: what its handler compares it with, it wants */
#define SIM_IOCTL_PROBE 0x7e5d9c3bU
#define SIM_IOCTL_ARG 256
#define SIM_IOCTL_DATA 65536
#define SIM_IOCTL_MAX 32 /* calls in a line */

struct sim_ioctl_call {
	unsigned int major, minor, cmd;
};

/*
 * Host side: the calls of one SHIM_IOCTLS line (NULL or "": none).  0,
 * or -EINVAL with why in @err (@len bytes).
 */
extern int sim_ioctls_configure(const char *line, char *err, size_t len);
/* Whether the line asks for the probe. */
extern int sim_ioctls_probing(void);
/* Call @i of the line into @c: 0, or -ENOENT past the last. */
extern int sim_ioctl_get(int i, struct sim_ioctl_call *c);
/*
 * The argument of call @i, its memory filled afresh (-1: the probe's,
 * zeroed): a number, or the address of user memory valid until the next
 * call of this.
 */
extern unsigned long sim_ioctl_arg(int i);
/*
 * A call under way, from the process issuing it: what the driver
 * compares from now on is taken as the handler's of command @cmd on
 * file @major.@minor (@tty: a tty's, whose own layer's commands are no
 * finding), until sim_ioctl_end().
 */
extern void sim_ioctl_begin(unsigned int major, unsigned int minor,
			    unsigned int cmd, unsigned long arg, int tty);
extern void sim_ioctl_end(void);

/* What world/sancov.c hears: @a and @b compared, @size bytes wide. */
extern void sim_user_compare(u64 a, u64 b, int size, int konst);
/*
 * What the 2.4 headers' strcmp() (@n -1) and strncmp() tell: a module
 * parameter's string compared with another is a value it may take.
 */
extern void sim_user_strcmp(const char *a, const char *b, size_t n);
/* What asm/uaccess.h of the 2.4 headers tells: a copy from @addr faulted. */
extern void sim_user_fault(const void *addr, unsigned long n);

struct _IO_FILE;
/*
 * The report's "ioctls" and "strings" members, each followed by a comma
 * (@dying: from a signal, the lock only if free).
 */
extern void sim_user_report(struct _IO_FILE *f, int dying);

#endif /* _WORLD_USER_H */
