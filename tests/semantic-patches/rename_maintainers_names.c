#include <linux/tqueue.h>
#include <linux/sched.h>
#include <linux/interrupt.h>

/*
 * A WAN protocol module named as its maintainers name deferred work
 * (sdla_chdlc.c, pc300_tty.c): the channel's tasks, their routines, the
 * helper that schedules them and the flag that keeps one queued are all
 * named after the task queue.  With --rename each takes the name the
 * maintainers gave it once it was work; a task_struct is not touched.
 */
typedef struct chdlc_private_area {
	struct tq_struct poll_task;
	struct tq_struct immediate_bh;
	unsigned long bh_active;
	struct task_struct *owner;
	int frames;
} chdlc_private_area_t;

static void chdlc_bh(void *data)
{
	chdlc_private_area_t *priv = data;

	priv->frames = 0;
	clear_bit(0, &priv->bh_active);
}

static void cpc_tty_rx_task(void *data)
{
	chdlc_private_area_t *priv = data;

	priv->frames++;
}

static void chdlc_schedule_task(chdlc_private_area_t *priv)
{
	if (!test_and_set_bit(0, &priv->bh_active))
		schedule_task(&priv->immediate_bh);
}

static void rx_intr(chdlc_private_area_t *priv)
{
	chdlc_schedule_task(priv);
	schedule_task(&priv->poll_task);
}

static void chdlc_new_if(chdlc_private_area_t *priv)
{
	priv->owner = current;
	INIT_TQUEUE(&priv->immediate_bh, chdlc_bh, priv);
	INIT_TQUEUE(&priv->poll_task, cpc_tty_rx_task, priv);
}

/* A routine and a task of the file that would take one name: the task
 * has it (tcic_task -> tcic_work), the routine keeps its own. */
static void tcic_bh(void *dummy);
static struct tq_struct tcic_task = {
	routine: tcic_bh
};

static void tcic_bh(void *dummy)
{
}

static void tcic_interrupt(void)
{
	schedule_task(&tcic_task);
}
