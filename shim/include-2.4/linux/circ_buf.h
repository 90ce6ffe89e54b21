/*
 * linux/circ_buf.h - a ring of a power-of-two size: the producer moves
 * head, the consumer tail; one slot stays empty.
 */
#ifndef _LINUX24_CIRC_BUF_H
#define _LINUX24_CIRC_BUF_H

struct circ_buf {
	char *buf;
	int head;
	int tail;
};

/* what is in it */
#define CIRC_CNT(head, tail, size) (((head) - (tail)) & ((size) -1))
/* what room is left */
#define CIRC_SPACE(head, tail, size) CIRC_CNT((tail), ((head) + 1), (size))
/* what is in it up to the end of the buffer */
#define CIRC_CNT_TO_END(head, tail, size)             \
	({                                            \
		int end = (size) - (tail);            \
		int n = ((head) + end) & ((size) -1); \
		n < end ? n : end;                    \
	})
/* the room left up to the end of the buffer */
#define CIRC_SPACE_TO_END(head, tail, size)           \
	({                                            \
		int end = (size) -1 - (head);         \
		int n = (end + (tail)) & ((size) -1); \
		n <= end ? n : end + 1;               \
	})

#endif /* _LINUX24_CIRC_BUF_H */
