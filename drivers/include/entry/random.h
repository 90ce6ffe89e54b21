/*
 * ports/random.h - the random port's entry points, for scenarios.
 */
#ifndef _PORTS_RANDOM_H
#define _PORTS_RANDOM_H

#include <linux/types.h>

struct random_stats {
	int batch_enabled;   /* the batch ring could be allocated */
	int primary_words;   /* size of the primary pool */
	int primary_entropy; /* bits credited */
	u64 primary_digest;  /* digest of its words */
	int secondary_words;
	int secondary_entropy;
	u64 secondary_digest;
	unsigned long stored;  /* samples put on the batch ring */
	unsigned long dropped; /* samples that found it full */
	unsigned long mixed;   /* samples mixed into a pool */
	unsigned long
		mixed_into_retired; /* ... into a pool the sysctl replaced */
	unsigned long runs;	    /* batch_entropy_process() calls */
	unsigned long resizes;
};

extern int rand_initialize(void);
extern void random_exit(void);
extern int rand_initialize_irq(int irq);
extern void rand_free_irq(int irq);

/* entropy sources: interrupt context */
extern void add_keyboard_randomness(unsigned char scancode);
extern void add_mouse_randomness(u32 mouse_data);
extern void add_interrupt_randomness(int irq);
extern void batch_entropy_store(u32 a, u32 b, int num);

/* consumers */
extern void get_random_bytes(void *buf, int nbytes);
extern int random_read(unsigned char *buf, int nbytes, int nonblock);

/* the sysctl: a new primary pool of @bytes bytes */
extern int random_sysctl_poolsize(int bytes);

extern void random_get_stats(struct random_stats *st);
/* wait until the entropy batched so far has been mixed in */
extern void random_quiesce(void);

#endif /* _PORTS_RANDOM_H */
