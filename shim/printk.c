/*
 * printk.c - the kernel log, BUG() and WARN_ON().
 *
 * Messages keep their level ("<3>" for KERN_ERR) in a log that tests read
 * back; those more urgent than the console level also go to stderr, one
 * write per message so that lines from several threads do not interleave.
 */
#include "shim.h"

#define LOG_BUF_LEN (1 << 18)
#define DEFAULT_MESSAGE_LOGLEVEL 4

static struct shim_mutex log_lock = SHIM_MUTEX_INIT;
static char log_buf[LOG_BUF_LEN];
static size_t log_len;
static int console_loglevel = 7;

void shim_printk_set_console_level(int level)
{
	__atomic_store_n(&console_loglevel, level, __ATOMIC_RELAXED);
}

/* Called with log_lock held: append, dropping the oldest half when full. */
static void log_append(const char *text, size_t len)
{
	if (len >= LOG_BUF_LEN / 2)
		len = LOG_BUF_LEN / 2 - 1;
	if (log_len + len >= LOG_BUF_LEN) {
		memmove(log_buf, log_buf + LOG_BUF_LEN / 2,
			log_len - LOG_BUF_LEN / 2);
		log_len -= LOG_BUF_LEN / 2;
	}
	memcpy(log_buf + log_len, text, len);
	log_len += len;
}

int vprintk(const char *fmt, va_list args)
{
	char buf[1024 + 4];
	char *text = buf + 3;
	int level = DEFAULT_MESSAGE_LOGLEVEL;
	int len;

	len = vsnprintf(text, sizeof(buf) - 3, fmt, args);
	if (len < 0)
		return len;
	if (len > (int) sizeof(buf) - 4)
		len = sizeof(buf) - 4;
	if (text[0] == '<' && text[1] >= '0' && text[1] <= '7' &&
	    text[2] == '>') {
		level = text[1] - '0';
		text += 3;
		len -= 3;
	}
	/* the stored and shown form is "<level>message" */
	text -= 3;
	text[0] = '<';
	text[1] = '0' + level;
	text[2] = '>';
	len += 3;

	shim_mutex_lock_unseen(&log_lock);
	log_append(text, len);
	if (level < __atomic_load_n(&console_loglevel, __ATOMIC_RELAXED))
		shim_console_write(text, len);
	shim_mutex_unlock_unseen(&log_lock);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list args;
	int r;

	va_start(args, fmt);
	r = vprintk(fmt, args);
	va_end(args);
	return r;
}

/*
 * 2.4's console_print(): a string to the consoles, whatever the log
 * level, and not to the log (2.4 wrote it to each console driver and
 * nowhere else).  Here the console is the host's.
 */
void console_print(const char *s)
{
	size_t len = strlen(s);

	shim_mutex_lock_unseen(&log_lock);
	shim_console_write(s, len);
	shim_mutex_unlock_unseen(&log_lock);
}

size_t shim_printk_read(char *buf, size_t len)
{
	size_t n, from;

	if (!len)
		return 0;
	shim_mutex_lock_unseen(&log_lock);
	n = log_len < len - 1 ? log_len : len - 1;
	from = log_len - n; /* the newest text that fits */
	memcpy(buf, log_buf + from, n);
	buf[n] = '\0';
	shim_mutex_unlock_unseen(&log_lock);
	return n;
}

void shim_printk_clear(void)
{
	shim_mutex_lock_unseen(&log_lock);
	log_len = 0;
	shim_mutex_unlock_unseen(&log_lock);
}

void shim_bug(const char *file, int line, const char *func)
{
	printk(KERN_EMERG "kernel BUG at %s:%d in %s()!\n", file, line, func);
	shim_ctl_crash();
	shim_host_abort();
}

void shim_warn(const char *file, int line, const char *func, const char *cond)
{
	printk(KERN_WARNING "WARNING: at %s:%d %s(): %s\n", file, line, func,
	       cond);
}

void panic(const char *fmt, ...)
{
	char buf[512];
	va_list args;

	va_start(args, fmt);
	vsnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	printk(KERN_EMERG "Kernel panic: %s\n", buf);
	shim_ctl_crash();
	shim_host_abort();
}
