/*
 * runner.c - run a driver scenario and read what it says (runner.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"

/* --- a small JSON reader -------------------------------------------------- */

struct parser {
	const char *p;
	char *err;
	size_t errlen;
};

static struct json *parse_value(struct parser *ps);

static void fail(struct parser *ps, const char *what)
{
	if (!ps->err[0])
		snprintf(ps->err, ps->errlen, "%s at \"%.20s\"", what, ps->p);
}

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
	       *ps->p == '\r')
		ps->p++;
}

static struct json *new_value(enum json_type type)
{
	struct json *v = calloc(1, sizeof(*v));

	if (!v) {
		perror("calloc");
		exit(2);
	}
	v->type = type;
	return v;
}

static char *parse_string_text(struct parser *ps)
{
	size_t cap = 16, len = 0;
	char *s = malloc(cap);

	ps->p++; /* the opening quote */
	while (s && *ps->p && *ps->p != '"') {
		char c = *ps->p++;

		if (c == '\\') {
			c = *ps->p++;
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c == 'u') {
				c = (char) strtol((char[5]){ ps->p[0], ps->p[1],
							     ps->p[2], ps->p[3],
							     0 },
						  NULL, 16);
				ps->p += 4;
			}
		}
		if (len + 2 > cap)
			s = realloc(s, cap *= 2);
		if (s)
			s[len++] = c;
	}
	if (!s) {
		perror("realloc");
		exit(2);
	}
	s[len] = '\0';
	if (*ps->p != '"') {
		fail(ps, "unterminated string");
		free(s);
		return NULL;
	}
	ps->p++;
	return s;
}

static struct json *parse_container(struct parser *ps, int object)
{
	struct json *v = new_value(object ? JSON_OBJECT : JSON_ARRAY),
		    **tail = &v->child;
	char close = object ? '}' : ']';

	ps->p++;
	skip_space(ps);
	if (*ps->p == close) {
		ps->p++;
		return v;
	}
	for (;;) {
		char *key = NULL;
		struct json *e;

		skip_space(ps);
		if (object) {
			if (*ps->p != '"') {
				fail(ps, "a member name expected");
				break;
			}
			key = parse_string_text(ps);
			skip_space(ps);
			if (!key || *ps->p != ':') {
				free(key);
				fail(ps, "':' expected");
				break;
			}
			ps->p++;
		}
		e = parse_value(ps);
		if (!e) {
			free(key);
			break;
		}
		e->key = key;
		*tail = e;
		tail = &e->next;
		skip_space(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			return v;
		}
		fail(ps, "',' or the end expected");
		break;
	}
	json_free(v);
	return NULL;
}

static struct json *parse_value(struct parser *ps)
{
	struct json *v;
	char *end;

	skip_space(ps);
	switch (*ps->p) {
	case '{':
		return parse_container(ps, 1);
	case '[':
		return parse_container(ps, 0);
	case '"':
		v = new_value(JSON_STRING);
		v->string = parse_string_text(ps);
		if (!v->string) {
			free(v);
			return NULL;
		}
		return v;
	}
	if (!strncmp(ps->p, "true", 4) || !strncmp(ps->p, "false", 5)) {
		v = new_value(JSON_BOOL);
		v->boolean = *ps->p == 't';
		ps->p += v->boolean ? 4 : 5;
		return v;
	}
	if (!strncmp(ps->p, "null", 4)) {
		ps->p += 4;
		return new_value(JSON_NULL);
	}
	v = new_value(JSON_NUMBER);
	v->number = strtod(ps->p, &end);
	if (end == ps->p) {
		free(v);
		fail(ps, "a value expected");
		return NULL;
	}
	v->string = strndup(ps->p, end - ps->p);
	ps->p = end;
	return v;
}

struct json *json_parse(const char *text, char *err, size_t errlen)
{
	struct parser ps = { text, err, errlen };
	struct json *v;

	err[0] = '\0';
	v = parse_value(&ps);
	skip_space(&ps);
	if (v && *ps.p) {
		fail(&ps, "text after the value");
		json_free(v);
		return NULL;
	}
	return v;
}

