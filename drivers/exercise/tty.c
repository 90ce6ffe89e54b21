/*
 * tty.c - the generic exerciser of a 2.4 tty driver, as it is.
 *
 * It knows nothing of the driver: it loads the module (init_module(),
 * with the parameters of SHIM_MODPARAMS set first, as insmod set them),
 * finds the tty drivers it registered with the tty layer and the
 * interrupt lines it took, issues the ioctls SHIM_IOCTLS says to the
 * files it registered (a board's firmware downloaded through the
 * driver's own control device: world/user.h), and plays a user and a
 * device at them: tasks
 * open minors (O_NONBLOCK, so that no open waits for carrier), write,
 * read, change termios and ask the common ioctls, stop and start, hang
 * up and close, while the lines are raised; then it unloads the module
 * as rmmod would (not while MOD_IN_USE).  The build names the driver
 * (EXERCISE_DRIVER, its NAME) for the runner's --driver.
 *
 * Reproducible to the bit: each operation runs in a task of its own (a
 * "process") while the main task keeps the clock, which is virtual.
 * Between two steps the main task waits, with host means
 * (shim_quiesce()), until no other task can run, no bottom half is
 * marked and the timers due within a tick have run; if a process sleeps
 * for a time meanwhile (a close waiting for output to drain), the clock
 * moves to the next timer, as an idle machine's would.  Nothing here is
 * a deferred-work API: the same source runs on the task queue and on the
 * workqueue, and the observables (what the tty layer's records say, the
 * ioctls' answers, the module's state) must be equal.
 *
 * Concurrent scenarios run several processes at once while the lines
 * fire; they report what does not depend on the interleaving.  One
 * scenario, init_unwind, is run in tries: each refuses the module's
 * init one of the resources it asks for (below).
 */
#include <linux/config.h>
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/tty.h>
#include <linux/tty_driver.h>
#include <linux/serial.h>
#include <linux/termios.h>
#include <linux/major.h>
#include <linux/wait.h>
#include <linux/completion.h>
#include <linux/smp_lock.h>
#include <asm/uaccess.h>

#include <shim/test.h>
#include <shim/modparam.h>
#include <world/device.h>
#include <world/irq.h>
#include <world/user.h>
#include <world/util.h>
#include <tty-core/record.h>

#include "scenario.h"

/* SCENARIO() with the driver's name expanded first */
#define XSCENARIO(driver, ...) SCENARIO(driver, __VA_ARGS__)

#ifndef EXERCISE_DRIVER
#error "EXERCISE_DRIVER: the driver's name, as the runner's --driver takes it"
#endif

extern void qsort(void *base, size_t nmemb, size_t size,
		  int (*compar)(const void *, const void *));

#define MAX_DRIVERS 8
#define MAX_LINES 16
#define MAX_FILES 16
#define MAX_PROCS 4
#define MAX_OPEN_TRIES 16
/* an operation's process asleep longer than this, in virtual time: a hang */
#define OP_TIMEOUT (600 * HZ)

/* --- processes: tasks that make the system calls ---------------------------- */

struct proc {
	struct shim_thread *thread;
	struct completion started;
	wait_queue_head_t wait;
	void (*op)(void *arg);
	void *arg;
	int busy; /* an operation is given and not done */
	int quit;
	char name[16];
};

/* --- the exercise's state ------------------------------------------------- */

/* a file of a device, as the VFS keeps one */
struct xfile {
	struct inode inode;
	struct dentry dentry;
	struct file file;
	int open;
	int ret; /* what the last call on it returned */
};

struct ex {
	struct scenario_ctx *ctx;
	struct proc proc[MAX_PROCS];
	int nprocs;
	int concurrent; /* what depends on the interleaving is a stat */
	int trace;	/* EXERCISE_TRACE set: every answer said */
	int loaded;	/* init_module() returned 0 */
	int hung;	/* a process never came back */
	struct tty_driver *drv[MAX_DRIVERS];
	int ndrv;
	unsigned int lines[MAX_LINES];
	int nlines;
	struct xfile files[MAX_FILES];
	int nfiles;
	u64 prng;
	/* what the single-threaded steps saw, in order */
	u64 answers; /* digest of every call's return value */
	int nanswers;
	long modem[64];
	int nmodem;
};

static struct ex ex;

static void proc_main(void *p)
{
	struct proc *pr = p;

	(void) current; /* a task of the sandbox from here on */
	complete(&pr->started);
	for (;;) {
		wait_event(pr->wait,
			   __atomic_load_n(&pr->busy, __ATOMIC_ACQUIRE) ||
				   __atomic_load_n(&pr->quit,
						   __ATOMIC_ACQUIRE));
		if (__atomic_load_n(&pr->quit, __ATOMIC_ACQUIRE))
			break;
		pr->op(pr->arg);
		__atomic_store_n(&pr->busy, 0, __ATOMIC_RELEASE);
	}
}

static void proc_start(struct proc *pr, int i)
{
	memset(pr, 0, sizeof(*pr));
	snprintf(pr->name, sizeof(pr->name), "process/%d", i);
	init_completion(&pr->started);
	init_waitqueue_head(&pr->wait);
	pr->thread = shim_thread_start(pr->name, proc_main, pr);
	/* counted as a task before anyone waits for the system to idle */
	wait_for_completion(&pr->started);
}

static void proc_stop(struct proc *pr)
{
	__atomic_store_n(&pr->quit, 1, __ATOMIC_RELEASE);
	wake_up(&pr->wait);
	shim_thread_join(pr->thread);
}

static void proc_give(struct proc *pr, void (*op)(void *), void *arg)
{
	pr->op = op;
	pr->arg = arg;
	__atomic_store_n(&pr->busy, 1, __ATOMIC_RELEASE);
	wake_up(&pr->wait);
}

static int procs_busy(struct proc *pr, int n)
{
	int i, busy = 0;

	for (i = 0; i < n; i++)
		busy += __atomic_load_n(&pr[i].busy, __ATOMIC_ACQUIRE);
	return busy;
}

/*
 * Keep the clock while the processes work.  Idle, with one of them still
 * asleep in its call: the device interrupts, as a device with work does
 * (each of the module's lines, up to DEVICE_ROUNDS times, the system idle
 * after each), for as long as it has something to say (world/device.h's
 * sim_device_news(): a register with more to give, a handler that wrote
 * something new, the driver telling it something); still asleep, time
 * moves to the next timer, and the device interrupts again if what ran
 * meanwhile told it something.  A device that has had DEVICE_ROUNDS_MAX
 * rounds in one call without ending it is left alone from then on: time
 * alone moves, as for a board that no longer answers (a close waiting
 * for a transmitter that never empties then ends when the driver's own
 * timeout says).  0, or -ETIMEDOUT: a process slept OP_TIMEOUT;
 * -EDEADLK: on nothing that an interrupt or time could end (no timer
 * pending, nothing for the device to say).  The clock's calls take the
 * shim's jiffies, not the 2.4 count this file's jiffies reads.
 */
