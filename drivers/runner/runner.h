/*
 * runner.h - run a driver scenario and read what it says, for C programs
 * (tests/drivers); runner.py is the same for the scripts.
 *
 * A scenario binary runs one scenario per process and prints one JSON line
 * (drivers/scenarios/main.c says what it holds), and a {"monitor": ...}
 * line when the demo's monitor is linked in.  Host code.
 */
#ifndef _DRIVERS_RUNNER_H
#define _DRIVERS_RUNNER_H

#include <stddef.h>

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT
};

struct json {
	enum json_type type;
	double number;
	int boolean;
	char *string;	    /* strings; a number's own text */
	char *key;	    /* in an object: this member's name */
	struct json *child; /* arrays and objects: the first element */
	struct json *next;  /* the next element of the parent */
};

/* Parse @text; NULL with a message in @err (len @errlen) if it is not JSON. */
struct json *json_parse(const char *text, char *err, size_t errlen);
void json_free(struct json *v);
/* A member of an object, or NULL. */
struct json *json_get(const struct json *obj, const char *key);
/* Equal values (object members in any order); 1 if so. */
int json_equal(const struct json *a, const struct json *b);
/* The path of the first difference between @a and @b into @buf, or NULL. */
const char *json_first_difference(const struct json *a, const struct json *b,
				  char *buf, size_t len);

struct scenario_result {
	int status; /* as waitpid() gives it; -1 if not run */
	int timed_out;
	char *out;	      /* all it printed on stdout */
	struct json *result;  /* its scenario line, or NULL */
	struct json *monitor; /* the monitor's object, or NULL */
};

/*
 * Run scenario @driver/@name of binary @exe with --seed @seed, @env
 * ("VAR=value", or NULL) added to the environment, at most @timeout
 * seconds.  0, or -1 if it could not be started.
 */
int run_scenario(const char *exe, const char *driver, const char *name,
		 unsigned int seed, const char *env, int timeout,
		 struct scenario_result *res);
void scenario_result_free(struct scenario_result *res);

#endif /* _DRIVERS_RUNNER_H */
