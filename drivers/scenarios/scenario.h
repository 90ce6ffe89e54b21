/*
 * scenario.h - the scenarios' side of the runner (main.c, report.c).
 *
 * A scenario drives one driver through its own functions only (never a
 * deferred-work API), so the same scenario source runs against the legacy
 * and the converted driver, on either stack.  It reports:
 *   observables  what must be equal on both stacks (reproducible data);
 *   invariants   named booleans that must all hold (a false one fails the run);
 *   stats        timing-dependent figures, shown but never compared.
 * The runner adds the leak count (allocations left after the scenario) as
 * both "leaks" and the invariant "no_leaks".
 */
#ifndef _SCENARIO_H
#define _SCENARIO_H

#include <stddef.h>
#include <stdint.h>

struct scenario_ctx;

struct scenario {
	const char *driver;
	const char *name;
	const char *what;
	int concurrent; /* 1: observables are counts and sets only */
	void (*run)(struct scenario_ctx *ctx);
};

#define SCENARIO(_driver, _name, _concurrent, _fn, _what)              \
	static const struct scenario __scenario_##_driver##_##_fn = {  \
		.driver = #_driver,                                    \
		.name = _name,                                         \
		.what = _what,                                         \
		.concurrent = _concurrent,                             \
		.run = _fn,                                            \
	};                                                             \
	static const struct scenario *__scenario_ptr_##_driver##_##_fn \
		__attribute__((section("drv_scenarios"), used)) =      \
			&__scenario_##_driver##_##_fn

/* the scenario's inputs */
uint64_t scn_seed(struct scenario_ctx *ctx);

/*
 * How much to do: @full, or under SHIM_SCENARIO_SIZE=explore (the demo's
 * controlled schedules) @explore, a size that still reaches every call
 * site the full size does (tests/sizes/run checks it) in far fewer
 * scheduling points: a schedule's cost is its points.  Observables may
 * differ between the sizes, never between the stacks at one size.
 */
size_t scn_size(struct scenario_ctx *ctx, size_t full, size_t explore);

/*
 * A scenario run in tries: its first run (try 0) asks with scn_tries()
 * for @n more, and the demo runs each of them on both sides, a process
 * apiece, with SHIM_SCENARIO_TRY=1..n in its environment (scn_try()
 * says which).  For what must start afresh each time, as a module that
 * insmod loaded anew: the exerciser's init_unwind fails the n-th
 * resource a module's init takes in try n.
 */
unsigned int scn_try(struct scenario_ctx *ctx);
void scn_tries(struct scenario_ctx *ctx, unsigned int n);
/*
 * And @n tries this side alone makes, @first to @first + @n - 1: what
 * only it asks for (a queue a conversion added), each held to its
 * failures alone, for the other side has nothing to compare.
 */
void scn_tries_alone(struct scenario_ctx *ctx, unsigned int first,
		     unsigned int n);

/* observables: compared between stacks */
void obs_u64(struct scenario_ctx *ctx, const char *key, uint64_t v);
void obs_i64(struct scenario_ctx *ctx, const char *key, int64_t v);
void obs_hex(struct scenario_ctx *ctx, const char *key, uint64_t v);
void obs_str(struct scenario_ctx *ctx, const char *key, const char *s);
void obs_u64_list(struct scenario_ctx *ctx, const char *key, const uint64_t *v,
		  size_t n);
void obs_i64_list(struct scenario_ctx *ctx, const char *key, const int64_t *v,
		  size_t n);
/* a list of strings; the caller sorts it first if it is a set */
void obs_str_list(struct scenario_ctx *ctx, const char *key,
		  const char *const *v, size_t n);

/* invariants: each must be true; returns cond */
int inv(struct scenario_ctx *ctx, const char *key, int cond);
/* the same, with what broke it said when it broke ("why" in the report) */
int inv_why(struct scenario_ctx *ctx, const char *key, int cond,
	    const char *why);

/* stats: informative only */
void stat_u64(struct scenario_ctx *ctx, const char *key, uint64_t v);
void stat_f(struct scenario_ctx *ctx, const char *key, double v);

/*
 * The demo compares each work routine's profile between the stacks: how
 * often it was queued and ran, from which contexts, where.  In a
 * single-threaded scenario every count must be equal; a concurrent one
 * names here the routines whose counts do not depend on the interleaving.
 */
void exact_counts(struct scenario_ctx *ctx, const char *routine);

/*
 * An observable (obs_*()) that the time a call takes decides: how many
 * bytes a device streamed while a close waited for its transmitter, what
 * a read found.  Both sides' free runs play the same script in virtual
 * time and compare it exactly; under a controlled schedule it is the
 * schedule's, and the demo's judge does not hold a run to it (the
 * scenario's invariants and every problem still count).
 */
void timed(struct scenario_ctx *ctx, const char *key);

/*
 * Allocation failures in turn, as the fault sweeps make them: @attempt(@arg)
 * runs with the 1st, 2nd, ... kmalloc made to fail (@kthread 0), or the
 * 1st, 2nd, ... kernel_thread (@kthread 1), until it returns 0.  Each
 * failure must return -ENOMEM and leave no allocation behind (invariant
 * "<what>_failures_clean"); how many there were depends on the stack (a
 * workqueue allocates and starts threads where keventd did not), a stat.
 * Returns what @attempt returned last.
 */
int scn_fail_in_turn(struct scenario_ctx *ctx, const char *what, int kthread,
		     int (*attempt)(void *arg), void *arg);

/* host helpers */
uint64_t scn_now_ns(void);
void scn_sleep_ms(unsigned int ms);
/* poll @cond every ms up to @timeout_ms; returns its last value */
#define scn_wait_until(cond, timeout_ms)                     \
	({                                                   \
		unsigned int __waited = 0;                   \
		while (!(cond) && __waited < (timeout_ms)) { \
			scn_sleep_ms(1);                     \
			__waited++;                          \
		}                                            \
		(cond);                                      \
	})

/* run @n copies of @fn(ctx, i) in host threads and wait for them all */
void scn_run_threads(int n, void (*fn)(void *arg, int i), void *arg);

int scn_cmp_str(const void *a, const void *b); /* for qsort of char * */

#endif /* _SCENARIO_H */
