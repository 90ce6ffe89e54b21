/* a typedef'd structure: its task is known through the typedef */
typedef struct ser_info {
	struct tq_struct tqueue;
	int line;
} SER_INFO;
