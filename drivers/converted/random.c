/*
 * random.c - the entropy driver's batch path, as of 2.5.39.
 *
 * Interrupts, the keyboard and the mouse hand their timings to
 * batch_entropy_store(), which puts them on a small ring (its size a
 * power of two) and schedules batch_entropy_process() on the task queue;
 * that mixes the ring into the primary pool, or into the secondary pool
 * once the primary is full, and credits the entropy estimated for each
 * sample.  The sysctl that resizes the primary pool swaps the pool the
 * batch task is given: random_state = batch_tqueue.data = new_store.
 *
 * The mixing function and the extraction hash are the sandbox's own (a
 * rotate-xor twisted pool, and a small add-rotate-xor hash), not the
 * kernel's: what matters here is the deferred work around them.
 * Time is jiffies only (no cycle counter), so a run on the virtual clock
 * is reproducible to the bit.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>

#include <entry/random.h>
#include <world/util.h>

/*
 * Configuration information
 */
#define DEFAULT_POOL_SIZE	512	/* bytes */
#define SECONDARY_POOL_SIZE	128
#define BATCH_ENTROPY_SIZE	256
#define USE_SHA			0

#define NR_IRQS			32

#if 0
#define DEBUG_ENT(fmt, arg...) printk(KERN_DEBUG "random: " fmt, ## arg)
#else
#define DEBUG_ENT(fmt, arg...) do {} while (0)
#endif

/*
 * The minimum number of bits of entropy before we wake up a read on
 * /dev/random.
 */
static int random_read_wakeup_thresh = 8;

/*
 * The pool is stirred with a primitive polynomial of the pool's degree;
 * these are the tap positions, in words, for each size.
 */
static struct poolinfo {
	int	poolwords;
	int	tap1, tap2, tap3, tap4, tap5;
} poolinfo_table[] = {
	{ 512,	411,	308,	208,	104,	1 },
	{ 256,	205,	155,	101,	52,	1 },
	{ 128,	103,	76,	51,	25,	1 },
	{ 64,	52,	39,	26,	14,	1 },
	{ 32,	26,	20,	14,	7,	1 },
	{ 0,	0,	0,	0,	0,	0 },
};

#define POOLBITS	poolwords*32
#define POOLBYTES	poolwords*4

/*
 * Static global variables
 */
static struct entropy_store *random_state; /* The default global store */
static struct entropy_store *sec_random_state; /* secondary store */
static DECLARE_WAIT_QUEUE_HEAD(random_read_wait);

/* what the sandbox counts, under batch_lock */
static unsigned long batch_stored, batch_dropped, batch_mixed;
static unsigned long batch_mixed_retired, batch_runs, pool_resizes;

static inline __u32 rotate_left(int i, __u32 word)
{
	return (word << i) | (word >> ((32 - i) & 31));
}

/*
 * More asm magic....
 *
 * For entropy estimation, we need to do an integral base 2
 * logarithm: the position of the highest bit set, in 12 bits.
 */
static inline __u32 int_ln_12bits(__u32 word)
{
	__u32 nbits = 0;

	word &= 0xfff;
	while (word >>= 1)
		nbits++;
	return nbits;
}

/**********************************************************************
 *
 * OS independent entropy store.   Here are the functions which handle
 * storing entropy in an entropy pool.
 *
 **********************************************************************/

struct entropy_store {
	unsigned	add_ptr;
	int		entropy_count;
	int		input_rotate;
	int		extract_count;
	struct poolinfo poolinfo;
	__u32		*pool;
	spinlock_t	lock;
};

/*
 * Initialize the entropy store.  The input argument is the size of
 * the random pool, in bytes.
 *
 * Returns an negative error if there is a problem.
 */
static int create_entropy_store(int size, struct entropy_store **ret_bucket)
{
	struct	entropy_store	*r;
	struct	poolinfo	*p;
	int	poolwords;

	poolwords = (size + 3) / 4; /* Convert bytes->words */
	/* The pool size must be a multiple of 16 32-bit words */
	poolwords = ((poolwords + 15) / 16) * 16;

	for (p = poolinfo_table; p->poolwords; p++) {
		if (poolwords == p->poolwords)
			break;
	}
	if (p->poolwords == 0)
		return -EINVAL;

	r = kmalloc(sizeof(struct entropy_store), GFP_KERNEL);
	if (!r)
		return -ENOMEM;

	memset(r, 0, sizeof(struct entropy_store));
	r->poolinfo = *p;

	r->pool = kmalloc(POOLBYTES, GFP_KERNEL);
	if (!r->pool) {
		kfree(r);
		return -ENOMEM;
	}
	memset(r->pool, 0, POOLBYTES);
	spin_lock_init(&r->lock);
	*ret_bucket = r;
	return 0;
}

