/*
 * main.c - the scenario runner: one scenario per process.
 *
 *   scenarios --list
 *   scenarios --driver tty --scenario burst [--seed N]
 *   scenarios --params       (a 2.4 module's parameters: "name type" a line)
 *
 * SHIM_SCENARIO_SIZE=explore runs it at its exploration size (scn_size),
 * SHIM_SCENARIO_TRY=N as its try N (scn_try).
 *
 * Prints one JSON object on stdout:
 *   {"driver":..,"scenario":..,"stack":..,"seed":N,"concurrent":bool,
 *    "observables":{..},"invariants":{..},"stats":{..},"exact_counts":[..],
 *    "timed":[..],
 *    "leaks":N,"ok":bool}
 * with "why":{..} (what broke an invariant, where the scenario said it),
 * "try":N in a try and "tries":N where try 0 asks for more.
 * and exits 0 if every invariant held, 1 if one broke, 2 on a usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <shim/modparam.h>
#include "scenario.h"

#ifndef STACK_NAME
#define STACK_NAME "unknown"
#endif

extern const struct scenario *__start_drv_scenarios[] __attribute__((weak));
extern const struct scenario *__stop_drv_scenarios[] __attribute__((weak));

struct strbuf {
	char *s;
	size_t len, cap;
	int items;
};

struct scenario_ctx {
	const struct scenario *scn;
	uint64_t seed;
	int explore; /* SHIM_SCENARIO_SIZE=explore */
	unsigned int try, tries;
	unsigned int alone_first, alone; /* scn_tries_alone() */
	struct strbuf obs, inv, why, stats, exact, timed;
	int failed;
	struct shim_mutex lock;
};

static void sb_add(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t) n < b->cap - b->len)
			break;
		b->cap = (b->cap ? b->cap * 2 : 256) + (n > 0 ? n : 0);
		b->s = realloc(b->s, b->cap);
		if (!b->s) {
			perror("realloc");
			exit(2);
		}
	}
	b->len += n;
}

static void sb_init(struct strbuf *b)
{
	b->s = NULL;
	b->len = b->cap = 0;
	b->items = 0;
	sb_add(b, "%s", "");
}

static void sb_str(struct strbuf *b, const char *s)
{
	sb_add(b, "\"");
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			sb_add(b, "\\%c", c);
		else if (c < 0x20)
			sb_add(b, "\\u%04x", c);
		else
			sb_add(b, "%c", c);
	}
	sb_add(b, "\"");
}

static void sb_key(struct strbuf *b, const char *key)
{
	if (b->items++)
		sb_add(b, ",");
	sb_str(b, key);
	sb_add(b, ":");
}

uint64_t scn_seed(struct scenario_ctx *ctx)
{
	return ctx->seed;
}

size_t scn_size(struct scenario_ctx *ctx, size_t full, size_t explore)
{
	return ctx->explore ? explore : full;
}

unsigned int scn_try(struct scenario_ctx *ctx)
{
	return ctx->try;
}

void scn_tries(struct scenario_ctx *ctx, unsigned int n)
{
	ctx->tries = n;
}

void scn_tries_alone(struct scenario_ctx *ctx, unsigned int first,
		     unsigned int n)
{
	ctx->alone_first = first;
	ctx->alone = n;
}

void obs_u64(struct scenario_ctx *ctx, const char *key, uint64_t v)
{
	shim_mutex_lock_unseen(&ctx->lock);
	sb_key(&ctx->obs, key);
	sb_add(&ctx->obs, "%" PRIu64, v);
	shim_mutex_unlock_unseen(&ctx->lock);
}

void obs_i64(struct scenario_ctx *ctx, const char *key, int64_t v)
{
	shim_mutex_lock_unseen(&ctx->lock);
	sb_key(&ctx->obs, key);
	sb_add(&ctx->obs, "%" PRId64, v);
	shim_mutex_unlock_unseen(&ctx->lock);
}

void obs_hex(struct scenario_ctx *ctx, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%016" PRIx64, v);
	obs_str(ctx, key, buf);
}

void obs_str(struct scenario_ctx *ctx, const char *key, const char *s)
{
	shim_mutex_lock_unseen(&ctx->lock);
	sb_key(&ctx->obs, key);
	sb_str(&ctx->obs, s);
	shim_mutex_unlock_unseen(&ctx->lock);
}

void obs_u64_list(struct scenario_ctx *ctx, const char *key, const uint64_t *v,
		  size_t n)
{
	size_t i;

	shim_mutex_lock_unseen(&ctx->lock);
	sb_key(&ctx->obs, key);
	sb_add(&ctx->obs, "[");
	for (i = 0; i < n; i++)
		sb_add(&ctx->obs, "%s%" PRIu64, i ? "," : "", v[i]);
	sb_add(&ctx->obs, "]");
	shim_mutex_unlock_unseen(&ctx->lock);
}

void obs_i64_list(struct scenario_ctx *ctx, const char *key, const int64_t *v,
		  size_t n)
{
	size_t i;

	shim_mutex_lock_unseen(&ctx->lock);
	sb_key(&ctx->obs, key);
	sb_add(&ctx->obs, "[");
	for (i = 0; i < n; i++)
		sb_add(&ctx->obs, "%s%" PRId64, i ? "," : "", v[i]);
	sb_add(&ctx->obs, "]");
	shim_mutex_unlock_unseen(&ctx->lock);
}

