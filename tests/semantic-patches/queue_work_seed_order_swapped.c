#include <linux/workqueue.h>

/* Code converted by hand with the seed's order, queue_work(&work, wq). */
static workqueue_t *aio_wq;
static DECLARE_WORK(fput_work, aio_fput_routine, NULL);

void aio_put_req(work_t *w)
{
	queue_work(&fput_work, aio_wq);
	queue_work(w, aio_wq);
	queue_work(aio_wq, w);		/* already right */
}