/* Clear the entropy pool and associated counters. */
static void clear_entropy_store(struct entropy_store *r)
{
	r->add_ptr = 0;
	r->entropy_count = 0;
	r->input_rotate = 0;
	r->extract_count = 0;
	memset(r->pool, 0, r->poolinfo.POOLBYTES);
}

static void free_entropy_store(struct entropy_store *r)
{
	if (r->pool)
		kfree(r->pool);
	kfree(r);
}

/*
 * This function adds words into the entropy "pool".  It does not
 * update the entropy estimate.  The caller should call
 * credit_entropy_store if this is appropriate.
 *
 * Each word is rotated by a varying amount, folded with the words at the
 * tap positions and the word it replaces, then twisted through a small
 * table so that every input bit reaches several pool bits.
 */
static void add_entropy_words(struct entropy_store *r, const __u32 *in,
			      int nwords)
{
	static const __u32 twist_table[8] = {
		0x00000000, 0x9e3779b9, 0x7f4a7c15, 0xe1a26bac,
		0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x1f83d9ab };
	unsigned i;
	int new_rotate;
	int wordmask = r->poolinfo.poolwords - 1;
	__u32 w;
	unsigned long flags;

	spin_lock_irqsave(&r->lock, flags);
	while (nwords--) {
		w = rotate_left(r->input_rotate, *in++);
		i = r->add_ptr = (r->add_ptr - 1) & wordmask;
		/*
		 * Normally, we add 7 bits of rotation to the pool.
		 * At the beginning of the pool, add an extra 7 bits
		 * rotation, so that successive passes spread the
		 * input bits across the pool evenly.
		 */
		new_rotate = r->input_rotate + 14;
		if (i)
			new_rotate = r->input_rotate + 7;
		r->input_rotate = new_rotate & 31;

		/* XOR in the various taps */
		w ^= r->pool[(i + r->poolinfo.tap1) & wordmask];
		w ^= r->pool[(i + r->poolinfo.tap2) & wordmask];
		w ^= r->pool[(i + r->poolinfo.tap3) & wordmask];
		w ^= r->pool[(i + r->poolinfo.tap4) & wordmask];
		w ^= r->pool[(i + r->poolinfo.tap5) & wordmask];
		w ^= r->pool[i];
		r->pool[i] = (w >> 3) ^ twist_table[w & 7];
	}
	spin_unlock_irqrestore(&r->lock, flags);
}

/*
 * Credit (or debit) the entropy store with n bits of entropy
 */
static void credit_entropy_store(struct entropy_store *r, int nbits)
{
	unsigned long flags;

	spin_lock_irqsave(&r->lock, flags);
	if (r->entropy_count + nbits < 0) {
		DEBUG_ENT("negative entropy/overflow (%d+%d)\n",
			  r->entropy_count, nbits);
		r->entropy_count = 0;
	} else if (r->entropy_count + nbits > r->poolinfo.POOLBITS) {
		r->entropy_count = r->poolinfo.POOLBITS;
	} else {
		r->entropy_count += nbits;
		if (nbits)
			DEBUG_ENT("%04d %04d : added %d bits to %s\n",
				  random_state->entropy_count,
				  sec_random_state->entropy_count,
				  nbits,
				  r == sec_random_state ? "secondary" :
				  r == random_state ? "primary" : "unknown");
	}
	spin_unlock_irqrestore(&r->lock, flags);
}

/**********************************************************************
 *
 * Entropy batch input management
 *
 * We batch entropy to be added to avoid increasing interrupt latency
 *
 **********************************************************************/

static __u32	*batch_entropy_pool;
static int	*batch_entropy_credit;
static int	batch_max;
static int	batch_head, batch_tail;
static DECLARE_WORK(batch_work, NULL, NULL);
static void batch_entropy_process(void *private_);
/*
 * 2.5.39 had no lock here ("FIXME: is this correct?"); interrupts on
 * several CPUs at once need one.
 */
static spinlock_t batch_lock = SPIN_LOCK_UNLOCKED;

