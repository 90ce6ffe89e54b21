/* another structure with a member of the same name, on keventd */
struct ring {
	struct tq_struct tq;
};