void json_free(struct json *v)
{
	while (v) {
		struct json *next = v->next;

		json_free(v->child);
		free(v->string);
		free(v->key);
		free(v);
		v = next;
	}
}

struct json *json_get(const struct json *obj, const char *key)
{
	struct json *e;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (e = obj->child; e; e = e->next)
		if (!strcmp(e->key, key))
			return e;
	return NULL;
}

static size_t count(const struct json *v)
{
	size_t n = 0;

	for (v = v->child; v; v = v->next)
		n++;
	return n;
}

const char *json_first_difference(const struct json *a, const struct json *b,
				  char *buf, size_t len)
{
	const struct json *x, *y;
	size_t used = strlen(buf);
	int i;

	if (a->type != b->type)
		return buf;
	switch (a->type) {
	case JSON_NULL:
		return NULL;
	case JSON_BOOL:
		return a->boolean == b->boolean ? NULL : buf;
	case JSON_NUMBER:
		return a->number == b->number ? NULL : buf;
	case JSON_STRING:
		return strcmp(a->string, b->string) ? buf : NULL;
	case JSON_ARRAY:
		if (count(a) != count(b))
			return buf;
		for (i = 0, x = a->child, y = b->child; x;
		     x = x->next, y = y->next, i++) {
			snprintf(buf + used, len - used, "[%d]", i);
			if (json_first_difference(x, y, buf, len))
				return buf;
			buf[used] = '\0';
		}
		return NULL;
	case JSON_OBJECT:
		if (count(a) != count(b))
			return buf;
		for (x = a->child; x; x = x->next) {
			snprintf(buf + used, len - used, ".%s", x->key);
			y = json_get(b, x->key);
			if (!y || json_first_difference(x, y, buf, len))
				return buf;
			buf[used] = '\0';
		}
		return NULL;
	}
	return buf;
}

int json_equal(const struct json *a, const struct json *b)
{
	char buf[256] = "";

	return !json_first_difference(a, b, buf, sizeof(buf));
}

/* --- running a scenario ---------------------------------------------------- */

int run_scenario(const char *exe, const char *driver, const char *name,
		 unsigned int seed, const char *env, int timeout,
		 struct scenario_result *res)
{
	char seedbuf[16], err[128], *line, *save, *copy;
	size_t cap = 1 << 16, len = 0;
	int fds[2];
	pid_t pid;
	ssize_t n;

	memset(res, 0, sizeof(*res));
	res->status = -1;
	if (pipe(fds))
		return -1;
	snprintf(seedbuf, sizeof(seedbuf), "%u", seed);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(fds[1], STDOUT_FILENO);
		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (env)
			putenv((char *) env);
		alarm(timeout);
		execl(exe, exe, "--driver", driver, "--scenario", name,
		      "--seed", seedbuf, (char *) NULL);
		_exit(127);
	}
	close(fds[1]);
	res->out = malloc(cap);
	while (res->out &&
	       (n = read(fds[0], res->out + len, cap - 1 - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += n;
		if (len == cap - 1)
			res->out = realloc(res->out, cap *= 2);
	}
	close(fds[0]);
	if (!res->out) {
		perror("realloc");
		exit(2);
	}
	res->out[len] = '\0';
	waitpid(pid, &res->status, 0);
	res->timed_out = WIFSIGNALED(res->status) &&
			 WTERMSIG(res->status) == SIGALRM;
	copy = strdup(res->out);
	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct json *v;

		if (line[0] != '{')
			continue;
		v = json_parse(line, err, sizeof(err));
		if (!v)
			continue;
		if (json_get(v, "monitor")) {
			json_free(res->monitor);
			res->monitor = v;
		} else if (json_get(v, "observables")) {
			json_free(res->result);
			res->result = v;
		} else {
			json_free(v);
		}
	}
	free(copy);
	return 0;
}

void scenario_result_free(struct scenario_result *res)
{
	json_free(res->result);
	json_free(res->monitor);
	free(res->out);
	memset(res, 0, sizeof(*res));
}
