/*
 * drivers.c - every scenario of every driver, on both stacks.
 *
 * For each of the six drivers: run each of its scenarios (in its own
 * process, as the demo does) with the legacy driver on the old task queue
 * and with the converted driver on the workqueue core; both must succeed
 * (every invariant held, nothing leaked) and single-threaded scenarios
 * must report the same observables on both.  Concurrent scenarios report
 * counts and sets, which must be equal too.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN	(1 << 20)

static char *run_scenario(const char *stack, const char *driver,
			  const char *scenario, int *status)
{
	char cmd[1024];
	char *out = malloc(LINE_MAX_LEN);
	size_t len = 0, n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "SHIM_LOGLEVEL=1 %s/drivers/%s/%s --driver %s "
		 "--scenario %s --seed 1", BUILD_DIR, stack, driver, driver, scenario);
	p = popen(cmd, "r");
	cr_assert(p, "cannot run %s", cmd);
	while ((n = fread(out + len, 1, LINE_MAX_LEN - 1 - len, p)) > 0)
		len += n;
	out[len] = '\0';
	*status = pclose(p);
	return out;
}

/* the "observables":{...} member of a scenario's JSON line, as text */
static char *observables(char *json)
{
	char *start = strstr(json, "\"observables\":{"), *end;

	if (!start)
		return NULL;
	end = strstr(start, "},\"invariants\"");
	if (!end)
		return NULL;
	end[1] = '\0';
	return start;
}

static void check_driver(const char *driver)
{
	char cmd[512], line[512];
	int scenarios = 0;
	FILE *list;

	snprintf(cmd, sizeof(cmd), "%s/drivers/legacy/%s --list", BUILD_DIR, driver);
	list = popen(cmd, "r");
	cr_assert(list, "cannot list the scenarios of %s", driver);
	while (fgets(line, sizeof(line), list)) {
		char *name = strchr(line, '\t'), *tab;
		char *old, *new, *obs_old, *obs_new;
		int st_old, st_new;

		if (!name)
			continue;
		name++;
		tab = strchr(name, '\t');
		if (tab)
			*tab = '\0';
		old = run_scenario("legacy", driver, name, &st_old);
		new = run_scenario("converted", driver, name, &st_new);
		cr_expect_eq(st_old, 0, "%s/%s on the legacy stack failed: %s",
			     driver, name, old);
		cr_expect_eq(st_new, 0, "%s/%s on the converted stack failed: %s",
			     driver, name, new);
		obs_old = observables(old);
		obs_new = observables(new);
		cr_expect(obs_old && obs_new, "%s/%s printed no observables", driver, name);
		if (obs_old && obs_new)
			cr_expect_str_eq(obs_old, obs_new, "%s/%s: the observables differ",
					 driver, name);
		free(old);
		free(new);
		scenarios++;
	}
	pclose(list);
	cr_assert_geq(scenarios, 2, "%s has %d scenarios, wants at least 2",
		      driver, scenarios);
}

TestSuite(drivers, .timeout = 240);

Test(drivers, tty_on_both_stacks) { check_driver("tty"); }
Test(drivers, random_on_both_stacks) { check_driver("random"); }
Test(drivers, floppy_on_both_stacks) { check_driver("floppy"); }
Test(drivers, aio_on_both_stacks) { check_driver("aio"); }
Test(drivers, reiserfs_on_both_stacks) { check_driver("reiserfs"); }
Test(drivers, kmod_on_both_stacks) { check_driver("kmod"); }
