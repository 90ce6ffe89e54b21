/*
 * tty_ioctl.c - the termios ioctls and waiting for output to drain, as
 * 2.4's drivers/char/tty_ioctl.c had them, for the line discipline to
 * offer (n_tty_ioctl()) and drivers to call (tty_wait_until_sent()).
 */
#include <linux/types.h>
#include <linux/termios.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/kernel.h>
#include <linux/major.h>
#include <linux/tty.h>
#include <linux/fcntl.h>
#include <linux/string.h>
#include <linux/mm.h>
#include <linux/module.h>

#include <asm/io.h>
#include <asm/bitops.h>
#include <asm/uaccess.h>
#include <asm/system.h>

#define TERMIOS_FLUSH 1
#define TERMIOS_WAIT 2
#define TERMIOS_TERMIO 4

/*
 * Wait until the driver has sent what it holds, at most @timeout jiffies
 * (0: for ever), then, if it can, until its transmitter is empty.
 */
void tty_wait_until_sent(struct tty_struct *tty, long timeout)
{
	DECLARE_WAITQUEUE(wait, current);

	if (!tty->driver.chars_in_buffer)
		return;
	add_wait_queue(&tty->write_wait, &wait);
	if (!timeout)
		timeout = MAX_SCHEDULE_TIMEOUT;
	do {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(current))
			goto stop_waiting;
		if (!tty->driver.chars_in_buffer(tty))
			break;
		timeout = schedule_timeout(timeout);
	} while (timeout);
	if (tty->driver.wait_until_sent)
		tty->driver.wait_until_sent(tty, timeout);
stop_waiting:
	current->state = TASK_RUNNING;
	remove_wait_queue(&tty->write_wait, &wait);
}

/* what termios_locked says may not change keeps its old value */
static void unset_locked_termios(struct termios *termios, struct termios *old,
				 struct termios *locked)
{
	int i;

#define NOSET_MASK(x, y, z) (x = ((x) & ~(z)) | ((y) & (z)))

	if (!locked) {
		printk("Warning?!? termios_locked is NULL.\n");
		return;
	}

	NOSET_MASK(termios->c_iflag, old->c_iflag, locked->c_iflag);
	NOSET_MASK(termios->c_oflag, old->c_oflag, locked->c_oflag);
	NOSET_MASK(termios->c_cflag, old->c_cflag, locked->c_cflag);
	NOSET_MASK(termios->c_lflag, old->c_lflag, locked->c_lflag);
	termios->c_line = locked->c_line ? old->c_line : termios->c_line;
	for (i = 0; i < NCCS; i++)
		termios->c_cc[i] = locked->c_cc[i] ? old->c_cc[i] :
						     termios->c_cc[i];
}

/* the new termios in, under cli(); then the driver and the discipline */
static void change_termios(struct tty_struct *tty, struct termios *new_termios)
{
	struct termios old_termios = *tty->termios;

	cli();
	*tty->termios = *new_termios;
	unset_locked_termios(tty->termios, &old_termios, tty->termios_locked);
	sti();

	if (tty->driver.set_termios)
		(*tty->driver.set_termios)(tty, &old_termios);

	if (tty->ldisc.set_termios)
		(*tty->ldisc.set_termios)(tty, &old_termios);
}

static int set_termios(struct tty_struct *tty, unsigned long arg, int opt)
{
	struct termios tmp_termios;
	int retval;

	retval = tty_check_change(tty);
	if (retval)
		return retval;

	if (opt & TERMIOS_TERMIO) {
		memcpy(&tmp_termios, tty->termios, sizeof(struct termios));
		if (user_termio_to_kernel_termios(&tmp_termios,
						  (struct termio *) arg))
			return -EFAULT;
	} else {
		if (user_termios_to_kernel_termios(&tmp_termios,
						   (struct termios *) arg))
			return -EFAULT;
	}

	if ((opt & TERMIOS_FLUSH) && tty->ldisc.flush_buffer)
		tty->ldisc.flush_buffer(tty);

	if (opt & TERMIOS_WAIT) {
		tty_wait_until_sent(tty, 0);
		if (signal_pending(current))
			return -EINTR;
	}

	change_termios(tty, &tmp_termios);
	return 0;
}