/* note: the size must be a power of 2 */
static int __init batch_entropy_init(int size, struct entropy_store *r)
{
	batch_entropy_pool = kmalloc(2*size*sizeof(__u32), GFP_KERNEL);
	if (!batch_entropy_pool)
		return -1;
	batch_entropy_credit = kmalloc(size*sizeof(int), GFP_KERNEL);
	if (!batch_entropy_credit) {
		kfree(batch_entropy_pool);
		batch_entropy_pool = NULL;
		return -1;
	}
	batch_head = batch_tail = 0;
	batch_max = size;
	INIT_WORK(&batch_work, batch_entropy_process, r);
	return 0;
}

/*
 * Changes to the entropy data is put into a queue rather than being added to
 * the entropy counts directly.  This is presumably to avoid doing heavy
 * hashing calculations during an interrupt in add_timer_randomness().
 * Instead, the entropy is only added to the pool once per timer tick.
 */
void batch_entropy_store(u32 a, u32 b, int num)
{
	int new;
	unsigned long flags;

	if (!batch_max)
		return;

	spin_lock_irqsave(&batch_lock, flags);
	batch_entropy_pool[2*batch_head] = a;
	batch_entropy_pool[(2*batch_head) + 1] = b;
	batch_entropy_credit[batch_head] = num;

	new = (batch_head+1) & (batch_max-1);
	if (new != batch_tail) {
		// FIXME: is this correct?
		schedule_work(&batch_work);
		batch_head = new;
		batch_stored++;
	} else {
		DEBUG_ENT("batch entropy buffer full\n");
		batch_dropped++;
	}
	spin_unlock_irqrestore(&batch_lock, flags);
}

/*
 * Flush out the accumulated entropy operations, adding entropy to the passed
 * store (normally random_state).  If that store has enough entropy, alternate
 * between randomizing the data of the primary and secondary stores.
 *
 * Each sample goes to the first store that is not full (the passed one,
 * then the secondary), so where a sample lands does not depend on how the
 * samples were batched into runs.
 */
static void batch_entropy_process(void *private_)
{
	struct entropy_store *r	= (struct entropy_store *) private_, *p;
	unsigned long flags;
	int wake;

	if (!batch_max)
		return;

	spin_lock_irqsave(&batch_lock, flags);
	batch_runs++;
	while (batch_head != batch_tail) {
		p = r;
		if (p->entropy_count >= p->poolinfo.POOLBITS &&
		    sec_random_state->entropy_count <
		    sec_random_state->poolinfo.POOLBITS)
			p = sec_random_state;
		if (p != random_state && p != sec_random_state)
			batch_mixed_retired++;	/* swapped out and freed */
		add_entropy_words(p, batch_entropy_pool + 2*batch_tail, 2);
		credit_entropy_store(p, batch_entropy_credit[batch_tail]);
		batch_tail = (batch_tail+1) & (batch_max-1);
		batch_mixed++;
	}
	/* under batch_lock, which every credit from a batch run holds */
	wake = r->entropy_count >= random_read_wakeup_thresh;
	spin_unlock_irqrestore(&batch_lock, flags);
	if (wake)
		wake_up_interruptible(&random_read_wait);
}

/*********************************************************************
 *
 * Entropy input management
 *
 *********************************************************************/

/* There is one of these per entropy source */
struct timer_rand_state {
	__u32		last_time;
	__s32		last_delta,last_delta2;
	int		dont_count_entropy:1;
};

static struct timer_rand_state keyboard_timer_state;
static struct timer_rand_state mouse_timer_state;
static struct timer_rand_state extract_timer_state;
static struct timer_rand_state *irq_timer_state[NR_IRQS];

/*
 * This function adds entropy to the entropy "pool" by using timing
 * delays.  It uses the timer_rand_state structure to make an estimate
 * of how many bits of entropy this call has added to the pool.
 *
 * The number "num" is also added to the pool - it should somehow describe
 * the type of event which just happened.
 */
static void add_timer_randomness(struct timer_rand_state *state, unsigned num)
{
	__u32		time;
	__s32		delta, delta2, delta3;
	int		entropy = 0;

	time = jiffies;

	/*
	 * Calculate number of bits of randomness we probably added.
	 * We take into account the first, second and third-order deltas
	 * in order to make our estimate.
	 */
	if (!state->dont_count_entropy) {
		delta = time - state->last_time;
		state->last_time = time;

		delta2 = delta - state->last_delta;
		state->last_delta = delta;

		delta3 = delta2 - state->last_delta2;
		state->last_delta2 = delta2;

		if (delta < 0)
			delta = -delta;
		if (delta2 < 0)
			delta2 = -delta2;
		if (delta3 < 0)
			delta3 = -delta3;
		if (delta > delta2)
			delta = delta2;
		if (delta > delta3)
			delta = delta3;

		/*
		 * delta is now minimum absolute delta.
		 * Round down by 1 bit on general principles,
		 * and limit entropy entimate to 12 bits.
		 */
		delta >>= 1;
		delta &= (1 << 12) - 1;

		entropy = int_ln_12bits(delta);
	}
	batch_entropy_store(num, time, entropy);
}