#define DEVICE_ROUNDS 64
#define DEVICE_ROUNDS_MAX (8 * DEVICE_ROUNDS)

static void raise_each(void);

static int run_clock(struct proc *pr, int n)
{
	unsigned long start = shim_jiffies();
	int rounds = 0, said = 1;

	for (;;) {
		unsigned long next;
		int r;

		shim_quiesce();
		if (!said)
			said = sim_device_news();
		for (r = 0; said && r < DEVICE_ROUNDS &&
			    rounds < DEVICE_ROUNDS_MAX && procs_busy(pr, n);
		     r++) {
			raise_each();
			if (!ex.nlines)
				break;
			rounds++;
			said = sim_device_news();
		}
		if (!procs_busy(pr, n))
			return 0;
		if (!shim_timer_next(&next))
			return -EDEADLK;
		if (time_after(next, start + OP_TIMEOUT))
			return -ETIMEDOUT;
		/* time moves to the next timer, which alone runs */
		shim_clock_step(next);
	}
}

/*
 * Every answer goes into one digest, in order: a step that differs
 * shows.  EXERCISE_TRACE=1 says each, to find which step two runs
 * disagree on.
 */
static void answer_of(long v, const char *what)
{
	ex.answers = world_digest_u64(ex.answers, (u64) v);
	ex.nanswers++;
	if (ex.trace)
		printk(KERN_INFO "exercise: answer %d at %lu: %s %ld\n",
		       ex.nanswers, jiffies - INITIAL_JIFFIES, what, v);
}

#define answer(v) answer_of((v), #v)

/*
 * Run @op(@arg) in process @i and keep the clock until it is done.  A
 * process that never comes back is said, with what it was doing, and
 * the exercise stops there: nothing else can be done with that device.
 */
#define call_in(i, op, arg) __call_in((i), (op), (arg), #op)

static int __call_in(int i, void (*op)(void *), void *arg, const char *what)
{
	int err;

	if (ex.hung)
		return -ETIMEDOUT;
	proc_give(&ex.proc[i], op, arg);
	err = run_clock(&ex.proc[i], 1);
	if (err) {
		ex.hung = 1;
		if (err == -EDEADLK)
			printk(KERN_ERR "exercise: %s did not return from %s: "
					"asleep, and no timer or interrupt "
					"ended it\n",
			       ex.proc[i].name, what);
		else
			printk(KERN_ERR "exercise: %s did not return from %s "
					"in %d s\n",
			       ex.proc[i].name, what, OP_TIMEOUT / HZ);
		inv(ex.ctx, "no_process_hangs", 0);
		return -ETIMEDOUT;
	}
	return 0;
}

/* --- the module --------------------------------------------------------------- */

static int init_ret;

/* a family of modules defines it (scripts/modlink): which init failed */
extern const char *family_failed_name(void) __attribute__((weak));

/*
 * init_unwind's try: the request of init_module() to refuse, and its
 * count; a try past UNWIND_QUEUE_TRY refuses the queue's request of that
 * number instead (what create_workqueue() asks for: this side's alone)
 */
#define UNWIND_QUEUE_TRY 1000
static struct {
	unsigned int fail; /* 0: none */
	unsigned long requests;
	unsigned long queue_requests; /* of them, create_workqueue()'s */
	char refused[160];
} unwind;

static void do_init(void *unused)
{
	unsigned long first = shim_resource_requests();
	unsigned long queue_first = shim_queue_requests();

	if (unwind.fail > UNWIND_QUEUE_TRY)
		shim_fail_queue_request_nth(unwind.fail - UNWIND_QUEUE_TRY);
	else if (unwind.fail)
		shim_fail_resource_nth(unwind.fail);
	init_ret = init_module();
	shim_resource_failed(unwind.refused, sizeof(unwind.refused));
	shim_fail_resource_nth(0);
	shim_fail_queue_request_nth(0);
	unwind.requests = shim_resource_requests() - first;
	unwind.queue_requests = shim_queue_requests() - queue_first;
}

static void do_cleanup(void *unused)
{
	cleanup_module();
}

static int drv_cmp(const void *a, const void *b)
{
	const struct tty_driver *x = *(struct tty_driver *const *) a;
	const struct tty_driver *y = *(struct tty_driver *const *) b;

	if (x->major != y->major)
		return x->major - y->major;
	return x->minor_start - y->minor_start;
}

static int uint_cmp(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *) a,
		     y = *(const unsigned int *) b;

	return x < y ? -1 : x > y;
}

/* the registered drivers and lines, as observables */
static void survey(const char *prefix)
{
	struct tty_driver *d;
	char key[64], buf[512];
	int i, off = 0;

	ex.ndrv = 0;
	for (d = tty_drivers; d && ex.ndrv < MAX_DRIVERS; d = d->next)
		ex.drv[ex.ndrv++] = d;
	qsort(ex.drv, ex.ndrv, sizeof(ex.drv[0]), drv_cmp);
	buf[0] = 0;
	for (i = 0; i < ex.ndrv; i++)
		off += snprintf(buf + off, sizeof(buf) - off,
				"%s%s major %d minors %d-%d type %d/%d",
				i ? "; " : "", ex.drv[i]->name,
				ex.drv[i]->major, ex.drv[i]->minor_start,
				ex.drv[i]->minor_start + ex.drv[i]->num - 1,
				ex.drv[i]->type, ex.drv[i]->subtype);
	snprintf(key, sizeof(key), "%s_drivers", prefix);
	obs_str(ex.ctx, key, buf);

	ex.nlines = sim_irq_lines(ex.lines, MAX_LINES);
	qsort(ex.lines, ex.nlines, sizeof(ex.lines[0]), uint_cmp);
	{
		u64 v[MAX_LINES];

		for (i = 0; i < ex.nlines; i++)
			v[i] = ex.lines[i];
		snprintf(key, sizeof(key), "%s_irq_lines", prefix);
		obs_u64_list(ex.ctx, key, v, ex.nlines);
	}
}

/* Boot the exercise: virtual time, processes, the module's parameters. */
static void ex_boot(struct scenario_ctx *ctx, int nprocs)
{
	const char *params = shim_boot_param("SHIM_MODPARAMS");
	const char *ioctls = shim_boot_param("SHIM_IOCTLS");
	const char *trace = shim_boot_param("EXERCISE_TRACE");
	char err[256];
	int i;

	memset(&ex, 0, sizeof(ex));
	ex.ctx = ctx;
	ex.concurrent = nprocs > 1;
	ex.trace = trace && *trace && strcmp(trace, "0");
	ex.answers = WORLD_DIGEST_INIT;
	ex.prng = world_prng_seed(scn_seed(ctx));
	shim_clock_virtual();
	ex.nprocs = nprocs;
	for (i = 0; i < nprocs; i++)
		proc_start(&ex.proc[i], i);

	if (params && *params)
		inv(ctx, "modparams_set", shim_modparams_apply(params) == 0);
	if (sim_ioctls_configure(ioctls, err, sizeof(err))) {
		printk(KERN_ERR "exercise: %s\n", err);
		inv(ctx, "ioctls_set", 0);
	}
}

