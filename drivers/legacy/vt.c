/*
 * vt.c - the virtual consoles' deferred work, as of 2.5.39.
 *
 * What may not be done from interrupt context (switching consoles,
 * blanking and unblanking the screen, all under the console semaphore)
 * is asked for by setting a flag and scheduling console_callback() on the
 * task queue: schedule_console_callback().  The keyboard interrupt also
 * puts characters into the console's tty and schedules its flip.
 *
 * There is no screen: a console switch, a blank and an unblank are
 * recorded, and that is all they do.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/timer.h>
#include <linux/interrupt.h>
#include <linux/tqueue.h>
#include <linux/tty.h>
#include <linux/tty_flip.h>
#include <asm/semaphore.h>

#include <entry/tty.h>

#define MAX_NR_CONSOLES	8
#define VT_LOG_LEN	64

static void console_callback(void *ignored);
static void blank_screen(unsigned long dummy);
static void unblank_screen_t(unsigned long dummy);

static int vc_allocated[MAX_NR_CONSOLES];

/*
 * fg_console is the current virtual console,
 * want_console is the console we want to switch to,
 * console_blanked is the screen's state.
 */
int fg_console;
int want_console = -1;
static int console_blanked;
static int do_poke_blanked_console;
static int blank_timer_expired;
static int blankinterval = 10*60*HZ;

static struct timer_list console_timer;
static struct tty_struct *console_tty;	/* where the keyboard types */
static spinlock_t console_tty_lock = SPIN_LOCK_UNLOCKED;

static DECLARE_MUTEX(console_sem);

static struct tq_struct console_callback_tq = {
	routine: console_callback,
};

/* what happened, for the scenarios (under console_sem) */
static unsigned long vt_switches, vt_blanks, vt_unblanks, vt_callbacks;
static int vt_log[VT_LOG_LEN];
static int vt_log_len;

static void acquire_console_sem(void)
{
	if (in_interrupt())
		BUG();
	down(&console_sem);
}

static void release_console_sem(void)
{
	up(&console_sem);
}

static int vc_cons_allocated(unsigned int i)
{
	return i < MAX_NR_CONSOLES && vc_allocated[i];
}

/*
 * This is the console switching callback.
 *
 * Doing console switching in a process context allows
 * us to do the switches asynchronously (needed when we want
 * to switch due to a keyboard interrupt).  Synchronization
 * with other console code and prevention of re-entrancy is
 * ensured with console_sem.
 */
void schedule_console_callback(void)
{
	schedule_task(&console_callback_tq);
}

static void change_console(unsigned int new_console)
{
	if (new_console == fg_console)
		return;
	fg_console = new_console;
	vt_switches++;
	if (vt_log_len < VT_LOG_LEN)
		vt_log[vt_log_len++] = new_console;
}

static void do_blank_screen(void)
{
	if (console_blanked)
		return;
	console_blanked = fg_console + 1;
	vt_blanks++;
}

static void do_unblank_screen(void)
{
	if (!console_blanked)
		return;
	console_blanked = 0;
	vt_unblanks++;
	if (blankinterval) {
		console_timer.function = blank_screen;
		mod_timer(&console_timer, jiffies + blankinterval);
	}
}

/* called with console_sem held: restart the blank timer, or unblank now */
static void poke_blanked_console(void)
{
	del_timer(&console_timer);
	if (console_blanked) {
		console_timer.function = unblank_screen_t;
		mod_timer(&console_timer, jiffies);	/* Now */
	} else if (blankinterval) {
		console_timer.function = blank_screen;
		mod_timer(&console_timer, jiffies + blankinterval);
	}
}

static void console_callback(void *ignored)
{
	acquire_console_sem();

	if (want_console >= 0) {
		if (want_console != fg_console &&
		    vc_cons_allocated(want_console))
			change_console(want_console);
		want_console = -1;
	}
	if (do_poke_blanked_console) { /* do not unblank for a LED change */
		do_poke_blanked_console = 0;
		if (console_blanked)
			do_unblank_screen();
		else
			poke_blanked_console();
	}
	if (blank_timer_expired) {
		do_blank_screen();
		blank_timer_expired = 0;
	}
	vt_callbacks++;

	release_console_sem();
}

/* may be called from interrupt context (the keyboard's Alt-Fn) */
void set_console(int nr)
{
	want_console = nr;
	schedule_console_callback();
}

/* timer context: the blank interval has passed */
static void blank_screen(unsigned long dummy)
{
	blank_timer_expired = 1;
	schedule_console_callback();
}

/* timer context: something asked for the screen back */
static void unblank_screen_t(unsigned long dummy)
{
	do_poke_blanked_console = 1;
	schedule_console_callback();
}

/*
 * The keyboard interrupt: a key was pressed.  The screen comes back, and
 * the character goes to the console's tty through its flip buffer.
 */
void vt_keyboard_interrupt(unsigned char ch)
{
	struct tty_struct *tty;

	do_poke_blanked_console = 1;
	schedule_console_callback();

	spin_lock(&console_tty_lock);
	tty = console_tty;
	if (tty) {
		spin_lock(&tty->flip.lock);
		if (tty->flip.count < TTY_FLIPBUF_SIZE)
			tty_insert_flip_char(tty, ch, TTY_NORMAL);
		spin_unlock(&tty->flip.lock);
		tty_schedule_flip(tty);
	}
	spin_unlock(&console_tty_lock);
}

/* the keyboard interrupt takes console_tty_lock: keep it out meanwhile */
void vt_attach_tty(struct tty_struct *tty)
{
	unsigned long flags;

	spin_lock_irqsave(&console_tty_lock, flags);
	console_tty = tty;
	spin_unlock_irqrestore(&console_tty_lock, flags);
}

void vt_set_blank_interval(unsigned long ticks)
{
	acquire_console_sem();
	blankinterval = ticks;
	del_timer(&console_timer);
	if (blankinterval && !console_blanked) {
		console_timer.function = blank_screen;
		mod_timer(&console_timer, jiffies + blankinterval);
	}
	release_console_sem();
}

void vt_get_stats(struct vt_stats *st)
{
	int i;

	acquire_console_sem();
	st->fg_console = fg_console;
	st->blanked = console_blanked != 0;
	st->switches = vt_switches;
	st->blanks = vt_blanks;
	st->unblanks = vt_unblanks;
	st->callbacks = vt_callbacks;
	st->log_len = vt_log_len;
	for (i = 0; i < vt_log_len; i++)
		st->log[i] = vt_log[i];
	release_console_sem();
}

/* wait until the console callback asked for so far has run */
void vt_quiesce(void)
{
	flush_scheduled_tasks();
}

int __init vt_init(void)
{
	int i;

	for (i = 0; i < MAX_NR_CONSOLES; i++)
		vc_allocated[i] = i < 6;
	fg_console = 0;
	want_console = -1;
	console_blanked = 0;
	do_poke_blanked_console = 0;
	blank_timer_expired = 0;
	vt_switches = vt_blanks = vt_unblanks = vt_callbacks = 0;
	vt_log_len = 0;

	init_timer(&console_timer);
	console_timer.function = blank_screen;
	if (blankinterval)
		mod_timer(&console_timer, jiffies + blankinterval);
	return 0;
}

void __exit vt_exit(void)
{
	del_timer_sync(&console_timer);
	vt_attach_tty(NULL);
	/* the callback may still be queued: let it run before we go */
	flush_scheduled_tasks();
	del_timer_sync(&console_timer);
}

MODULE_LICENSE("GPL");