void add_keyboard_randomness(unsigned char scancode)
{
	static unsigned char last_scancode;
	/* ignore autorepeat (multiple key down w/o key up) */
	if (scancode != last_scancode) {
		last_scancode = scancode;
		add_timer_randomness(&keyboard_timer_state, scancode);
	}
}

void add_mouse_randomness(__u32 mouse_data)
{
	add_timer_randomness(&mouse_timer_state, mouse_data);
}

void add_interrupt_randomness(int irq)
{
	if (irq < 0 || irq >= NR_IRQS || irq_timer_state[irq] == 0)
		return;

	add_timer_randomness(irq_timer_state[irq], 0x100+irq);
}

/*********************************************************************
 *
 * Entropy extraction routines
 *
 *********************************************************************/

#define EXTRACT_ENTROPY_USER		1
#define EXTRACT_ENTROPY_SECONDARY	2
#define TMP_BUF_SIZE			(4)

/* the sandbox's hash: four words of add-rotate-xor over the whole pool */
static void pool_hash(const __u32 *pool, int words, __u32 hash[TMP_BUF_SIZE])
{
	__u32 a = 0x67452301, b = 0xefcdab89, c = 0x98badcfe, d = 0x10325476;
	int i;

	for (i = 0; i < words; i++) {
		a += pool[i];
		b ^= rotate_left(7, a);
		c += rotate_left(13, b) ^ i;
		d ^= rotate_left(19, c) + a;
		a = rotate_left(5, a) + d;
	}
	hash[0] = a ^ c;
	hash[1] = b ^ d;
	hash[2] = c + a;
	hash[3] = d + b;
}

static ssize_t extract_entropy(struct entropy_store *r, void *buf,
			       size_t nbytes, int flags);

/*
 * This utility inline function is responsible for transfering entropy
 * from the primary pool to the secondary extraction pool.  We pull
 * randomness under two conditions; one is if there isn't enough entropy
 * in the secondary pool.  The other is after we have extract 1024 bytes,
 * at which point we do a "catastrophic reseeding".
 */
static inline void xfer_secondary_pool(struct entropy_store *r,
				       size_t nbytes)
{
	__u32 tmp[TMP_BUF_SIZE];

	if (r->entropy_count < nbytes * 8 &&
	    r->entropy_count < r->poolinfo.POOLBITS) {
		int nwords = min_t(int,
				   r->poolinfo.poolwords - r->entropy_count/32,
				   sizeof(tmp) / 4);

		DEBUG_ENT("xfer %d from primary to %s (have %d, need %d)\n",
			  nwords * 32,
			  r == sec_random_state ? "secondary" : "unknown",
			  r->entropy_count, nbytes * 8);

		extract_entropy(random_state, tmp, nwords * 4, 0);
		add_entropy_words(r, tmp, nwords);
		credit_entropy_store(r, nwords * 32);
	}
	if (r->extract_count > 1024) {
		DEBUG_ENT("reseeding %s with %d from primary\n",
			  r == sec_random_state ? "secondary" : "unknown",
			  sizeof(tmp) * 8);
		extract_entropy(random_state, tmp, sizeof(tmp), 0);
		add_entropy_words(r, tmp, sizeof(tmp) / 4);
		r->extract_count = 0;
	}
}

/*
 * This function extracts randomness from the "entropy pool", and
 * returns it in a buffer.  This function computes how many remaining
 * bits of entropy are left in the pool, but it does not restrict the
 * number of bytes that are actually obtained.
 */
