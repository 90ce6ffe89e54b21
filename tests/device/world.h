/*
 * world.h - what the tests of the simulated world share: a device line
 * taken or the test fails, and the report the world writes, read back.
 */
#ifndef TESTS_DEVICE_WORLD_H
#define TESTS_DEVICE_WORLD_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <world/device.h>

static inline void configure(const char *line)
{
	char err[256] = "";

	/* NULL: the default device, every address reading back */
	cr_assert_eq(sim_device_configure(line, err, sizeof(err)), 0, "%s: %s",
		     line ? line : "(none)", err);
}

/* the whole report, NUL terminated, in @buf */
static inline void report(char *buf, size_t len)
{
	char path[] = "/tmp/world-report.XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	size_t n;

	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(sim_device_report(path), 0);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	unlink(path);
}

#endif /* TESTS_DEVICE_WORLD_H */
