/*
 *  xcard.h  -- what a card driver of the xcore family sees of the core.
 *
 *  A card registers itself with register_xcard() and gets a line of the
 *  core's tty driver (ttyX<n>); the core hands it what a user writes on
 *  that line through its send(), and the card gives back what it
 *  received, and says when its transmitter has room again, through the
 *  core's exported calls.  Written for the sandbox's tests.
 */
#ifndef _XCARD_H
#define _XCARD_H

#define XCORE_MAX_CARDS 2

struct xcard {
	const char *name;
	/* bytes the line's user wrote: how many the card took */
	int (*send)(struct xcard *card, const unsigned char *buf, int count);
	/* a write handed over: send it */
	void (*kick)(struct xcard *card);
	/* room in the card's transmitter */
	int (*room)(struct xcard *card);
	void *priv;
	int line; /* given by register_xcard() */
};

extern int register_xcard(struct xcard *card);
extern void unregister_xcard(struct xcard *card);
extern void xcore_receive(struct xcard *card, const unsigned char *buf,
			  int count);
extern void xcore_sent(struct xcard *card);

#endif /* _XCARD_H */
