/* a task reached through a chain of members: not followed, reported */
struct chain_in {
	struct tq_struct tq2;
};

struct chain {
	struct chain_in in;
};