static void user_calls(void);

/* Load the module, as insmod: 1 if it is in and registered a tty driver. */
static int ex_load(struct scenario_ctx *ctx)
{
	if (call_in(0, do_init, NULL))
		return 0;
	/* "init" and "registered": what the device search ranks runs by */
	obs_i64(ctx, "init", init_ret);
	ex.loaded = init_ret == 0;
	if (!ex.loaded) {
		/* a family of modules (scripts/modlink): the one that failed */
		if (family_failed_name && family_failed_name())
			obs_str(ctx, "init_failed", family_failed_name());
		return 0;
	}
	survey("loaded");
	user_calls();
	obs_u64(ctx, "registered", ex.ndrv > 0);
	obs_i64(ctx, "use_count_loaded", MOD_IN_USE);
	return ex.ndrv > 0;
}

static int ex_begin(struct scenario_ctx *ctx, int nprocs)
{
	ex_boot(ctx, nprocs);
	return ex_load(ctx);
}

static void close_all(void);

/* an observable, or in a concurrent scenario a stat: the interleaving's */
static void obs_or_stat(const char *key, long v)
{
	if (ex.concurrent)
		stat_f(ex.ctx, key, v);
	else
		obs_i64(ex.ctx, key, v);
}

/*
 * Unload as rmmod: not while the module is in use (then close what is
 * open, and try again), and check what it left behind.  Concurrent opens
 * and closes can leave a use count that is the interleaving's (2.4.0's
 * serial.c: an open refused while the port closes counts down twice),
 * and whether rmmod came to unload with it.
 */
static void ex_end(void)
{
	unsigned int lines[MAX_LINES];
	char regions[512];
	int i;

	if (ex.loaded && !ex.hung) {
		obs_or_stat("use_count_at_rmmod", MOD_IN_USE);
		if (MOD_IN_USE) {
			close_all();
			obs_or_stat("use_count_closed", MOD_IN_USE);
		}
		if (!MOD_IN_USE && !call_in(0, do_cleanup, NULL)) {
			inv(ex.ctx, "drivers_unregistered",
			    tty_drivers == NULL);
			inv(ex.ctx, "irqs_freed",
			    sim_irq_lines(lines, MAX_LINES) == 0);
			obs_or_stat("regions_left",
				    shim_regions_held(0, regions,
						      sizeof(regions)) +
					    shim_regions_held(1, regions,
							      sizeof(regions)));
		}
	}
	if (!ex.hung)
		for (i = 0; i < ex.nprocs; i++)
			proc_stop(&ex.proc[i]);
	obs_u64(ex.ctx, "sighup", shim_signals_sent(SIGHUP));
	obs_u64(ex.ctx, "sigint", shim_signals_sent(SIGINT));
}

/* --- files: open, close, read, write, ioctl, as the VFS calls them ------------ */

struct fop {
	struct xfile *f;
	int major, minor, flags;
	unsigned int cmd;
	unsigned long arg;
	char *buf;
	size_t len;
	long ret;
};

static void do_open(void *p)
{
	struct fop *o = p;
	struct xfile *f = o->f;
	struct file_operations *fops = shim_chrdev_fops(o->major);

	/* the misc major: its minor's operations, as misc_open() put them */
	if (!fops && o->major == MISC_MAJOR)
		fops = shim_misc_fops(o->minor);

	memset(f, 0, sizeof(*f));
	f->inode.i_rdev = MKDEV(o->major, o->minor);
	f->inode.i_mode = S_IFCHR | S_IRUSR | S_IWUSR;
	f->dentry.d_inode = &f->inode;
	f->file.f_dentry = &f->dentry;
	f->file.f_op = fops;
	f->file.f_flags = o->flags;
	f->file.f_mode = FMODE_READ | FMODE_WRITE;
	atomic_set(&f->file.f_count, 1);
	INIT_LIST_HEAD(&f->file.f_list);
	/*
	 * No open operation: the open succeeds, as 2.4's chrdev_open(); an
	 * open runs under the big kernel lock, as chrdev_open() called it,
	 * which a driver's open relies on against a close (tty_release()
	 * takes it too) until either sleeps
	 */
	o->ret = -ENODEV;
	if (fops && fops->open) {
		lock_kernel();
		o->ret = fops->open(&f->inode, &f->file);
		unlock_kernel();
	} else if (fops) {
		o->ret = 0;
	}
	f->open = o->ret == 0;
}

static void do_close(void *p)
{
	struct fop *o = p;
	struct xfile *f = o->f;

	o->ret = f->file.f_op->release ?
			 f->file.f_op->release(&f->inode, &f->file) :
			 0;
	f->open = 0;
}

static void do_write(void *p)
{
	struct fop *o = p;
	struct file *file = &o->f->file;

	o->ret = file->f_op->write ?
			 file->f_op->write(file, o->buf, o->len, &file->f_pos) :
			 -EINVAL;
}

static void do_read(void *p)
{
	struct fop *o = p;
	struct file *file = &o->f->file;

	o->ret = file->f_op->read ?
			 file->f_op->read(file, o->buf, o->len, &file->f_pos) :
			 -EINVAL;
}

static void do_ioctl(void *p)
{
	struct fop *o = p;
	struct xfile *f = o->f;

	o->ret = f->file.f_op->ioctl ? f->file.f_op->ioctl(&f->inode, &f->file,
							   o->cmd, o->arg) :
				       -EINVAL;
}

/* what the file's tty is, while it is open and not hung up */
static struct tty_struct *tty_of(struct xfile *f)
{
	if (!f->open || tty_hung_up_p(&f->file))
		return NULL;
	return (struct tty_struct *) f->file.private_data;
}

#define x_call(pi, op, o) __x_call((pi), (op), (o), #op)

static long __x_call(int pi, void (*op)(void *), struct fop *o,
		     const char *what)
{
	if (__call_in(pi, op, o, what))
		return -ETIMEDOUT;
	answer_of(o->ret, what);
	return o->ret;
}

static long x_ioctl(int pi, struct xfile *f, unsigned int cmd, void *arg)
{
	struct fop o = { .f = f, .cmd = cmd, .arg = (unsigned long) arg };

	return x_call(pi, do_ioctl, &o);
}

static long x_write(int pi, struct xfile *f, const void *buf, size_t len)
{
	struct fop o = { .f = f, .buf = (char *) buf, .len = len };

	return x_call(pi, do_write, &o);
}