void obs_str_list(struct scenario_ctx *ctx, const char *key,
		  const char *const *v, size_t n)
{
	size_t i;

	shim_mutex_lock_unseen(&ctx->lock);
	sb_key(&ctx->obs, key);
	sb_add(&ctx->obs, "[");
	for (i = 0; i < n; i++) {
		if (i)
			sb_add(&ctx->obs, ",");
		sb_str(&ctx->obs, v[i]);
	}
	sb_add(&ctx->obs, "]");
	shim_mutex_unlock_unseen(&ctx->lock);
}

int inv(struct scenario_ctx *ctx, const char *key, int cond)
{
	shim_mutex_lock_unseen(&ctx->lock);
	sb_key(&ctx->inv, key);
	sb_add(&ctx->inv, "%s", cond ? "true" : "false");
	if (!cond) {
		ctx->failed = 1;
		fprintf(stderr, "%s/%s: invariant %s broken\n",
			ctx->scn->driver, ctx->scn->name, key);
	}
	shim_mutex_unlock_unseen(&ctx->lock);
	return cond;
}

int inv_why(struct scenario_ctx *ctx, const char *key, int cond,
	    const char *why)
{
	if (!cond && why && *why) {
		shim_mutex_lock_unseen(&ctx->lock);
		sb_key(&ctx->why, key);
		sb_str(&ctx->why, why);
		shim_mutex_unlock_unseen(&ctx->lock);
		fprintf(stderr, "%s/%s: %s: %s\n", ctx->scn->driver,
			ctx->scn->name, key, why);
	}
	return inv(ctx, key, cond);
}

void stat_u64(struct scenario_ctx *ctx, const char *key, uint64_t v)
{
	shim_mutex_lock_unseen(&ctx->lock);
	sb_key(&ctx->stats, key);
	sb_add(&ctx->stats, "%" PRIu64, v);
	shim_mutex_unlock_unseen(&ctx->lock);
}

void exact_counts(struct scenario_ctx *ctx, const char *routine)
{
	shim_mutex_lock_unseen(&ctx->lock);
	if (ctx->exact.items++)
		sb_add(&ctx->exact, ",");
	sb_str(&ctx->exact, routine);
	shim_mutex_unlock_unseen(&ctx->lock);
}

void timed(struct scenario_ctx *ctx, const char *key)
{
	shim_mutex_lock_unseen(&ctx->lock);
	if (ctx->timed.items++)
		sb_add(&ctx->timed, ",");
	sb_str(&ctx->timed, key);
	shim_mutex_unlock_unseen(&ctx->lock);
}

void stat_f(struct scenario_ctx *ctx, const char *key, double v)
{
	shim_mutex_lock_unseen(&ctx->lock);
	sb_key(&ctx->stats, key);
	sb_add(&ctx->stats, "%.3f", v);
	shim_mutex_unlock_unseen(&ctx->lock);
}

/* The shim's clock and sleeps: virtual in a controlled run (SHIM_SCHED). */
uint64_t scn_now_ns(void)
{
	return shim_clock_ns();
}

void scn_sleep_ms(unsigned int ms)
{
	shim_sleep_ns(ms * 1000000ULL);
}

struct thread_arg {
	void (*fn)(void *arg, int i);
	void *arg;
	int i;
	struct shim_thread *thread;
};

static void thread_main(void *p)
{
	struct thread_arg *ta = p;

	ta->fn(ta->arg, ta->i);
}

/* The shim's threads, so that a controlled run schedules them too. */
void scn_run_threads(int n, void (*fn)(void *arg, int i), void *arg)
{
	struct thread_arg *ta = calloc(n, sizeof(*ta));
	int i;

	if (!ta) {
		perror("calloc");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		char name[16];

		ta[i].fn = fn;
		ta[i].arg = arg;
		ta[i].i = i;
		snprintf(name, sizeof(name), "producer/%d", i & 0xffff);
		ta[i].thread = shim_thread_start(name, thread_main, &ta[i]);
	}
	for (i = 0; i < n; i++)
		shim_thread_join(ta[i].thread);
	free(ta);
}

int scn_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

int scn_fail_in_turn(struct scenario_ctx *ctx, const char *what, int kthread,
		     int (*attempt)(void *arg), void *arg)
{
	long before = shim_kmalloc_outstanding();
	int n, ret = -ENOMEM, clean = 1, failures = 0;
	char key[128];

	for (n = 1; n <= 64 && ret; n++) {
		if (kthread)
			shim_fail_kthread_nth(n);
		else
			shim_fail_kmalloc_nth(n);
		ret = attempt(arg);
		if (kthread)
			shim_fail_kthread_nth(0);
		else
			shim_fail_kmalloc_nth(0);
		if (ret) {
			failures++;
			clean &= ret == -ENOMEM &&
				 shim_kmalloc_outstanding() == before;
		}
	}
	snprintf(key, sizeof(key), "%s_failures_clean", what);
	inv(ctx, key, clean);
	snprintf(key, sizeof(key), "%s_failures", what);
	stat_u64(ctx, key, failures);
	return ret;
}

