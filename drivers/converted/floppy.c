/*
 * floppy.c - the floppy driver's interrupt and bottom-half machinery, as
 * of 2.5.39, for one 1.44M drive on one controller.
 *
 * A request is carried out as a chain of steps.  A step issues a command
 * to the controller and sets do_floppy to the step that must follow; the
 * controller's interrupt takes do_floppy and runs it as a "bottom half"
 * through the task queue: schedule_bh() points the one floppy_tq at the
 * handler and schedules it.  Steps that only wait (the motor spinning up)
 * use fd_timer; fd_timeout is the watchdog that, when an interrupt never
 * comes, cancels whatever was pending (cancel_activity: do_floppy, the
 * bottom half, fd_timer) and resets the controller.
 *
 * There is no block layer: requests come from floppy_submit() and are
 * completed with a completion.  The controller is simulated
 * (world/fdc.c).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/timer.h>
#include <linux/interrupt.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <asm/bitops.h>
#include <asm/atomic.h>

#include <entry/floppy.h>
#include <world/irq.h>
#include <world/fdc.h>

#define FLOPPY_SANITY_CHECK

#define DPRINT(format, args...) printk(KERN_INFO "floppy0: " format, ##args)

#define FLOPPY_IRQ	6
#define MAX_REPLIES	16
#define MAX_ERRORS	6		/* then the request fails */
#define FD_TIMEOUT	(3 * HZ)	/* the watchdog */
#define MOTOR_SPINUP	(HZ / 2)	/* before the first transfer */
#define MOTOR_OFF_DELAY	(3 * HZ)	/* after the last */

typedef void (*timeout_fn)(unsigned long);

static struct sim_fdc *fdc_state;	/* the controller: FDCS */
static int have_no_fdc = -ENODEV;
static int usage_count;
static unsigned long fdc_busy;		/* bit 0: a request chain is running */
static spinlock_t floppy_lock = SPIN_LOCK_UNLOCKED;
static LIST_HEAD(floppy_queue);
static struct fd_request *current_req;
static int cur_cyl = -1;		/* where the head is; -1: unknown */
static int motor_on;
static int raw_start_sector;		/* of the transfer in progress */
static const char *timeout_message;
static unsigned long interruptjiffies;
static atomic_t bh_generation = ATOMIC_INIT(0);
static struct floppy_stats fstats;

static int inr; /* size of reply buffer, when called from interrupt */
static unsigned char reply_buffer[MAX_REPLIES];
#define ST0 (reply_buffer[0])
#define ST1 (reply_buffer[1])
#define ST2 (reply_buffer[2])
#define R_TRACK (reply_buffer[3])
#define R_HEAD (reply_buffer[4])
#define R_SECTOR (reply_buffer[5])
#define R_SIZECODE (reply_buffer[6])

static void floppy_ready(void);
static void redo_fd_request(void);
static void reset_fdc(void);

/*
 * The "reset" variable should be tested whenever an interrupt is scheduled,
 * after the commands have been sent. This is to ensure that the driver doesn't
 * get wedged when the interrupt doesn't come because of a failed command.
 * reset doesn't need to be tested before sending commands, because
 * output_byte is automatically disabled when reset is set.
 */
static void (*do_floppy)(void) = NULL;

static void empty(void)
{
}

static DECLARE_WORK(floppy_work, NULL, NULL);

static void schedule_bh( void (*handler)(void*) )
{
	atomic_inc(&bh_generation);
	PREPARE_WORK(&floppy_work, handler, NULL);
	schedule_work(&floppy_work);
}

static struct timer_list fd_timer;

static void cancel_activity(void)
{
	do_floppy = NULL;
	PREPARE_WORK(&floppy_work, (void *)(void *)empty, NULL);
	del_timer(&fd_timer);
}

static struct timer_list fd_timeout;
static struct timer_list motor_off_timer;

static void reschedule_timeout(const char *message)
{
	timeout_message = message;
	mod_timer(&fd_timeout, jiffies + FD_TIMEOUT);
}

/* wait until @delay (jiffies), then call @function in timer context */
static void fd_wait_for_completion(unsigned long delay, timeout_fn function)
{
	del_timer(&fd_timer);
	fd_timer.function = function;
	fd_timer.expires = delay;
	add_timer(&fd_timer);
}

/* gets the response from the fdc */
static int result(void)
{
	return sim_fdc_result(fdc_state, reply_buffer, MAX_REPLIES);
}

static int output_command(struct fdc_cmd *cmd)
{
	if (sim_fdc_command(fdc_state, cmd)) {
		DPRINT("Unable to send command 0x%x to FDC\n", cmd->op);
		return -1;
	}
	return 0;
}

