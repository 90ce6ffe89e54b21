/* a structure whose task one file queues on a private queue */
struct cdrom {
	struct tq_struct tq;
	int busy;
};