static long x_read(int pi, struct xfile *f, void *buf, size_t len)
{
	struct fop o = { .f = f, .buf = buf, .len = len };

	return x_call(pi, do_read, &o);
}

static long x_close(int pi, struct xfile *f)
{
	struct fop o = { .f = f };

	if (!f->open)
		return 0;
	return x_call(pi, do_close, &o);
}

static long x_open(int pi, struct xfile *f, int major, int minor)
{
	struct fop o = { .f = f,
			 .major = major,
			 .minor = minor,
			 .flags = O_RDWR | O_NONBLOCK | O_NOCTTY };

	return x_call(pi, do_open, &o);
}

static void close_all(void)
{
	int i;

	for (i = 0; i < ex.nfiles; i++)
		x_close(0, &ex.files[i]);
}

/*
 * Open up to @want minors of the normal (not callout) drivers, the first
 * that open; their answers are observables.
 */
static int open_ports(int want)
{
	long rets[MAX_OPEN_TRIES];
	int d, i, tries = 0;

	for (d = 0; d < ex.ndrv && ex.nfiles < want; d++) {
		struct tty_driver *drv = ex.drv[d];

		if (drv->type == TTY_DRIVER_TYPE_SERIAL &&
		    drv->subtype == SERIAL_TYPE_CALLOUT)
			continue;
		for (i = 0;
		     i < drv->num && ex.nfiles < want && tries < MAX_OPEN_TRIES;
		     i++) {
			struct xfile *f = &ex.files[ex.nfiles];

			rets[tries++] =
				x_open(0, f, drv->major, drv->minor_start + i);
			if (f->open)
				ex.nfiles++;
		}
	}
	obs_i64_list(ex.ctx, "open_answers", rets, tries);
	return ex.nfiles;
}

/*
 * What a loader program does before any port is used: the calls of
 * SHIM_IOCTLS (world/user.h), in order, on the files the module
 * registered (a misc minor, a character major, a minor of its tty
 * driver: a board's control device), each file opened once for them and
 * closed after; their answers are observables.  First, if the line
 * asks, each file the module registered is probed with a command no
 * driver has: what its handler compares that command with is what it
 * looks for, for the device search to issue.  A board whose ports do
 * nothing until its firmware is downloaded and started is then as its
 * loader leaves it, in every scenario, on both sides.
 */
#define MAX_UFILES 16

struct ufile {
	unsigned int major, minor;
	int tty;
	struct xfile f;
};

static struct ufile ufiles[MAX_UFILES];
static int nufiles;

static int is_tty_major(unsigned int major)
{
	int d;

	for (d = 0; d < ex.ndrv; d++)
		if (ex.drv[d]->major == (int) major)
			return 1;
	return 0;
}

/* the file @major.@minor, opened: NULL if it does not open */
static struct ufile *ufile_open(unsigned int major, unsigned int minor)
{
	struct ufile *u;
	int i;

	for (i = 0; i < nufiles; i++)
		if (ufiles[i].major == major && ufiles[i].minor == minor)
			return ufiles[i].f.open ? &ufiles[i] : NULL;
	if (nufiles == MAX_UFILES)
		return NULL;
	u = &ufiles[nufiles++];
	u->major = major;
	u->minor = minor;
	u->tty = is_tty_major(major);
	x_open(0, &u->f, major, minor);
	return u->f.open ? u : NULL;
}

static long ufile_ioctl(struct ufile *u, unsigned int cmd, unsigned long arg)
{
	long ret;

	sim_ioctl_begin(u->major, u->minor, cmd, arg, u->tty);
	ret = x_ioctl(0, &u->f, cmd, (void *) arg);
	sim_ioctl_end();
	return ret;
}

static void ufiles_close(void)
{
	int i;

	for (i = 0; i < nufiles; i++)
		x_close(0, &ufiles[i].f);
	nufiles = 0;
}

/*
 * The files to probe: each misc minor; each character major's first
 * minor, or, of a tty driver's major, the first and last minor of each
 * of its normal drivers (a board's control port is often the last).
 */
static void probe_files(void)
{
	unsigned int majors[32];
	int minors[32];
	int i, n, d;

	n = shim_misc_minors(minors, ARRAY_SIZE(minors));
	for (i = 0; i < n; i++) {
		struct ufile *u = ufile_open(MISC_MAJOR, minors[i]);

		if (u)
			ufile_ioctl(u, SIM_IOCTL_PROBE, sim_ioctl_arg(-1));
	}
	n = shim_chrdev_majors(majors, ARRAY_SIZE(majors));
	for (i = 0; i < n; i++) {
		if (!is_tty_major(majors[i])) {
			struct ufile *u = ufile_open(majors[i], 0);

			if (u)
				ufile_ioctl(u, SIM_IOCTL_PROBE,
					    sim_ioctl_arg(-1));
			continue;
		}
		for (d = 0; d < ex.ndrv; d++) {
			struct tty_driver *drv = ex.drv[d];
			int ends[2] = { drv->minor_start,
					drv->minor_start + drv->num - 1 };
			int e;

			if (drv->major != (int) majors[i] ||
			    (drv->type == TTY_DRIVER_TYPE_SERIAL &&
			     drv->subtype == SERIAL_TYPE_CALLOUT))
				continue;
			for (e = 0; e < 2 && (!e || ends[1] != ends[0]); e++) {
				struct ufile *u =
					ufile_open(majors[i], ends[e]);

				if (u)
					ufile_ioctl(u, SIM_IOCTL_PROBE,
						    sim_ioctl_arg(-1));
			}
		}
	}
	ufiles_close();
}

static void user_calls(void)
{
	struct sim_ioctl_call c;
	long rets[SIM_IOCTL_MAX];
	int i;

	if (sim_ioctls_probing())
		probe_files();
	for (i = 0; !sim_ioctl_get(i, &c); i++) {
		struct ufile *u = ufile_open(c.major, c.minor);

		rets[i] = u ? ufile_ioctl(u, c.cmd, sim_ioctl_arg(i)) : -ENODEV;
	}
	ufiles_close();
	if (i)
		obs_i64_list(ex.ctx, "ioctl_answers", rets, i);
}

/*
 * A tick passes: each timer due by then runs, the system idle after
 * each.  A driver that polls its board from a timer, having no line,
 * sees time move as on a machine, not only when a process sleeps.  A
 * driver with lines gets its rounds of interrupts with no time between
 * (time moves while a process sleeps): a tick after each round would
 * make what the device sends per tick, and so what a flip buffer
 * pushed a tick later overflows with, depend on the device's policy.
 */
static void pass_tick(void)
{
	unsigned long until = shim_jiffies() + 1;

	while (shim_clock_step(until))
		shim_quiesce();
	shim_quiesce();
}

