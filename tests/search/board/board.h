/*
 * board.h - what the tests' 2.4-style board driver (board.c) and its
 * runner (runner.c) share, standing in for what the 2.4 headers and the
 * tty core will give a real driver: module parameters recorded as 2.4's
 * MODULE_PARM(var, "type") records them, in a section the runner lists
 * and sets from SHIM_MODPARAMS; and a driver registration the runner
 * counts, as tty_register_driver() will be.
 */
#ifndef _TESTS_SEARCH_BOARD_H
#define _TESTS_SEARCH_BOARD_H

struct board_param {
	const char *name;
	const char *type; /* 2.4's: "i" an int */
	int *var;
} __attribute__((aligned(16)));

#define BOARD_PARM(var, type)                                 \
	static const struct board_param __board_param_##var   \
		__attribute__((section("board_params"), used, \
			       aligned(16))) = { #var, type, &(var) }

/* the driver's registration, counted by the runner */
extern void board_register_driver(const char *name);
extern void board_unregister_driver(const char *name);

/* the module's entry points, as 2.4's MODULE build names them */
extern int init_module(void);
extern void cleanup_module(void);

#endif /* _TESTS_SEARCH_BOARD_H */
