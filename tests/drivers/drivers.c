/*
 * drivers.c - every scenario of every driver of the manifest, on both sides.
 *
 * For each driver: run each of its scenarios (in its own process, as the
 * demo does, through drivers/runner) with the legacy driver on the task
 * queue and with the converted driver on the workqueue; both must succeed
 * (every invariant held, nothing leaked) and report equal observables
 * (single-threaded scenarios reproduce them to the bit; concurrent ones
 * report counts and sets).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "runner/runner.h"
#include "suite.h"

#define MAX_DRIVERS 64

/* Criterion copies parameters by value: a name, not a pointer to one */
struct driver_name {
	char name[32];
};

ParameterizedTestParameters(drivers, on_both_sides)
{
	static struct driver_name names[MAX_DRIVERS];
	char line[512];
	size_t n = 0;
	FILE *f = fopen(TOP_DIR "/drivers/manifest", "r");

	if (!f)
		return cr_make_param_array(struct driver_name, names, 0);
	while (n < MAX_DRIVERS && fgets(line, sizeof(line), f))
		if (sscanf(line, " %31[a-z0-9_] |", names[n].name) == 1 &&
		    line[0] != '#')
			n++;
	fclose(f);
	return cr_make_param_array(struct driver_name, names, n);
}

static void run(const char *side, const char *driver, const char *scenario,
		struct scenario_result *res)
{
	char exe[512];

	snprintf(exe, sizeof(exe), "%s/drivers/%s/%s", BUILD_DIR, side, driver);
	cr_assert_eq(run_scenario(exe, driver, scenario, 1, "SHIM_LOGLEVEL=1",
				  120, res),
		     0, "cannot run %s", exe);
	cr_expect(WIFEXITED(res->status) && WEXITSTATUS(res->status) == 0,
		  "%s/%s on the %s side failed (status 0x%x): %s", driver,
		  scenario, side, res->status, res->out);
	cr_assert_not_null(res->result,
			   "%s/%s on the %s side printed no result", driver,
			   scenario, side);
}

ParameterizedTest(struct driver_name *d, drivers, on_both_sides, .timeout = 240)
{
	char cmd[512], line[512];
	int scenarios = 0;
	FILE *list;

	snprintf(cmd, sizeof(cmd), "%s/drivers/legacy/%s --list", BUILD_DIR,
		 d->name);
	list = popen(cmd, "r");
	cr_assert(list, "cannot list the scenarios of %s", d->name);
	while (fgets(line, sizeof(line), list)) {
		struct scenario_result legacy, converted;
		char *name = strchr(line, '\t'), *tab,
		     where[256] = "observables";

		if (!name)
			continue;
		name++;
		tab = strchr(name, '\t');
		if (tab)
			*tab = '\0';
		run("legacy", d->name, name, &legacy);
		run("converted", d->name, name, &converted);
		cr_expect_not(json_first_difference(
				      json_get(legacy.result, "observables"),
				      json_get(converted.result, "observables"),
				      where, sizeof(where)),
			      "%s/%s: %s differs between the sides", d->name,
			      name, where);
		scenario_result_free(&legacy);
		scenario_result_free(&converted);
		scenarios++;
	}
	pclose(list);
	cr_assert_geq(scenarios, 2, "%s has %d scenarios, wants at least 2",
		      d->name, scenarios);
}

/* the reader the comparison above relies on */
Test(drivers, json_reader_names_the_first_difference, .timeout = SUITE_TIMEOUT)
{
	char err[128], where[128] = "";
	struct json *a =
		json_parse("{\"a\": {\"b\": [1, 2, \"x\\\"y\"]}, \"c\": true}",
			   err, sizeof(err));
	struct json *b =
		json_parse("{\"c\": true, \"a\": {\"b\": [1, 3, \"x\\\"y\"]}}",
			   err, sizeof(err));
	struct json *c =
		json_parse("{\"c\": true, \"a\": {\"b\": [1, 2, \"x\\\"y\"]}}",
			   err, sizeof(err));

	cr_assert(a && b && c, "%s", err);
	cr_assert_str_eq(json_first_difference(a, b, where, sizeof(where)),
			 ".a.b[1]");
	cr_assert(json_equal(a, c),
		  "members in another order are the same object");
	cr_assert_null(json_parse("{\"a\": 1,}", err, sizeof(err)));
	cr_assert(strstr(err, "expected"), "%s", err);
	json_free(a);
	json_free(b);
	json_free(c);
}