static ssize_t extract_entropy(struct entropy_store *r, void *buf,
			       size_t nbytes, int flags)
{
	ssize_t ret, i;
	__u32 tmp[TMP_BUF_SIZE];
	__u32 x;
	unsigned long cpuflags;

	/* Redundant, but just in case... */
	if (r->entropy_count > r->poolinfo.POOLBITS)
		r->entropy_count = r->poolinfo.POOLBITS;

	if (flags & EXTRACT_ENTROPY_SECONDARY)
		xfer_secondary_pool(r, nbytes);

	DEBUG_ENT("%s has %d bits, want %d bits\n",
		  r == sec_random_state ? "secondary" :
		  r == random_state ? "primary" : "unknown",
		  r->entropy_count, nbytes * 8);

	spin_lock_irqsave(&r->lock, cpuflags);
	if (r->entropy_count / 8 >= nbytes)
		r->entropy_count -= nbytes*8;
	else
		r->entropy_count = 0;
	r->extract_count += nbytes;
	spin_unlock_irqrestore(&r->lock, cpuflags);

	ret = 0;
	while (nbytes) {
		spin_lock_irqsave(&r->lock, cpuflags);
		pool_hash(r->pool, r->poolinfo.poolwords, tmp);
		spin_unlock_irqrestore(&r->lock, cpuflags);

		/*
		 * The hash goes back into the pool, so that the next block
		 * is hashed from a different pool; what we hand out is the
		 * hash folded in half.
		 */
		add_entropy_words(r, tmp, TMP_BUF_SIZE);
		x = tmp[0] ^ tmp[3];
		tmp[0] = x;
		x = tmp[1] ^ tmp[2];
		tmp[1] = x;

		i = min_t(size_t, nbytes, 2 * sizeof(__u32));
		memcpy(buf, (__u8 const *)tmp, i);
		nbytes -= i;
		buf = (__u8 *) buf + i;
		ret += i;
		add_timer_randomness(&extract_timer_state, nbytes);
	}

	/* Wipe data just returned from memory */
	memset(tmp, 0, sizeof(tmp));

	return ret;
}

/*
 * This function is the exported kernel interface.  It returns some
 * number of good random numbers, suitable for seeding TCP sequence
 * numbers, etc.
 */
void get_random_bytes(void *buf, int nbytes)
{
	if (sec_random_state)
		extract_entropy(sec_random_state, (char *) buf, nbytes,
				EXTRACT_ENTROPY_SECONDARY);
	else if (random_state)
		extract_entropy(random_state, (char *) buf, nbytes, 0);
	else
		printk(KERN_NOTICE "get_random_bytes called before "
				   "random driver initialization\n");
}

/*
 * /dev/random: give no more than the entropy there is, and wait for some
 * unless the reader does not want to.
 */
int random_read(unsigned char *buf, int nbytes, int nonblock)
{
	int n;

	if (nbytes <= 0)
		return 0;
	if (!nonblock)
		wait_event_interruptible(random_read_wait,
			random_state->entropy_count >= random_read_wakeup_thresh);
	n = min_t(int, nbytes, random_state->entropy_count / 8);
	if (n <= 0)
		return -EAGAIN;
	return extract_entropy(random_state, buf, n, 0);
}

/*********************************************************************
 *
 * Functions to interface with Linux
 *
 *********************************************************************/

static int sysctl_poolsize;

static void sysctl_init_random(struct entropy_store *random_state)
{
	sysctl_poolsize = random_state->poolinfo.POOLBYTES;
}

static void init_std_data(struct entropy_store *r)
{
	__u32 words[2];

	words[0] = 0x4c696e75;	/* the boot "time": fixed, for reproducible runs */
	words[1] = 0x78323035;
	add_entropy_words(r, words, sizeof(words)/4);
}

int __init rand_initialize(void)
{
	int i;

	if (create_entropy_store(DEFAULT_POOL_SIZE, &random_state))
		goto err;
	if (batch_entropy_init(BATCH_ENTROPY_SIZE, random_state))
		printk(KERN_WARNING "random: no memory for the batch ring; "
		       "entropy from interrupts is ignored\n");
	if (create_entropy_store(SECONDARY_POOL_SIZE, &sec_random_state))
		goto err;
	clear_entropy_store(random_state);
	clear_entropy_store(sec_random_state);
	init_std_data(random_state);
	sysctl_init_random(random_state);
	for (i = 0; i < NR_IRQS; i++)
		irq_timer_state[i] = NULL;
	memset(&keyboard_timer_state, 0, sizeof(struct timer_rand_state));
	memset(&mouse_timer_state, 0, sizeof(struct timer_rand_state));
	memset(&extract_timer_state, 0, sizeof(struct timer_rand_state));
	extract_timer_state.dont_count_entropy = 1;
	batch_stored = batch_dropped = batch_mixed = 0;
	batch_mixed_retired = batch_runs = pool_resizes = 0;
	return 0;

err:
	random_exit();
	return -ENOMEM;
}

