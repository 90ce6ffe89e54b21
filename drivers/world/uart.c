/*
 * uart.c - a simulated 16550-style UART (see world/uart.h).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/completion.h>
#include <linux/errno.h>
#include <world/util.h>
#include <world/irq.h>
#include <world/uart.h>

struct sim_uart {
	int line;
	unsigned int irq;
	spinlock_t lock;
	unsigned int rx_fifo; /* depth of the receive FIFO */
	unsigned int rx_head, rx_cnt;
	unsigned int tx_head, tx_cnt;
	unsigned char ier, mcr, lcr;
	int thre_pending; /* THRE interrupt identified, not yet read */
	int stop;
	wait_queue_head_t wait; /* the device thread waits here */
	struct completion exited;
	struct sim_uart_stats st;
	unsigned char tx[SIM_UART_TX_FIFO];
	unsigned char rx[SIM_UART_RX_FIFO_MAX];
};

static struct sim_uart *uarts[SIM_UART_LINES];
static spinlock_t uarts_lock = SPIN_LOCK_UNLOCKED;

struct sim_uart *sim_uart_line(int line)
{
	struct sim_uart *u = NULL;

	if (line >= 0 && line < SIM_UART_LINES) {
		spin_lock(&uarts_lock);
		u = uarts[line];
		spin_unlock(&uarts_lock);
	}
	return u;
}

unsigned int sim_uart_irq(struct sim_uart *u)
{
	return u->irq;
}

unsigned char sim_uart_in(struct sim_uart *u, int reg)
{
	unsigned long flags;
	unsigned char r = 0;

	spin_lock_irqsave(&u->lock, flags);
	switch (reg) {
	case UART_RX:
		if (u->rx_cnt) {
			r = u->rx[u->rx_head];
			u->rx_head = (u->rx_head + 1) % SIM_UART_RX_FIFO_MAX;
			u->rx_cnt--;
			u->st.rx_read++;
		}
		break;
	case UART_IER:
		r = u->ier;
		break;
	case UART_IIR:
		if (u->rx_cnt && (u->ier & UART_IER_RDI)) {
			r = UART_IIR_RDI;
		} else if (u->thre_pending && (u->ier & UART_IER_THRI)) {
			r = UART_IIR_THRI;
			u->thre_pending = 0; /* reading the ID clears it */
		} else {
			r = UART_IIR_NO_INT;
		}
		break;
	case UART_LCR:
		r = u->lcr;
		break;
	case UART_MCR:
		r = u->mcr;
		break;
	case UART_LSR:
		if (u->rx_cnt)
			r |= UART_LSR_DR;
		if (!u->tx_cnt)
			r |= UART_LSR_THRE | UART_LSR_TEMT;
		break;
	case UART_MSR:
		r = 0xb0; /* DCD, DSR, CTS: the far end is always there */
		break;
	}
	spin_unlock_irqrestore(&u->lock, flags);
	return r;
}

void sim_uart_out(struct sim_uart *u, int reg, unsigned char value)
{
	unsigned long flags;
	int kick = 0;

	spin_lock_irqsave(&u->lock, flags);
	switch (reg) {
	case UART_TX:
		if (u->tx_cnt < SIM_UART_TX_FIFO) {
			u->tx[(u->tx_head + u->tx_cnt) % SIM_UART_TX_FIFO] =
				value;
			u->tx_cnt++;
			u->thre_pending = 0;
			kick = 1;
		} else {
			u->st.overruns++;
		}
		break;
	case UART_IER:
		/* enabling THRI with the transmitter empty interrupts at once */
		if ((value & UART_IER_THRI) && !(u->ier & UART_IER_THRI) &&
		    !u->tx_cnt) {
			u->thre_pending = 1;
			kick = 1;
		}
		u->ier = value;
		break;
	case UART_LCR:
		u->lcr = value;
		break;
	case UART_MCR:
		u->mcr = value;
		break;
	}
	spin_unlock_irqrestore(&u->lock, flags);
	if (kick)
		wake_up(&u->wait);
}

/*
 * The far end puts characters on the line.  It waits for room in the FIFO
 * (flow control) and keeps the interrupt raised while data waits there, so
 * that it returns only once the driver has taken every character.
 */
static size_t uart_receive(struct sim_uart *u, const unsigned char *buf,
			   size_t len)
{
	unsigned long flags;
	size_t sent = 0;

	for (;;) {
		unsigned int before, after;
		int n = 0;

		spin_lock_irqsave(&u->lock, flags);
		while (sent < len && u->rx_cnt < u->rx_fifo) {
			u->rx[(u->rx_head + u->rx_cnt) % SIM_UART_RX_FIFO_MAX] =
				buf[sent++];
			u->rx_cnt++;
			u->st.rx_accepted++;
			n++;
		}
		if (!n && sent < len)
			u->st.stalls++;
		before = u->rx_cnt;
		spin_unlock_irqrestore(&u->lock, flags);

		if (!before)
			break; /* all sent, all taken */
		if (!sim_raise_irq(u->irq)) {
			/* nobody listens: the rest falls on the floor */
			spin_lock_irqsave(&u->lock, flags);
			u->st.rx_dropped += len - sent;
			spin_unlock_irqrestore(&u->lock, flags);
			break;
		}
		spin_lock_irqsave(&u->lock, flags);
		after = u->rx_cnt;
		spin_unlock_irqrestore(&u->lock, flags);
		if (!after && sent == len)
			break;
		if (after == before)
			yield(); /* the driver could not take any: let it be */
	}
	return sent;
}