static void unexpected_floppy_interrupt(void)
{
	unsigned char st0, pcn;

	fstats.unexpected++;
	sim_fdc_sense(fdc_state, &st0, &pcn);
}

/* interrupt handler. Note that this can be called externally on the Sparc */
static void floppy_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	void (*handler)(void) = do_floppy;

	fstats.interrupts++;
	interruptjiffies = jiffies;
	do_floppy = NULL;
	if (!handler) {
		/* we don't even know which FDC is the culprit */
		unexpected_floppy_interrupt();
		return;
	}
	inr = result();
	schedule_bh( (void *)(void *) handler);
}

static void motor_off_callback(unsigned long nr)
{
	if (test_bit(0, &fdc_busy))
		return;		/* a request came in meanwhile: keep spinning */
	sim_fdc_motor(fdc_state, 0);
	motor_on = 0;
}

/* switch the motor on and call @function once it turns at full speed */
static void start_motor(void (*function)(void))
{
	del_timer(&motor_off_timer);
	sim_fdc_motor(fdc_state, 1);
	motor_on = 1;
	fstats.spinups++;
	fd_wait_for_completion(jiffies + MOTOR_SPINUP, (timeout_fn) function);
}

static void request_done(int uptodate)
{
	struct fd_request *req = current_req;
	unsigned long flags;

	if (!req) {
		DPRINT("request list destroyed in floppy request done\n");
		return;
	}
	spin_lock_irqsave(&floppy_lock, flags);
	current_req = NULL;
	spin_unlock_irqrestore(&floppy_lock, flags);

	req->result = uptodate ? 0 : -EIO;
	req->done_jiffies = jiffies;
	if (uptodate)
		fstats.completed++;
	else
		fstats.failed++;
	wmb();
	req->done = 1;
	complete(&req->completion);	/* req may be gone after this */
}

/*
 * Error recovery: count the error, recalibrate after a few, give the
 * request up after too many.
 */
static void bad_flp_intr(void)
{
	struct fd_request *req = current_req;

	fstats.retries++;
	if (++req->errors > MAX_ERRORS) {
		DPRINT("I/O error, sector %lu\n", req->sector_pos);
		request_done(0);
		redo_fd_request();
		return;
	}
	if (req->errors > MAX_ERRORS / 2)
		cur_cyl = -1;	/* recalibrate first */
	floppy_ready();
}

/*
 * Interrupt handler evaluating the result of the r/w operation.
 */
static void rw_interrupt(void)
{
	struct fd_request *req = current_req;
	int done;

	if (!req) {
		redo_fd_request();
		return;
	}
	if (inr != 7) {
		DPRINT("-- FDC reply error (%d bytes)\n", inr);
		bad_flp_intr();
		return;
	}
	done = R_SECTOR - raw_start_sector;
	if (done > 0) {
		req->sector_pos += done;
		req->left -= done;
		req->pos += done * FD_SECTSIZE;
	}
	if ((ST0 & ST0_INTR) != 0) {
		bad_flp_intr();
		return;
	}
	if (req->left) {
		floppy_ready();		/* on to the next track */
		return;
	}
	request_done(1);
	redo_fd_request();
}

static void setup_rw_floppy(void)
{
	struct fd_request *req = current_req;
	struct fdc_cmd cmd;
	unsigned long lba = req->sector_pos;

	cmd.op = req->cmd == FD_WRITE_REQ ? FD_WRITE : FD_READ;
	cmd.cyl = lba / (FD_SECTORS * FD_HEADS);
	cmd.head = (lba / FD_SECTORS) % FD_HEADS;
	cmd.sector = lba % FD_SECTORS + 1;
	cmd.count = min_t(int, req->left, FD_SECTORS - cmd.sector + 1);
	cmd.buf = req->pos;
	raw_start_sector = cmd.sector;

	do_floppy = rw_interrupt;
	reschedule_timeout("rw");
	if (output_command(&cmd) < 0)
		reset_fdc();
}

/*
 * This is the routine called after every seek (or recalibrate) interrupt
 * from the floppy controller.
 */
static void seek_interrupt(void)
{
	unsigned char st0, pcn;

	sim_fdc_sense(fdc_state, &st0, &pcn);
	if ((st0 & ST0_INTR) || !(st0 & ST0_SE)) {
		DPRINT("seek failed\n");
		cur_cyl = -1;
	} else {
		cur_cyl = pcn;
		fstats.seeks++;
	}
	floppy_ready();
}