int rand_initialize_irq(int irq)
{
	struct timer_rand_state *state;

	if (irq < 0 || irq >= NR_IRQS || irq_timer_state[irq])
		return -EINVAL;

	/*
	 * If kmalloc returns null, we just won't use that entropy
	 * source.
	 */
	state = kmalloc(sizeof(struct timer_rand_state), GFP_KERNEL);
	if (!state)
		return -ENOMEM;
	memset(state, 0, sizeof(struct timer_rand_state));
	irq_timer_state[irq] = state;
	return 0;
}

void rand_free_irq(int irq)
{
	struct timer_rand_state *state;

	if (irq < 0 || irq >= NR_IRQS)
		return;
	state = irq_timer_state[irq];
	irq_timer_state[irq] = NULL;
	kfree(state);
}

/*
 * The sysctl: replace the primary pool by one of @poolsize bytes, which
 * starts from what the old one held.  The batch task is handed the new
 * pool and the old one is freed at once, as in 2.5.39: a batch task
 * already given the old pool (running, or taken off the queue before the
 * swap) then mixes into freed memory.  Only a caller that knows no batch
 * task is queued or running may resize safely.
 */
static int change_poolsize(int poolsize)
{
	struct entropy_store	*new_store, *old_store;
	unsigned long		flags;
	int			ret;

	if ((ret = create_entropy_store(poolsize, &new_store)))
		return ret;

	spin_lock_irqsave(&batch_lock, flags);
	add_entropy_words(new_store, random_state->pool,
			  random_state->poolinfo.poolwords);
	credit_entropy_store(new_store, random_state->entropy_count);

	sysctl_init_random(new_store);
	old_store = random_state;
	random_state = batch_work.data = new_store;
	pool_resizes++;
	spin_unlock_irqrestore(&batch_lock, flags);

	free_entropy_store(old_store);
	return 0;
}

int random_sysctl_poolsize(int bytes)
{
	if (bytes == sysctl_poolsize)
		return 0;
	return change_poolsize(bytes);
}

static u64 pool_digest(struct entropy_store *r)
{
	u64 h = WORLD_DIGEST_INIT;
	unsigned long flags;

	if (!r)
		return 0;
	spin_lock_irqsave(&r->lock, flags);
	h = world_digest(h, r->pool, r->poolinfo.POOLBYTES);
	h = world_digest_u64(h, r->add_ptr);
	h = world_digest_u64(h, r->input_rotate);
	spin_unlock_irqrestore(&r->lock, flags);
	return h;
}

void random_get_stats(struct random_stats *st)
{
	unsigned long flags;

	memset(st, 0, sizeof(*st));
	spin_lock_irqsave(&batch_lock, flags);
	st->batch_enabled = batch_max != 0;
	st->stored = batch_stored;
	st->dropped = batch_dropped;
	st->mixed = batch_mixed;
	st->mixed_into_retired = batch_mixed_retired;
	st->runs = batch_runs;
	st->resizes = pool_resizes;
	if (random_state) {
		st->primary_words = random_state->poolinfo.poolwords;
		st->primary_entropy = random_state->entropy_count;
		st->primary_digest = pool_digest(random_state);
	}
	if (sec_random_state) {
		st->secondary_words = sec_random_state->poolinfo.poolwords;
		st->secondary_entropy = sec_random_state->entropy_count;
		st->secondary_digest = pool_digest(sec_random_state);
	}
	spin_unlock_irqrestore(&batch_lock, flags);
}

/* wait until the batch task queued so far has run */
void random_quiesce(void)
{
	flush_scheduled_work();
}

void __exit random_exit(void)
{
	int i;

	/* no more batching, and nothing of it still queued */
	batch_max = 0;
	flush_scheduled_work();

	for (i = 0; i < NR_IRQS; i++)
		rand_free_irq(i);
	kfree(batch_entropy_pool);
	kfree(batch_entropy_credit);
	batch_entropy_pool = NULL;
	batch_entropy_credit = NULL;
	if (random_state)
		free_entropy_store(random_state);
	if (sec_random_state)
		free_entropy_store(sec_random_state);
	random_state = sec_random_state = NULL;
}

EXPORT_SYMBOL(add_keyboard_randomness);
EXPORT_SYMBOL(add_mouse_randomness);
EXPORT_SYMBOL(add_interrupt_randomness);
EXPORT_SYMBOL(batch_entropy_store);
EXPORT_SYMBOL(get_random_bytes);

MODULE_LICENSE("GPL");
