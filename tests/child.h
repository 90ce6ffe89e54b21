/*
 * child.h - checking a diagnostic in a child process, for every Criterion
 * suite (tests/child.c is linked into each).
 *
 * Criterion runs each test in a process of its own, but a BUG aborts, and
 * a diagnostic's text must be read back: run_child(name, env, res) runs
 * this binary again with TEST_CHILD=<name>; a constructor there, after the
 * shim and the stack have booted (constructors 102 to 120), runs the
 * scenario declared with CHILD_SCENARIO(name) and exits before Criterion's
 * main().  The parent gets the exit status and all the child wrote on
 * stdout and stderr.  Re-running the binary, rather than only forking,
 * gives the child the boot threads a forked copy would lack.
 */
#ifndef _TESTS_CHILD_H
#define _TESTS_CHILD_H

#define CHILD_TIMEOUT 15 /* seconds: a child that neither BUGs nor exits */
#define CHILD_ALL_PRINTK "SHIM_LOGLEVEL=8" /* env: every printk on stderr */

struct child_scenario {
	const char *name;
	void (*fn)(void);
} __attribute__((aligned(16)));

#define CHILD_SCENARIO(name)                                            \
	static void child_##name(void);                                 \
	static const struct child_scenario __child_scenario_##name      \
		__attribute__((section("test_children"), used,          \
			       aligned(16))) = { #name, child_##name }; \
	static void child_##name(void)

struct child_result {
	int status;	 /* as waitpid() reports it */
	char out[16384]; /* the child's stdout and stderr, NUL terminated */
};

/*
 * Run scenario @name in a fresh process of this binary and wait for it.
 * The child gets our environment less Criterion's and the shim's knobs,
 * plus @env ("VAR=value", several separated by spaces, or NULL).
 */
extern void run_child(const char *name, const char *env,
		      struct child_result *res);

/* The child died of SIGABRT (a BUG) and said each of the needles. */
#define assert_child_bug(res, ...) __assert_child_bug(res, __VA_ARGS__, NULL)
extern void __assert_child_bug(const struct child_result *res, ...);
/* The child said @needle (anywhere in its output). */
extern void assert_child_said(const struct child_result *res,
			      const char *needle);

/* In a child, where Criterion's asserts do not work: exit 3 if @cond fails. */
#define child_check(cond)                          \
	do {                                       \
		if (!(cond))                       \
			child_check_failed(#cond); \
	} while (0)
extern void child_check_failed(const char *what) __attribute__((noreturn));

/* In a child: say where an object lives, for the parent to look for. */
extern void child_note(const char *tag, const void *p);
/* In the parent: the address the child gave with child_note(@tag), as %p shows it. */
extern const char *child_noted(const struct child_result *res, const char *tag,
			       char *buf, size_t len);

#endif /* _TESTS_CHILD_H */
