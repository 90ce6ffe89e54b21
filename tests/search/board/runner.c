/*
 * runner.c - a tiny runner for the tests' board driver, with the command
 * line the 2.4 exerciser's binaries have (make src-binary), so that the
 * device search runs on it as on them:
 *
 *   board --list                       scenarios: driver, name, kind, what
 *   board --params                     module parameters: "name type"
 *   board --driver board --scenario S [--seed N]
 *
 * SHIM_MODPARAMS="io=0x220 irq=5" sets parameters before init_module(),
 * SHIM_DEVICE configures the device (world/device.h).  Prints one JSON
 * object as the scenario runner does; its observables: init_module()'s
 * return, the drivers registered, the interrupts handled.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/test.h>
#include <world/irq.h>
#include "board.h"

extern const struct board_param __start_board_params[] __attribute__((weak));
extern const struct board_param __stop_board_params[] __attribute__((weak));

static int registered;
static const char *stack = "taskqueue";

void board_register_driver(const char *name)
{
	registered++;
}

void board_unregister_driver(const char *name)
{
	registered--;
}

/* SHIM_MODPARAMS: "name=value ...", each an int parameter of the module */
static int set_params(const char *line)
{
	char *copy = strdup(line ? line : ""), *save, *word;
	int ret = 0;

	for (word = strtok_r(copy, " \t", &save); word && !ret;
	     word = strtok_r(NULL, " \t", &save)) {
		const struct board_param *p;
		char *eq = strchr(word, '='), *end;

		ret = -EINVAL;
		if (!eq)
			break;
		*eq = 0;
		for (p = __start_board_params; p && p < __stop_board_params;
		     p++)
			if (!strcmp(p->name, word))
				break;
		if (!p || p >= __stop_board_params) {
			ret = -ENOENT;
			break;
		}
		*p->var = strtol(eq + 1, &end, 0);
		ret = *end ? -EINVAL : 0;
	}
	if (ret)
		fprintf(stderr, "SHIM_MODPARAMS: %s: %s\n", word,
			ret == -ENOENT ? "no such parameter" : "bad value");
	free(copy);
	return ret;
}

/* raise each line the module has a handler on, @times times */
static unsigned long interrupt(int times)
{
	unsigned int lines[NR_SIM_IRQS];
	unsigned long handled = 0;
	int i, j, n = sim_irq_lines(lines, NR_SIM_IRQS);

	for (i = 0; i < times; i++)
		for (j = 0; j < n; j++)
			handled += sim_raise_irq(lines[j]);
	shim_softirq_sync();
	return handled;
}

int main(int argc, char **argv)
{
	const char *scenario = NULL;
	unsigned long seed = 1, handled = 0;
	int i, init, was;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			printf("board\tload\tsingle\tinit_module and "
			       "cleanup_module\n");
			printf("board\tirq\tsingle\tinit_module, 20 interrupts "
			       "on each line, cleanup_module\n");
			return 0;
		} else if (!strcmp(argv[i], "--params")) {
			const struct board_param *p;

			for (p = __start_board_params;
			     p && p < __stop_board_params; p++)
				printf("%s %s\n", p->name, p->type);
			return 0;
		} else if (!strcmp(argv[i], "--driver") && i + 1 < argc) {
			i++;
		} else if (!strcmp(argv[i], "--scenario") && i + 1 < argc) {
			scenario = argv[++i];
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoul(argv[++i], NULL, 0);
		} else {
			scenario = NULL;
			break;
		}
	}
	if (!scenario ||
	    (strcmp(scenario, "load") && strcmp(scenario, "irq"))) {
		fprintf(stderr,
			"usage: %s --list | --params | --driver board "
			"--scenario load|irq [--seed N]\n",
			argv[0]);
		return 2;
	}
	if (set_params(getenv("SHIM_MODPARAMS")))
		return 2;
	init = init_module();
	if (!init && !strcmp(scenario, "irq"))
		handled = interrupt(20);
	was = registered;
	if (!init)
		cleanup_module();
	printf("{\"driver\":\"board\",\"scenario\":\"%s\",\"stack\":"
	       "\"%s\",\"seed\":%lu,\"concurrent\":false,",
	       scenario, stack, seed);
	printf("\"observables\":{\"init\":%d,\"registered\":%d,"
	       "\"handled\":%lu},",
	       init, was, handled);
	printf("\"invariants\":{\"unregistered\":%s},\"ok\":%s}\n",
	       registered ? "false" : "true", registered ? "false" : "true");
	return registered ? 1 : 0;
}
