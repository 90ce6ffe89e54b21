/*
 * module.c - a 2.4 module's parameters, set as insmod set them
 * (<shim/modparam.h>).
 *
 * 2.4 parsed "name=value" in insmod (modutils), from the type string
 * MODULE_PARM() put in .modinfo: the values are written straight into the
 * module's variables before init_module() runs.  Strings ("s") are copies
 * the module keeps for as long as it lives, so they are never freed.  An
 * element of a string array written in double quotes holds what it
 * holds, commas and blanks too, as insmod read it: board0="a,b",0x2a0.
 */
#include "shim.h"
#include <shim/modparam.h>

extern const struct shim_modparam *__start_shim_modparams[]
	__attribute__((weak));
extern const struct shim_modparam *__stop_shim_modparams[]
	__attribute__((weak));

const struct shim_modparam *shim_modparam_get(int index)
{
	if (index < 0 || !__start_shim_modparams ||
	    __start_shim_modparams + index >= __stop_shim_modparams)
		return NULL;
	return __start_shim_modparams[index];
}

static const struct shim_modparam *find(const char *name, size_t len)
{
	const struct shim_modparam *p;
	int i;

	for (i = 0; (p = shim_modparam_get(i)); i++)
		if (strlen(p->name) == len && !strncmp(p->name, name, len))
			return p;
	return NULL;
}

/* "[MIN[-MAX]]T": the element type, its count bounds and size */
struct ptype {
	unsigned long min, max;
	char kind;
	size_t elem;
};

static int parse_type(const struct shim_modparam *p, struct ptype *t)
{
	const char *s = p->type;
	char *end;

	t->min = t->max = 1;
	if (*s >= '0' && *s <= '9') {
		t->min = t->max = simple_strtoul(s, &end, 10);
		s = end;
		if (*s == '-') {
			t->max = simple_strtoul(s + 1, &end, 10);
			s = end;
		}
	}
	t->kind = *s;
	switch (t->kind) {
	case 'b':
		t->elem = 1;
		break;
	case 'h':
		t->elem = sizeof(short);
		break;
	case 'i':
		t->elem = sizeof(int);
		break;
	case 'l':
		t->elem = sizeof(long);
		break;
	case 's':
		t->elem = sizeof(char *);
		break;
	case 'c':
		t->elem = simple_strtoul(s + 1, &end, 10);
		if (!t->elem)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	/* what the variable can hold bounds what insmod would write */
	if (t->max > p->size / t->elem)
		t->max = p->size / t->elem;
	return t->max ? 0 : -EINVAL;
}

/*
 * A string parameter's text lives as long as the module, as insmod's copy
 * in the module's memory did: each is kept on this chain, so that one
 * set again is not taken for a leak.
 */
struct param_text {
	struct param_text *next;
	char s[];
};
static struct param_text *param_texts;

static int set_one(const struct ptype *t, char *slot, const char *v, size_t len)
{
	char buf[64], *end;
	unsigned long n;

	if (t->kind == 's') {
		struct param_text *p = shim_host_alloc(sizeof(*p) + len + 1, 1);
		char *copy;

		if (!p)
			return -ENOMEM;
		copy = p->s;
		memcpy(copy, v, len);
		copy[len] = 0;
		p->next = param_texts;
		param_texts = p;
		memcpy(slot, &copy, sizeof(copy));
		return 0;
	}
	if (t->kind == 'c') {
		if (len >= t->elem)
			return -EINVAL;
		memcpy(slot, v, len);
		slot[len] = 0;
		return 0;
	}
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v, len);
	buf[len] = 0;
	n = buf[0] == '-' ? (unsigned long) simple_strtol(buf, &end, 0) :
			    simple_strtoul(buf, &end, 0);
	if (*end)
		return -EINVAL;
	switch (t->kind) {
	case 'b': {
		unsigned char c = n;

		memcpy(slot, &c, 1);
		break;
	}
	case 'h': {
		short h = n;

		memcpy(slot, &h, sizeof(h));
		break;
	}
	case 'i': {
		int i = n;

		memcpy(slot, &i, sizeof(i));
		break;
	}
	default: {
		long l = n;

		memcpy(slot, &l, sizeof(l));
	}
	}
	return 0;
}

static int set_param(const struct shim_modparam *p, const char *value)
{
	struct ptype t;
	unsigned long count = 0;
	const char *v = value;
	int err = parse_type(p, &t);

	if (err)
		return err;
	/* a number needs digits; an empty string is a string */
	if (!*value && t.kind != 's' && t.kind != 'c')
		return -EINVAL;
	for (;;) {
		const char *comma = strchr(v, ','), *text = v;
		size_t len = comma ? (size_t) (comma - v) : strlen(v);
		/* a string in quotes, as insmod took one: commas and all */
		int quoted = *v == '"' && (t.kind == 's' || t.kind == 'c');

		if (quoted) {
			const char *close = strchr(v + 1, '"');

			if (!close || (close[1] && close[1] != ','))
				return -EINVAL;
			text = v + 1;
			len = close - text;
			comma = close[1] ? close + 1 : NULL;
		}
		/* an empty element leaves its slot alone, as insmod did */
		if (count == t.max)
			return -EINVAL;
		if (len || quoted) {
			err = set_one(&t, (char *) p->addr + count * t.elem,
				      text, len);
			if (err)
				return err;
		}
		count++;
		if (!comma)
			break;
		v = comma + 1;
	}
	return count < t.min ? -EINVAL : 0;
}

int shim_modparam_string_of(const char *s, const char **name, int *index)
{
	const struct shim_modparam *p;
	struct ptype t;
	unsigned long k;
	int i;

	for (i = 0; s && (p = shim_modparam_get(i)); i++) {
		if (parse_type(p, &t) || t.kind != 's')
			continue;
		for (k = 0; k < t.max; k++) {
			const char *held;

			memcpy(&held, (char *) p->addr + k * t.elem,
			       sizeof(held));
			if (held == s) {
				*name = p->name;
				*index = k;
				return 0;
			}
		}
	}
	return -ENOENT;
}

int shim_modparam_set(const char *name, const char *value)
{
	const struct shim_modparam *p = find(name, strlen(name));

	if (!p)
		return -ENOENT;
	return set_param(p, value);
}

int shim_modparams_apply(const char *line)
{
	const char *s = line;
	int ret = 0;

	while (s && *s) {
		const char *end, *eq;
		const struct shim_modparam *p;
		char value[256];
		int err, quote;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		/* blanks inside quotes are the value's */
		for (end = s, quote = 0;
		     *end && (quote || (*end != ' ' && *end != '\t')); end++)
			quote ^= *end == '"';
		eq = memchr(s, '=', end - s);
		if (!eq || (size_t) (end - eq - 1) >= sizeof(value)) {
			err = -EINVAL;
			printk(KERN_ERR
			       "modparams: %.*s: expected name=value\n",
			       (int) (end - s), s);
		} else {
			p = find(s, eq - s);
			memcpy(value, eq + 1, end - eq - 1);
			value[end - eq - 1] = 0;
			err = p ? set_param(p, value) : -ENOENT;
			if (err)
				printk(KERN_ERR "modparams: %.*s: %s\n",
				       (int) (end - s), s,
				       err == -ENOENT ? "no such parameter" :
							"bad value");
		}
		if (err && !ret)
			ret = err;
		s = end;
	}
	return ret;
}