static void recal_interrupt(void)
{
	unsigned char st0, pcn;

	sim_fdc_sense(fdc_state, &st0, &pcn);
	if ((st0 & ST0_INTR) || (st0 & ST0_ECE)) {
		DPRINT("recalibrate failed\n");
		reset_fdc();
		return;
	}
	cur_cyl = pcn;
	fstats.recals++;
	floppy_ready();
}

static void seek_floppy(int cyl)
{
	struct fdc_cmd cmd = { .op = FD_SEEK, .cyl = cyl };

	do_floppy = seek_interrupt;
	reschedule_timeout("seek");
	if (output_command(&cmd) < 0)
		reset_fdc();
}

static void recalibrate_floppy(void)
{
	struct fdc_cmd cmd = { .op = FD_RECALIBRATE };

	do_floppy = recal_interrupt;
	reschedule_timeout("recalibrate");
	if (output_command(&cmd) < 0)
		reset_fdc();
}

/* the next step of the current request: motor, head, then transfer */
static void floppy_ready(void)
{
	struct fd_request *req = current_req;
	int cyl;

	if (!req) {
		redo_fd_request();
		return;
	}
	if (!motor_on) {
		start_motor(floppy_ready);
		return;
	}
	if (cur_cyl < 0) {
		recalibrate_floppy();
		return;
	}
	cyl = req->sector_pos / (FD_SECTORS * FD_HEADS);
	if (cyl != cur_cyl) {
		seek_floppy(cyl);
		return;
	}
	setup_rw_floppy();
}

/*
 * Take the next request off the queue and start it; with none left,
 * release the controller and let the motor stop a little later.
 */
static void redo_fd_request(void)
{
	unsigned long flags;

	spin_lock_irqsave(&floppy_lock, flags);
	if (!current_req) {
		if (list_empty(&floppy_queue)) {
			clear_bit(0, &fdc_busy);
			spin_unlock_irqrestore(&floppy_lock, flags);
			del_timer(&fd_timeout);
			if (motor_on)
				mod_timer(&motor_off_timer, jiffies + MOTOR_OFF_DELAY);
			return;
		}
		current_req = list_entry(floppy_queue.next, struct fd_request,
					 queue);
		list_del_init(&current_req->queue);
	}
	spin_unlock_irqrestore(&floppy_lock, flags);

	reschedule_timeout("redo fd request");
	floppy_ready();
}

static void process_fd_request(void)
{
	schedule_bh( (void *)(void *) redo_fd_request);
}

/* the reset's interrupt: sense it, then carry on with the requests */
static void reset_interrupt(void)
{
	unsigned char st0, pcn;

	sim_fdc_sense(fdc_state, &st0, &pcn);
	fstats.resets++;
	cur_cyl = -1;
	if (current_req && current_req->errors > MAX_ERRORS) {
		request_done(0);
	}
	redo_fd_request();
}

/*
 * reset is done by pulling bit 2 of DOR low for a while (old FDCs),
 * or by setting the self clearing bit 7 of STATUS (newer FDCs)
 */
static void reset_fdc(void)
{
	do_floppy = reset_interrupt;
	cur_cyl = -1;
	reschedule_timeout("reset");
	sim_fdc_reset(fdc_state);
}

void show_floppy(void)
{
	printk("\n");
	printk("floppy driver state\n");
	printk("-------------------\n");
	printk("now=%lu last interrupt=%lu diff=%lu\n",
	       jiffies, interruptjiffies, jiffies - interruptjiffies);
	printk("fdc_busy=%lu\n", fdc_busy);
	if (do_floppy)
		printk("do_floppy=%p\n", (void *) do_floppy);
	if (floppy_work.pending)
		printk("floppy_tq.routine=%p\n", (void *) floppy_work.func);
	if (timer_pending(&fd_timer))
		printk("fd_timer.function=%p\n", (void *) fd_timer.function);
	if (timer_pending(&fd_timeout)){
		printk("timer_function=%p\n", (void *) fd_timeout.function);
		printk("expires=%lu\n", fd_timeout.expires - jiffies);
		printk("now=%lu\n", jiffies);
	}
	printk("current_req=%p\n", (void *) current_req);
	printk("cur_cyl=%d motor_on=%d\n", cur_cyl, motor_on);
	printk("\n");
}

/* the watchdog: an interrupt did not come */
static void floppy_shutdown(unsigned long data)
{
	fstats.timeouts++;
	printk(KERN_INFO "floppy0: timeout handler: %s\n", timeout_message);
	show_floppy();
	cancel_activity();
	if (current_req) {
		current_req->errors++;
		fstats.retries++;
	}
	reset_fdc();
}