size_t sim_uart_feed(struct sim_uart *u, const unsigned char *buf, size_t len)
{
	might_sleep();
	return uart_receive(u, buf, len);
}

void sim_uart_get_stats(struct sim_uart *u, struct sim_uart_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&u->lock, flags);
	*st = u->st;
	spin_unlock_irqrestore(&u->lock, flags);
}

static int uart_has_work(struct sim_uart *u)
{
	unsigned long flags;
	int r;

	spin_lock_irqsave(&u->lock, flags);
	r = u->stop || u->tx_cnt || u->thre_pending;
	spin_unlock_irqrestore(&u->lock, flags);
	return r;
}

/* the transmitter, and the THRE interrupt */
static int sim_uart_thread(void *arg)
{
	struct sim_uart *u = arg;
	unsigned long flags;

	snprintf(current->comm, sizeof(current->comm), "uart%d", u->line);
	daemonize();

	for (;;) {
		unsigned char c = 0;
		int have = 0, loop = 0, raise;

		wait_event(u->wait, uart_has_work(u));

		spin_lock_irqsave(&u->lock, flags);
		if (u->stop) {
			spin_unlock_irqrestore(&u->lock, flags);
			break;
		}
		if (u->tx_cnt) {
			c = u->tx[u->tx_head];
			u->tx_head = (u->tx_head + 1) % SIM_UART_TX_FIFO;
			u->tx_cnt--;
			u->st.tx_bytes++;
			u->st.tx_digest = world_digest(u->st.tx_digest, &c, 1);
			loop = u->mcr & UART_MCR_LOOP;
			have = 1;
			if (!u->tx_cnt && (u->ier & UART_IER_THRI))
				u->thre_pending = 1;
		}
		spin_unlock_irqrestore(&u->lock, flags);

		if (have && loop)
			uart_receive(u, &c, 1);

		spin_lock_irqsave(&u->lock, flags);
		if (!(u->ier & UART_IER_THRI))
			u->thre_pending = 0;
		raise = u->thre_pending;
		spin_unlock_irqrestore(&u->lock, flags);

		if (raise) {
			if (!sim_raise_irq(u->irq)) {
				spin_lock_irqsave(&u->lock, flags);
				u->thre_pending = 0;
				spin_unlock_irqrestore(&u->lock, flags);
			} else {
				spin_lock_irqsave(&u->lock, flags);
				raise = u->thre_pending && !u->tx_cnt;
				spin_unlock_irqrestore(&u->lock, flags);
				if (raise)
					yield(); /* not served yet */
			}
		}
	}
	complete(&u->exited);
	return 0;
}

struct sim_uart *sim_uart_plug(int line, unsigned int irq, unsigned int rx_fifo,
			       int loopback)
{
	struct sim_uart *u;
	int pid;

	if (line < 0 || line >= SIM_UART_LINES || irq >= NR_SIM_IRQS)
		return NULL;
	u = kmalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return NULL;
	memset(u, 0, sizeof(*u));
	u->line = line;
	u->irq = irq;
	u->rx_fifo =
		rx_fifo ? min_t(unsigned int, rx_fifo, SIM_UART_RX_FIFO_MAX) :
			  16;
	u->mcr = loopback ? UART_MCR_LOOP : 0;
	u->st.tx_digest = WORLD_DIGEST_INIT;
	spin_lock_init(&u->lock);
	init_waitqueue_head(&u->wait);
	init_completion(&u->exited);

	spin_lock(&uarts_lock);
	if (uarts[line]) {
		spin_unlock(&uarts_lock);
		kfree(u);
		return NULL;
	}
	uarts[line] = u;
	spin_unlock(&uarts_lock);

	pid = kernel_thread(sim_uart_thread, u, 0);
	if (pid < 0) {
		spin_lock(&uarts_lock);
		uarts[line] = NULL;
		spin_unlock(&uarts_lock);
		kfree(u);
		return NULL;
	}
	return u;
}

void sim_uart_unplug(struct sim_uart *u)
{
	unsigned long flags;

	if (!u)
		return;
	spin_lock_irqsave(&u->lock, flags);
	u->stop = 1;
	spin_unlock_irqrestore(&u->lock, flags);
	wake_up(&u->wait);
	wait_for_completion(&u->exited);

	spin_lock(&uarts_lock);
	uarts[u->line] = NULL;
	spin_unlock(&uarts_lock);
	kfree(u);
}