static const struct scenario *find(const char *driver, const char *name)
{
	const struct scenario **p;

	for (p = __start_drv_scenarios; p && p < __stop_drv_scenarios; p++)
		if (!strcmp((*p)->driver, driver) && !strcmp((*p)->name, name))
			return *p;
	return NULL;
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s --list\n"
		"       %s --driver NAME --scenario NAME [--seed N]\n"
		"       %s --params\n",
		prog, prog, prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *driver = NULL, *name = NULL, *size, *try;
	struct scenario_ctx ctx;
	uint64_t seed = 1;
	long leaks;
	int i, list = 0, params = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list"))
			list = 1;
		else if (!strcmp(argv[i], "--driver") && i + 1 < argc)
			driver = argv[++i];
		else if (!strcmp(argv[i], "--scenario") && i + 1 < argc)
			name = argv[++i];
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--params"))
			params = 1;
		else
			usage(argv[0]);
	}
	if (params) {
		const struct shim_modparam *p;

		for (i = 0; (p = shim_modparam_get(i)); i++)
			printf("%s %s\n", p->name, p->type);
		return 0;
	}
	if (list) {
		const struct scenario **p;

		for (p = __start_drv_scenarios; p && p < __stop_drv_scenarios;
		     p++)
			if (!driver || !strcmp((*p)->driver, driver))
				printf("%s\t%s\t%s\t%s\n", (*p)->driver,
				       (*p)->name,
				       (*p)->concurrent ? "concurrent" :
							  "single",
				       (*p)->what);
		return 0;
	}
	if (!driver || !name)
		usage(argv[0]);

	memset(&ctx, 0, sizeof(ctx));
	ctx.scn = find(driver, name);
	if (!ctx.scn) {
		fprintf(stderr, "%s: no scenario %s/%s (try --list)\n", argv[0],
			driver, name);
		return 2;
	}
	ctx.seed = seed;
	size = getenv("SHIM_SCENARIO_SIZE");
	if (size && *size && strcmp(size, "full")) {
		if (strcmp(size, "explore")) {
			fprintf(stderr,
				"%s: SHIM_SCENARIO_SIZE=%s: expected full or "
				"explore\n",
				argv[0], size);
			return 2;
		}
		ctx.explore = 1;
	}
	try = getenv("SHIM_SCENARIO_TRY");
	if (try && *try) {
		char *end;

		ctx.try = strtoul(try, &end, 10);
		if (*end) {
			fprintf(stderr,
				"%s: SHIM_SCENARIO_TRY=%s: expected a number\n",
				argv[0], try);
			return 2;
		}
	}
	ctx.lock = (struct shim_mutex) SHIM_MUTEX_INIT;
	sb_init(&ctx.obs);
	sb_init(&ctx.inv);
	sb_init(&ctx.why);
	sb_init(&ctx.stats);
	sb_init(&ctx.exact);
	sb_init(&ctx.timed);

	ctx.scn->run(&ctx);
	/* what the next interrupt exit would run: not a flush of any driver */
	shim_softirq_sync();

	leaks = shim_kmalloc_outstanding();
	/* how far a fault sweep (SHIM_FAIL_KMALLOC=1, 2, ...) has to go */
	stat_u64(&ctx, "kmalloc_calls", shim_kmalloc_calls());
	inv(&ctx, "no_leaks", leaks == 0);

	printf("{\"driver\":");
	{
		struct strbuf b;

		sb_init(&b);
		sb_str(&b, ctx.scn->driver);
		sb_add(&b, ",\"scenario\":");
		sb_str(&b, ctx.scn->name);
		sb_add(&b, ",\"stack\":");
		sb_str(&b, STACK_NAME);
		printf("%s", b.s);
		free(b.s);
	}
	printf(",\"seed\":%" PRIu64, seed);
	if (ctx.try)
		printf(",\"try\":%u", ctx.try);
	if (ctx.tries)
		printf(",\"tries\":%u", ctx.tries);
	if (ctx.alone)
		printf(",\"tries_alone\":[%u,%u]", ctx.alone_first, ctx.alone);
	if (ctx.why.items)
		printf(",\"why\":{%s}", ctx.why.s);
	printf(",\"concurrent\":%s,\"observables\":{%s},"
	       "\"invariants\":{%s},\"stats\":{%s},\"exact_counts\":[%s],"
	       "\"timed\":[%s],\"leaks\":%ld,\"ok\":%s}\n",
	       ctx.scn->concurrent ? "true" : "false", ctx.obs.s, ctx.inv.s,
	       ctx.stats.s, ctx.exact.s, ctx.timed.s, leaks,
	       ctx.failed ? "false" : "true");
	fflush(stdout);
	free(ctx.obs.s);
	free(ctx.inv.s);
	free(ctx.why.s);
	free(ctx.stats.s);
	free(ctx.exact.s);
	free(ctx.timed.s);
	return ctx.failed ? 1 : 0;
}