static int floppy_grab_irq_and_dma(void)
{
	if (usage_count++)
		return 0;
	if (request_irq(FLOPPY_IRQ, floppy_interrupt, SA_INTERRUPT, "floppy",
			NULL)) {
		DPRINT("Unable to grab IRQ%d for the floppy driver\n",
		       FLOPPY_IRQ);
		usage_count--;
		return -1;
	}
	return 0;
}

static void floppy_release_irq_and_dma(void)
{
	if (--usage_count)
		return;
	if (fdc_state && motor_on) {
		sim_fdc_motor(fdc_state, 0);
		motor_on = 0;
	}
	free_irq(FLOPPY_IRQ, NULL);

#ifdef FLOPPY_SANITY_CHECK
	if (timer_pending(&fd_timeout))
		printk("floppy timer still active:%s\n", timeout_message);
	if (timer_pending(&fd_timer))
		printk("auxiliary floppy timer still active\n");
	if (floppy_work.pending)
		printk("task queue still active\n");
#endif
}

int floppy_submit(struct fd_request *req)
{
	unsigned long flags;
	int kick;

	if (have_no_fdc)
		return -ENODEV;
	if (!req->nr_sectors || req->sector + req->nr_sectors > FD_TOTAL ||
	    !req->buffer)
		return -EINVAL;

	init_completion(&req->completion);
	req->errors = 0;
	req->result = 0;
	req->done = 0;
	req->sector_pos = req->sector;
	req->left = req->nr_sectors;
	req->pos = req->buffer;

	spin_lock_irqsave(&floppy_lock, flags);
	list_add_tail(&req->queue, &floppy_queue);
	fstats.submitted++;
	kick = !test_and_set_bit(0, &fdc_busy);
	spin_unlock_irqrestore(&floppy_lock, flags);

	if (kick)
		process_fd_request();
	return 0;
}

void floppy_wait(struct fd_request *req)
{
	wait_for_completion(&req->completion);
}

/*
 * Run the floppy's bottom halves until none is left: after it returns
 * the driver waits on the controller or on a timer, or is idle.  On the
 * virtual clock this makes every run take the same steps at the same
 * jiffies.
 */
void floppy_settle(void)
{
	int gen;

	do {
		gen = atomic_read(&bh_generation);
		flush_scheduled_work();
	} while (gen != atomic_read(&bh_generation));
}

void floppy_get_stats(struct floppy_stats *st)
{
	*st = fstats;
	st->bh_scheduled = atomic_read(&bh_generation);
	st->bh_pending = floppy_work.pending ? 1 : 0;
}

int __init floppy_init(void)
{
	init_timer(&fd_timer);
	init_timer(&fd_timeout);
	fd_timeout.function = floppy_shutdown;
	init_timer(&motor_off_timer);
	motor_off_timer.function = motor_off_callback;

	memset(&fstats, 0, sizeof(fstats));
	atomic_set(&bh_generation, 0);
	cur_cyl = -1;
	motor_on = 0;
	fdc_busy = 0;
	current_req = NULL;
	do_floppy = NULL;

	fdc_state = sim_fdc_get();
	have_no_fdc = -ENODEV;
	if (fdc_state && sim_fdc_version(fdc_state) == FDC_82077) {
		printk(KERN_INFO "Floppy drive(s): fd0 is 1.44M\n");
		printk(KERN_INFO "FDC 0 is a post-1991 82077\n");
		have_no_fdc = 0;
	}

	if (floppy_grab_irq_and_dma()) {
		have_no_fdc = -EBUSY;
		return -EBUSY;
	}

	/* a reset brings the controller to a known state; its interrupt
	 * runs the request chain, which finds nothing to do yet */
	if (!have_no_fdc) {
		set_bit(0, &fdc_busy);
		reset_fdc();
	}

	if (have_no_fdc)
	{
		DPRINT("no floppy controllers found\n");
		flush_scheduled_work();
		if (usage_count)
			floppy_release_irq_and_dma();
		return have_no_fdc;
	}
	return 0;
}

void __exit floppy_exit(void)
{
	del_timer_sync(&motor_off_timer);
	del_timer_sync(&fd_timer);
	del_timer_sync(&fd_timeout);
	/* make sure no bottom half still runs on us */
	flush_scheduled_work();
	if (!have_no_fdc)
		floppy_release_irq_and_dma();
	have_no_fdc = -ENODEV;
	fdc_state = NULL;
}

EXPORT_SYMBOL(floppy_submit);

MODULE_LICENSE("GPL");