/*
 * Raise every line @times, the system idle after each (with no line at
 * all, @times ticks pass instead: a polled board).  The module's lines
 * are looked up each time: a driver may take its line at its first open
 * and give it back at its last close.
 */
static void raise_each(void)
{
	int i;

	ex.nlines = sim_irq_lines(ex.lines, MAX_LINES);
	for (i = 0; i < ex.nlines; i++) {
		sim_raise_irq(ex.lines[i]);
		shim_quiesce();
		if (ex.trace)
			printk(KERN_INFO
			       "exercise: line %u raised, idle at %lu\n",
			       ex.lines[i], jiffies - INITIAL_JIFFIES);
	}
}

static void raise_lines(int times)
{
	int t;

	for (t = 0; t < times; t++) {
		raise_each();
		if (!ex.nlines)
			pass_tick();
	}
}

/* the modem lines of each open file, as TIOCMGET says them */
static void sample_modem(void)
{
	int i;

	for (i = 0; i < ex.nfiles; i++) {
		unsigned int mctrl = 0;
		long ret;

		if (!tty_of(&ex.files[i]))
			continue;
		ret = x_ioctl(0, &ex.files[i], TIOCMGET, &mctrl);
		if (ex.nmodem < (int) ARRAY_SIZE(ex.modem))
			ex.modem[ex.nmodem++] = ret ? ret : (long) mctrl;
	}
}

/*
 * Each record of the tty layer, by tty: as observables, or, in a
 * concurrent scenario, as stats: even how many opens succeed depends on
 * the interleaving there (an open meeting a close may be refused).
 */