static int get_termio(struct tty_struct *tty, struct termio *termio)
{
	if (kernel_termios_to_user_termio(termio, tty->termios))
		return -EFAULT;
	return 0;
}

/* a flow control character ahead of the rest */
void send_prio_char(struct tty_struct *tty, char ch)
{
	int was_stopped = tty->stopped;

	if (tty->driver.send_xchar) {
		tty->driver.send_xchar(tty, ch);
		return;
	}
	if (was_stopped)
		start_tty(tty);
	tty->driver.write(tty, 0, (const unsigned char *) &ch, 1);
	if (was_stopped)
		stop_tty(tty);
}

int n_tty_ioctl(struct tty_struct *tty, struct file *file, unsigned int cmd,
		unsigned long arg)
{
	int retval;

	switch (cmd) {
	case TCGETS:
		if (kernel_termios_to_user_termios((struct termios *) arg,
						   tty->termios))
			return -EFAULT;
		return 0;
	case TCSETSF:
		return set_termios(tty, arg, TERMIOS_FLUSH);
	case TCSETSW:
		return set_termios(tty, arg, TERMIOS_WAIT);
	case TCSETS:
		return set_termios(tty, arg, 0);
	case TCGETA:
		return get_termio(tty, (struct termio *) arg);
	case TCSETAF:
		return set_termios(tty, arg, TERMIOS_FLUSH | TERMIOS_TERMIO);
	case TCSETAW:
		return set_termios(tty, arg, TERMIOS_WAIT | TERMIOS_TERMIO);
	case TCSETA:
		return set_termios(tty, arg, TERMIOS_TERMIO);
	case TCXONC:
		retval = tty_check_change(tty);
		if (retval)
			return retval;
		switch (arg) {
		case TCOOFF:
			if (!tty->flow_stopped) {
				tty->flow_stopped = 1;
				stop_tty(tty);
			}
			break;
		case TCOON:
			if (tty->flow_stopped) {
				tty->flow_stopped = 0;
				start_tty(tty);
			}
			break;
		case TCIOFF:
			if (STOP_CHAR(tty) != __DISABLED_CHAR)
				send_prio_char(tty, STOP_CHAR(tty));
			break;
		case TCION:
			if (START_CHAR(tty) != __DISABLED_CHAR)
				send_prio_char(tty, START_CHAR(tty));
			break;
		default:
			return -EINVAL;
		}
		return 0;
	case TCFLSH:
		retval = tty_check_change(tty);
		if (retval)
			return retval;
		switch (arg) {
		case TCIFLUSH:
			if (tty->ldisc.flush_buffer)
				tty->ldisc.flush_buffer(tty);
			break;
		case TCIOFLUSH:
			if (tty->ldisc.flush_buffer)
				tty->ldisc.flush_buffer(tty);
			/* fall through */
		case TCOFLUSH:
			if (tty->driver.flush_buffer)
				tty->driver.flush_buffer(tty);
			break;
		default:
			return -EINVAL;
		}
		return 0;
	case TIOCOUTQ:
		return put_user(tty->driver.chars_in_buffer ?
					tty->driver.chars_in_buffer(tty) :
					0,
				(int *) arg);
	case TIOCINQ:
		retval = tty->ldisc.chars_in_buffer ?
				 tty->ldisc.chars_in_buffer(tty) :
				 0;
		return put_user(retval, (unsigned int *) arg);
	case TIOCGLCKTRMIOS:
		if (kernel_termios_to_user_termios((struct termios *) arg,
						   tty->termios_locked))
			return -EFAULT;
		return 0;
	case TIOCSLCKTRMIOS:
		if (!suser())
			return -EPERM;
		if (user_termios_to_kernel_termios(tty->termios_locked,
						   (struct termios *) arg))
			return -EFAULT;
		return 0;
	case TIOCGSOFTCAR:
		return put_user(C_CLOCAL(tty) ? 1 : 0, (int *) arg);
	case TIOCSSOFTCAR:
		retval = get_user(arg, (unsigned int *) arg);
		if (retval)
			return retval;
		tty->termios->c_cflag = ((tty->termios->c_cflag & ~CLOCAL) |
					 (arg ? CLOCAL : 0));
		return 0;
	default:
		return -ENOIOCTLCMD;
	}
}

EXPORT_SYMBOL(tty_wait_until_sent);
EXPORT_SYMBOL(n_tty_ioctl);
