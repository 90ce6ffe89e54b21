/* linux/poll.h - poll events and the table poll() waits on */
#ifndef _LINUX24_POLL_H
#define _LINUX24_POLL_H

#include <linux/wait.h>

#define POLLIN 0x0001
#define POLLPRI 0x0002
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020
#define POLLRDNORM 0x0040
#define POLLRDBAND 0x0080
#define POLLWRNORM 0x0100
#define POLLWRBAND 0x0200
#define POLLMSG 0x0400

struct file;
typedef struct poll_table_struct {
	int error;
} poll_table;

/* nobody polls in the sandbox: the table is never given */
static inline void poll_wait(struct file *filp, wait_queue_head_t *wait_address,
			     poll_table *p)
{
	(void) filp;
	(void) wait_address;
	(void) p;
}

#endif /* _LINUX24_POLL_H */