static void report_records(int concurrent)
{
	int i, n = tty_record_count(), closed = 1;

	for (i = 0; i < n; i++) {
		struct tty_record r;
		char key[64];

		if (tty_record_get(i, &r))
			break;
#define REC(field, time)                                          \
	do {                                                      \
		snprintf(key, sizeof(key), "%s_" #field, r.name); \
		if (concurrent) {                                 \
			stat_u64(ex.ctx, key, r.field);           \
		} else {                                          \
			obs_u64(ex.ctx, key, r.field);            \
			if (time)                                 \
				timed(ex.ctx, key);               \
		}                                                 \
	} while (0)
		/*
		 * What the device sent and took depends on how long each
		 * call took while it streamed (a close waiting out its
		 * transmitter, a throttle): timed() says so, for the demo
		 * to compare it between free runs only.
		 */
		REC(opens, 0);
		REC(closes, 0);
		REC(hangups, 0);
		REC(rx_bytes, 1);
		REC(rx_flagged, 1);
		REC(rx_dropped, 1);
		REC(rx_read, 1);
		REC(throttles, 1);
		REC(unthrottles, 1);
		REC(tx_bytes, 1);
#undef REC
		/*
		 * A handler that keeps sending while its wakeup runs (on
		 * another CPU, as 2.4 SMP ran a bottom half and 2.5 a work)
		 * may have it wake twice: how often depends on timing.
		 */
		snprintf(key, sizeof(key), "%s_write_wakeups", r.name);
		stat_u64(ex.ctx, key, r.write_wakeups);
		if (!concurrent) {
			snprintf(key, sizeof(key), "%s_rx_digest", r.name);
			obs_hex(ex.ctx, key, r.rx_digest);
			timed(ex.ctx, key);
			snprintf(key, sizeof(key), "%s_room_min", r.name);
			obs_u64(ex.ctx, key,
				r.room_min == ~0UL ? 0 : r.room_min);
			timed(ex.ctx, key);
		}
		snprintf(key, sizeof(key), "%s_rx_deliveries", r.name);
		stat_u64(ex.ctx, key, r.rx_deliveries);
		/* lost at close either way; how, a side's own (record.h) */
		snprintf(key, sizeof(key), "%s_rx_late", r.name);
		stat_u64(ex.ctx, key, r.rx_late);
		closed &= r.opens <= r.closes;
	}
	inv(ex.ctx, "every_open_closed", closed);
}

/* the single-threaded scenarios' end: what every step said, and the records */
static void report_steps(void)
{
	obs_hex(ex.ctx, "answers_digest", ex.answers);
	obs_u64(ex.ctx, "answers", ex.nanswers);
	obs_i64_list(ex.ctx, "modem_lines", ex.modem, ex.nmodem);
	/* what a read or a write returned, the lines when sampled: timed */
	timed(ex.ctx, "answers_digest");
	timed(ex.ctx, "modem_lines");
	report_records(0);
}

/* --- steps shared by the scenarios ------------------------------------------ */

static void fill(unsigned char *buf, size_t len)
{
	world_prng_fill(&ex.prng, buf, len);
}

/* write through the line discipline, then byte by byte through put_char */
static void step_write(struct xfile *f, size_t len)
{
	unsigned char buf[512];
	struct tty_struct *tty;
	size_t i;

	if (len > sizeof(buf))
		len = sizeof(buf);
	fill(buf, len);
	x_write(0, f, buf, len);
	tty = tty_of(f);
	if (!tty)
		return;
	answer(tty->driver.write_room ? tty->driver.write_room(tty) : -1);
	answer(tty->driver.chars_in_buffer ? tty->driver.chars_in_buffer(tty) :
					     -1);
	for (i = 0; i < len / 8; i++)
		tty->driver.put_char(tty, buf[i]);
	if (tty->driver.flush_chars)
		tty->driver.flush_chars(tty);
	shim_quiesce();
	answer(tty->driver.write_room ? tty->driver.write_room(tty) : -1);
	answer(tty->driver.chars_in_buffer ? tty->driver.chars_in_buffer(tty) :
					     -1);
}

/* read what the line discipline holds */
static void step_read(struct xfile *f)
{
	unsigned char buf[512];

	while (x_read(0, f, buf, sizeof(buf)) > 0)
		;
}

/* termios: speeds, flow control, CLOCAL, as stty would change them */
static void step_termios(struct xfile *f)
{
	static const unsigned int speeds[] = { B9600, B38400, B115200, B1200,
					       B57600 };
	struct termios t;
	size_t i;

	if (x_ioctl(0, f, TCGETS, &t))
		return;
	for (i = 0; i < ARRAY_SIZE(speeds); i++) {
		t.c_cflag = (t.c_cflag & ~CBAUD) | speeds[i] | CLOCAL;
		t.c_cflag ^= (i & 1) ? CRTSCTS : 0;
		t.c_iflag ^= (i & 2) ? (IXON | IXOFF) : 0;
		t.c_cflag = (t.c_cflag & ~CSIZE) | ((i & 1) ? CS7 : CS8);
		x_ioctl(0, f, i & 1 ? TCSETSW : TCSETS, &t);
		answer(t.c_cflag);
	}
	x_ioctl(0, f, TCGETS, &t);
	answer(t.c_cflag);
	answer(t.c_iflag);
}

/*
 * A modem line (stty -clocal hupcl): carrier matters, so that a carrier
 * the device drops reaches the driver's hangup path.  Drivers start
 * their lines local or not as they choose; this one is not.
 */
static void step_modem_line(struct xfile *f)
{
	struct termios t;

	if (x_ioctl(0, f, TCGETS, &t))
		return;
	t.c_cflag = (t.c_cflag & ~CLOCAL) | HUPCL;
	x_ioctl(0, f, TCSETS, &t);
	answer(t.c_cflag);
}

/* the ioctls drivers answer themselves: modem lines, serial info, counts */
static void step_ioctls(struct xfile *f)
{
	struct serial_struct ss;
	struct serial_icounter_struct ic;
	unsigned int v;
	int arg;

	v = TIOCM_DTR | TIOCM_RTS;
	x_ioctl(0, f, TIOCMBIS, &v);
	sample_modem();
	v = TIOCM_RTS;
	x_ioctl(0, f, TIOCMBIC, &v);
	sample_modem();
	v = TIOCM_DTR | TIOCM_RTS;
	x_ioctl(0, f, TIOCMSET, &v);
	sample_modem();
	if (!x_ioctl(0, f, TIOCGSERIAL, &ss)) {
		answer(ss.type);
		answer(ss.xmit_fifo_size);
		answer(ss.baud_base);
		answer(ss.close_delay);
		answer(ss.flags);
		/* the same back: what a setserial with no change does */
		x_ioctl(0, f, TIOCSSERIAL, &ss);
	}
	x_ioctl(0, f, TIOCGICOUNT, &ic);
	x_ioctl(0, f, TIOCSERGETLSR, &v);
	x_ioctl(0, f, TIOCGSOFTCAR, &arg);
	arg = 1;
	x_ioctl(0, f, TIOCSSOFTCAR, &arg);
	x_ioctl(0, f, TIOCOUTQ, &arg);
	x_ioctl(0, f, TIOCINQ, &arg);
	x_ioctl(0, f, TCSBRK, (void *) 1); /* no break: a drain */
	x_ioctl(0, f, TCSBRK, NULL);	   /* a quarter second's break */
	x_ioctl(0, f, TCFLSH, (void *) TCIOFLUSH);
}

/* flow: stop and start output, xoff and xon, and the driver throttled */
static void step_flow(struct xfile *f)
{
	struct tty_struct *tty;

	x_ioctl(0, f, TCXONC, (void *) TCOOFF);
	step_write(f, 64);
	x_ioctl(0, f, TCXONC, (void *) TCOON);
	x_ioctl(0, f, TCXONC, (void *) TCIOFF);
	x_ioctl(0, f, TCXONC, (void *) TCION);
	tty = tty_of(f);
	if (!tty)
		return;
	if (tty->driver.throttle)
		tty->driver.throttle(tty);
	shim_quiesce();
	raise_lines(1);
	if (tty->driver.unthrottle)
		tty->driver.unthrottle(tty);
	shim_quiesce();
}

struct hangup_arg {
	struct xfile *f;
	int virtual;
};

static void do_hangup(void *p)
{
	struct hangup_arg *h = p;
	struct tty_struct *tty = tty_of(h->f);

	if (!tty)
		return;
	if (h->virtual)
		tty_vhangup(tty); /* vhangup(2): now, in this process */
	else
		tty_hangup(tty); /* as a driver does on carrier loss: keventd */
}

/* a hangup, then what the hung-up file answers */
static void step_hangup(struct xfile *f, int virtual)
{
	struct hangup_arg h = { f, virtual };
	unsigned char buf[16];

	if (call_in(0, do_hangup, &h))
		return;
	answer(tty_hung_up_p(&f->file));
	answer(x_write(0, f, "after", 5));
	answer(x_read(0, f, buf, sizeof(buf)));
	x_ioctl(0, f, TCGETS, buf);
}

/* --- the single-threaded scenarios ------------------------------------------ */

static void init_exit(struct scenario_ctx *ctx)
{
	ex_begin(ctx, 1);
	ex_end();
	report_steps();
}

/*
 * What the kernel holds for modules: regions, DMA channels, majors and
 * misc minors, interrupt lines, tty drivers, pending timers, as a list
 * of items ("region zbox 0x300-0x307, irq 5, ...") in @buf.
 */
static void add_items(char *buf, size_t len, const char *items)
{
	size_t off = strlen(buf);

	if (*items && off < len)
		snprintf(buf + off, len - off, "%s%s", off ? ", " : "", items);
}

static void kernel_held(char *buf, size_t len)
{
	unsigned int lines[MAX_LINES];
	struct tty_driver *d;
	char items[512];
	int i, n;

	buf[0] = 0;
	shim_regions_held(0, items, sizeof(items));
	add_items(buf, len, items);
	shim_regions_held(1, items, sizeof(items));
	add_items(buf, len, items);
	shim_dma_held(items, sizeof(items));
	add_items(buf, len, items);
	shim_chrdevs_held(items, sizeof(items));
	add_items(buf, len, items);
	n = sim_irq_lines(lines, MAX_LINES);
	for (i = 0; i < n; i++) {
		snprintf(items, sizeof(items), "irq %u", lines[i]);
		add_items(buf, len, items);
	}
	for (d = tty_drivers; d; d = d->next) {
		snprintf(items, sizeof(items), "tty driver %s", d->name ?: "?");
		add_items(buf, len, items);
	}
	shim_timers_pending(items, sizeof(items));
	add_items(buf, len, items);
}

/* the items of list @now that list @before does not hold, into @buf */
static void held_since(const char *before, const char *now, char *buf,
		       size_t len)
{
	const char *p = now;
	size_t off = 0;

	buf[0] = 0;
	while (*p) {
		const char *end = strstr(p, ", ");
		size_t n = end ? (size_t) (end - p) : strlen(p);
		const char *q = before;
		int found = 0;

		while (*q && !found) {
			const char *qend = strstr(q, ", ");
			size_t m = qend ? (size_t) (qend - q) : strlen(q);

			found = m == n && !strncmp(p, q, n);
			q += m + (qend ? 2 : 0);
		}
		if (!found && off < len)
			off += snprintf(buf + off, len - off, "%s%.*s",
					off ? ", " : "", (int) n, p);
		p += n + (end ? 2 : 0);
	}
}

/*
 * @s less the sizes of "kmalloc(N)": a structure holding a work is not
 * the size of one holding a tq_struct, and that is the conversion's, not
 * a difference of behaviour.
 */
static const char *side_neutral(const char *s, char *buf, size_t len)
{
	size_t off = 0;

	while (*s && off + 1 < len) {
		if (!strncmp(s, "kmalloc(", 8)) {
			const char *end = s + 8;

			while (*end >= '0' && *end <= '9')
				end++;
			if (*end == ')' && end > s + 8) {
				off += snprintf(buf + off, len - off,
						"kmalloc");
				s = end + 1;
				continue;
			}
		}
		buf[off++] = *s++;
	}
	buf[off < len ? off : len - 1] = 0;
	return buf;
}

/*
 * The module's init error paths, each of them.  A 2.4 init_module()
 * takes resources one after the other (memory, regions, its line, its
 * majors through tty_register_driver()) and, refused one, must give back
 * what it took so far: unwinding that no machine runs until something is
 * refused.  Try 0 loads the module and unloads it as init_exit does,
 * counting the requests its init made (N), and asks for N tries (at most
 * UNWIND_TRIES); try n refuses the n-th request as 2.4 refused it
 * (shim_fail_resource_nth()), and, as insmod did with an init that
 * failed, unloads nothing: what the init left behind (a region, a line, a
 * major, a tty driver, a timer, memory, a thread) it leaked, named with n
 * and what was refused (an init returning more than 0 failed too: 2.4.0's
 * sys_init_module() took it for -EBUSY, "Buggy module").  An init that
 * goes on without what it was refused (a board of several skipped) is
 * in: it is unloaded as rmmod would, and checked as init_exit is.
 *
 * Each try is a process of its own, not a loop in one: insmod loaded each
 * module image afresh, so a driver's statics started from the image in
 * every try, which resetting them in place would only imitate; and a try
 * that panics (serial.c panics when it cannot register) ends only
 * itself.  What a try leaves in the kernel is that try's report: a
 * second insmod into the same kernel would find it taken.
 */
#define UNWIND_TRIES 64

static void init_unwind(struct scenario_ctx *ctx)
{
	char before[1024], now[1024], left[1024], mem[512], why[1536];
	char neutral[1024];
	unsigned long mark;
	long leaked;
	int threads;

	unwind.fail = scn_try(ctx);
	ex_boot(ctx, 1);
	kernel_held(before, sizeof(before));
	mark = shim_kmalloc_calls();
	threads = shim_kthreads_running();
	ex_load(ctx);
	if (!unwind.fail) {
		/*
		 * what the driver asks for is compared; the queue a
		 * conversion gave it asks for more, each refused in a try
		 * of its own all the same
		 */
		obs_u64(ctx, "requests",
			unwind.requests - unwind.queue_requests);
		stat_u64(ctx, "queue_requests", unwind.queue_requests);
		if (unwind.queue_requests)
			scn_tries_alone(ctx, UNWIND_QUEUE_TRY + 1,
					unwind.queue_requests > UNWIND_TRIES ?
						UNWIND_TRIES :
						unwind.queue_requests);
		scn_tries(ctx, unwind.requests > UNWIND_TRIES ?
				       UNWIND_TRIES :
				       unwind.requests);
		stat_u64(ctx, "requests_not_tried",
			 unwind.requests > UNWIND_TRIES ?
				 unwind.requests - UNWIND_TRIES :
				 0);
	} else if (!ex.hung) {
		obs_str(ctx, "refused",
			side_neutral(unwind.refused, neutral, sizeof(neutral)));
	}
	if (unwind.fail && !ex.loaded && !ex.hung) {
		kernel_held(now, sizeof(now));
		held_since(before, now, left, sizeof(left));
		leaked = shim_kmalloc_since(mark, mem, sizeof(mem));
		if (leaked)
			snprintf(left + strlen(left),
				 sizeof(left) - strlen(left), "%s%s",
				 *left ? ", " : "", mem);
		if (shim_kthreads_running() > threads)
			snprintf(left + strlen(left),
				 sizeof(left) - strlen(left),
				 "%s%d kernel threads", *left ? ", " : "",
				 shim_kthreads_running() - threads);
		obs_str(ctx, "left",
			side_neutral(left, neutral, sizeof(neutral)));
		snprintf(why, sizeof(why),
			 "try %u: %s refused, init_module() returned %d and "
			 "left %s",
			 unwind.fail,
			 *unwind.refused ? unwind.refused : "nothing", init_ret,
			 left);
		inv_why(ctx, "failed_init_left_nothing", !*left, why);
	}
	ex_end();
	report_steps();
}

static void open_write_close(struct scenario_ctx *ctx)
{
	int i, n;

	if (ex_begin(ctx, 1)) {
		n = open_ports(scn_size(ctx, 4, 2));
		obs_i64(ctx, "ports_open", n);
		obs_i64(ctx, "use_count_open", MOD_IN_USE);
		for (i = 0; i < n; i++)
			step_write(&ex.files[i], scn_size(ctx, 512, 64));
		raise_lines(scn_size(ctx, 8, 2));
		for (i = 0; i < n; i++)
			step_write(&ex.files[i], scn_size(ctx, 256, 32));
		close_all();
	}
	ex_end();
	report_steps();
}

static void receive(struct scenario_ctx *ctx)
{
	int i, n;

	if (ex_begin(ctx, 1)) {
		n = open_ports(scn_size(ctx, 4, 1));
		raise_lines(scn_size(ctx, 64, 8));
		for (i = 0; i < n; i++)
			step_read(&ex.files[i]);
		raise_lines(scn_size(ctx, 16, 4));
		close_all();
	}
	ex_end();
	report_steps();
}

static void modem_hangup(struct scenario_ctx *ctx)
{
	int i, n;

	if (ex_begin(ctx, 1)) {
		n = open_ports(scn_size(ctx, 3, 2));
		for (i = 0; i < n; i++)
			step_modem_line(&ex.files[i]);
		sample_modem();
		raise_lines(scn_size(ctx, 8, 2));
		sample_modem();
		if (n > 0)
			step_hangup(&ex.files[0], 0);
		if (n > 1)
			step_hangup(&ex.files[1], 1);
		raise_lines(scn_size(ctx, 4, 1));
		sample_modem();
		close_all();
	}
	ex_end();
	report_steps();
}

static void termios_ioctl(struct scenario_ctx *ctx)
{
	if (ex_begin(ctx, 1)) {
		if (open_ports(1) > 0) {
			step_termios(&ex.files[0]);
			step_ioctls(&ex.files[0]);
			raise_lines(scn_size(ctx, 4, 1));
			step_write(&ex.files[0], 128);
		}
		close_all();
	}
	ex_end();
	report_steps();
}

static void throttle_flow(struct scenario_ctx *ctx)
{
	if (ex_begin(ctx, 1)) {
		if (open_ports(1) > 0) {
			step_flow(&ex.files[0]);
			/* what the device sends fills the discipline: throttled */
			raise_lines(scn_size(ctx, 96, 12));
			step_read(&ex.files[0]);
			raise_lines(scn_size(ctx, 8, 2));
		}
		close_all();
	}
	ex_end();
	report_steps();
}

/*
 * Unload with work pending: the lines fire and the ports close with no
 * idle between, so flip pushes and the driver's tasks are still queued
 * when it closes and when rmmod comes (first refused: in use).  The
 * ports are told not to wait for output at close (setserial's
 * closing_wait none, close_delay 0), so that time does not move there.
 */
static void exit_busy(struct scenario_ctx *ctx)
{
	struct serial_struct ss;
	int i, n, t;

	if (ex_begin(ctx, 1)) {
		n = open_ports(scn_size(ctx, 2, 1));
		for (i = 0; i < n; i++) {
			if (x_ioctl(0, &ex.files[i], TIOCGSERIAL, &ss))
				continue;
			ss.closing_wait = ASYNC_CLOSING_WAIT_NONE;
			ss.close_delay = 0;
			x_ioctl(0, &ex.files[i], TIOCSSERIAL, &ss);
		}
		for (t = 0; t < scn_size(ctx, 16, 4); t++)
			for (i = 0; i < ex.nlines; i++)
				sim_raise_irq(ex.lines[i]);
		/* rmmod now: refused while the ports are open, then again */
	}
	ex_end();
	report_steps();
}

/* --- concurrent scenarios: counts and sets only --------------------------------- */

struct worker {
	struct xfile f;
	int major, minor;
	int opened, closed, writes, reads;
	size_t len;
	u64 prng;
};

static struct worker workers[MAX_PROCS];

static void worker_session(void *p)
{
	struct worker *w = p;
	struct fop o = { .f = &w->f,
			 .major = w->major,
			 .minor = w->minor,
			 .flags = O_RDWR | O_NONBLOCK | O_NOCTTY };
	unsigned char buf[256];
	size_t i;

	do_open(&o);
	if (o.ret)
		return;
	w->opened++;
	for (i = 0; i < w->len; i++) {
		struct fop io = { .f = &w->f, .buf = (char *) buf };
		struct tty_struct *tty = tty_of(&w->f);

		world_prng_fill(&w->prng, buf, sizeof(buf));
		io.len = 1 + world_prng_below(&w->prng, sizeof(buf));
		do_write(&io);
		w->writes += io.ret > 0;
		io.len = sizeof(buf);
		do_read(&io);
		w->reads += io.ret > 0;
		if (tty && tty->driver.chars_in_buffer)
			(void) tty->driver.chars_in_buffer(tty);
		if (tty && (i & 3) == 0) {
			struct termios t;

			o.cmd = TCGETS;
			o.arg = (unsigned long) &t;
			do_ioctl(&o);
		}
	}
	do_close(&o);
	w->closed++;
}

/*
 * @nproc processes each open a minor (the first @nminors that open,
 * shared round robin) and write, read and ask while the main task
 * raises the lines.
 */
static void concurrent(struct scenario_ctx *ctx, int nminors)
{
	int majors[MAX_FILES], minors[MAX_FILES];
	int i, n, t, opened = 0, closed = 0;
	const char *names[MAX_PROCS];
	char namebuf[MAX_PROCS][32];

	if (!ex_begin(ctx, MAX_PROCS)) {
		ex_end();
		return;
	}
	n = open_ports(nminors);
	for (i = 0; i < n; i++) {
		majors[i] = MAJOR(ex.files[i].inode.i_rdev);
		minors[i] = MINOR(ex.files[i].inode.i_rdev);
	}
	close_all();
	ex.nfiles = 0;
	obs_i64(ctx, "ports", n);
	if (n == 0) {
		ex_end();
		return;
	}
	for (i = 0; i < MAX_PROCS; i++) {
		struct worker *w = &workers[i];

		memset(w, 0, sizeof(*w));
		w->major = majors[i % n];
		w->minor = minors[i % n];
		w->len = scn_size(ctx, 64, 8);
		w->prng = world_prng_seed(scn_seed(ctx) * 31 + i);
		proc_give(&ex.proc[i], worker_session, w);
	}
	for (t = 0; t < scn_size(ctx, 64, 8) && procs_busy(ex.proc, MAX_PROCS);
	     t++)
		for (i = 0; i < ex.nlines; i++)
			sim_raise_irq(ex.lines[i]);
	if (run_clock(ex.proc, MAX_PROCS)) {
		ex.hung = 1;
		inv(ctx, "no_process_hangs", 0);
	}
	for (i = 0; i < MAX_PROCS; i++) {
		opened += workers[i].opened;
		closed += workers[i].closed;
		snprintf(namebuf[i], sizeof(namebuf[i]), "%d:%d",
			 workers[i].major, workers[i].minor);
		names[i] = namebuf[i];
		stat_u64(ctx, "writes_taken", workers[i].writes);
	}
	qsort(names, MAX_PROCS, sizeof(names[0]), scn_cmp_str);
	obs_str_list(ctx, "devices", names, MAX_PROCS);
	stat_u64(ctx, "sessions_opened", opened);
	inv(ctx, "every_session_closed", opened == closed);
	ex_end();
	report_records(1);
}

static void parallel_ports(struct scenario_ctx *ctx)
{
	concurrent(ctx, MAX_PROCS);
}

static void shared_port(struct scenario_ctx *ctx)
{
	concurrent(ctx, 1);
}

/*
 * The scenarios, listed (--list) in the order below: the device search
 * (demo/device_search.py) starts with the first, which opens a port and
 * has the device interrupt.  The linker lays a file's entries out last
 * first, hence the order here.
 */
XSCENARIO(EXERCISE_DRIVER, "shared_port", 1, shared_port,
	  "four processes open one minor and use it while the lines fire");
XSCENARIO(EXERCISE_DRIVER, "parallel_ports", 1, parallel_ports,
	  "four processes on four minors while the lines fire");
XSCENARIO(EXERCISE_DRIVER, "exit_busy", 0, exit_busy,
	  "rmmod with ports open and interrupts' work still queued");
XSCENARIO(EXERCISE_DRIVER, "throttle_flow", 0, throttle_flow,
	  "stop/start, xoff/xon, throttle and unthrottle");
XSCENARIO(EXERCISE_DRIVER, "termios_ioctl", 0, termios_ioctl,
	  "baud and flow changes, modem lines, serial info, breaks, flushes");
XSCENARIO(EXERCISE_DRIVER, "modem_hangup", 0, modem_hangup,
	  "modem lines, carrier changes with -clocal, a hangup, a vhangup");
XSCENARIO(EXERCISE_DRIVER, "init_unwind", 0, init_unwind,
	  "init_module() refused each resource in turn: what it gives back");
XSCENARIO(EXERCISE_DRIVER, "init_exit", 0, init_exit,
	  "load the module and unload it: what it registers and frees");
XSCENARIO(EXERCISE_DRIVER, "open_write_close", 0, open_write_close,
	  "open minors, write and put_char, transmit interrupts, close");
XSCENARIO(EXERCISE_DRIVER, "receive", 0, receive,
	  "open, then the device interrupts: flip buffer pushes, reads");
