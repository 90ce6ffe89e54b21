"""modules - which modules the paths of SRC= make, under which configuration.

A directory given is read as 2.4's kbuild read it: its Makefile's
obj-$(CONFIG_X) lines name the modules it makes (X.o: X.c, or for a
list-multi module the X-objs it lists, X-objs-$(CONFIG_Y) parts among
them), under the configuration chosen.  A directory is one module: the
one named as the directory, or the only one its Makefile makes.  The
configuration is what a module build of those directories would set:
for each directory, the option that makes that module set to m; every other option the
Makefiles and the sources' #if's name stays as the sandbox's 2.4 kernel
has it (shim/include-2.4/linux/config.h), off unless it is there: an
optional part pulls in more of what the sandbox may lack.  CONFIG=
("CONFIG_A=y CONFIG_B=n") overrides it, before the Makefiles are read.
A directory with no Makefile, or one that names no such module of its
.c files, is one module of all its .c files, named after it.  .c files
given by themselves are one module per directory, named after the first.
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
BASE_CONFIG = os.path.join(os.path.dirname(HERE), "shim", "include-2.4", "linux", "config.h")
ASSIGN = re.compile(r"^([^:+?=\s]+)\s*(:=|\+=|\?=|=)\s*(.*)$")
OPTION = re.compile(r"\bCONFIG_[A-Za-z0-9_]+\b")
CONDITIONAL = re.compile(r"^\s*#\s*(?:if|ifdef|ifndef|elif)\b(.*)$", re.M)


class ConfigError(Exception):
    pass


def base_config():
    """{CONFIG_X: value} of the sandbox's 2.4 kernel."""
    out = {}
    with open(BASE_CONFIG) as f:
        for m in re.finditer(r"^#define\s+(CONFIG_\w+)\s+(\S+)", f.read(), re.M):
            name, value = m.groups()
            if name.endswith("_MODULE"):
                out[name[:-len("_MODULE")]] = "m"
            else:
                out[name] = "y" if value == "1" else value
    return out


def parse_overrides(text):
    """CONFIG="CONFIG_A=y CONFIG_B=n CONFIG_C=m CONFIG_D=8" as a dict."""
    out = {}
    for word in (text or "").split():
        name, eq, value = word.partition("=")
        if not eq or not re.match(r"^CONFIG_\w+$", name) or not value:
            raise ConfigError("CONFIG=: %s is not CONFIG_NAME=y, m, n or a value" % word)
        out[name] = value
    return out


def expand(text, vars_, config, depth=0):
    """$(VAR) and ${VAR} of @text; a function of make's (addsuffix ...)
    expands to nothing."""
    if depth > 20:
        return text

    def one(m):
        name = m.group(1) or m.group(2)
        if " " in name:
            return ""
        if name.startswith("CONFIG_"):
            v = config.get(name, "n")
            return "" if v == "n" else v
        return expand(vars_.get(name, ""), vars_, config, depth + 1)
    # innermost first: obj-$(CONFIG_X) inside $(...)
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r"\$\(([^()$]*)\)|\$\{([^{}$]*)\}", one, text)
    return text


def read_makefile(path, config):
    """The variables of a 2.4 Makefile once read under @config (its
    ifeq/ifdef blocks too); rules and includes are skipped."""
    with open(path, errors="replace") as f:
        text = f.read().replace("\\\n", " ")
    vars_, live = {}, [True]
    for line in text.splitlines():
        if line.startswith("\t"):
            continue
        line = line.split("#", 1)[0].rstrip()
        words = line.split(None, 1)
        if not words:
            continue
        kw = words[0]
        if kw in ("ifeq", "ifneq"):
            args = expand(words[1] if len(words) > 1 else "", vars_, config)
            m = re.match(r"^\(\s*([^,]*?)\s*,\s*([^)]*?)\s*\)$", args.strip())
            same = bool(m) and m.group(1) == m.group(2)
            live.append(live[-1] and (same if kw == "ifeq" else not same))
            continue
        if kw in ("ifdef", "ifndef"):
            name = (words[1] if len(words) > 1 else "").strip()
            on = bool(expand("$(%s)" % name, vars_, config))
            live.append(live[-1] and (on if kw == "ifdef" else not on))
            continue
        if kw == "else":
            if len(live) > 1:
                live[-1] = live[-2] and not live[-1]
            continue
        if kw == "endif":
            if len(live) > 1:
                live.pop()
            continue
        if not live[-1]:
            continue
        m = ASSIGN.match(line.strip())
        if not m:
            continue
        name, op, value = m.groups()
        name = expand(name, vars_, config)
        if op == ":=":
            vars_[name] = expand(value, vars_, config)
        elif op == "+=":
            vars_[name] = (vars_.get(name, "") + " " + value).strip()
        elif op == "?=":
            vars_.setdefault(name, value)
        else:
            vars_[name] = value
    return {k: expand(v, vars_, config).split() for k, v in vars_.items()}


def module_options(path):
    """[(CONFIG_X, module)] of the obj-$(CONFIG_X) lines of a Makefile."""
    with open(path, errors="replace") as f:
        text = f.read().replace("\\\n", " ")
    out = []
    for m in re.finditer(r"^obj-\$\((CONFIG_\w+)\)\s*[:+]?=\s*(.*)$", text, re.M):
        for word in m.group(2).split():
            if word.endswith(".o") and "/" not in word:
                out.append((m.group(1), word[:-2]))
    return out


def directory_modules(d, config):
    """[(module, [.c files])] that directory @d makes under @config, and
    the CONFIG_ options its Makefile names."""
    mk = os.path.join(d, "Makefile")
    if not os.path.isfile(mk):
        return None, set()
    with open(mk, errors="replace") as f:
        named = set(OPTION.findall(f.read()))
    vars_ = read_makefile(mk, config)
    multi = set(vars_.get("list-multi", []))
    mods = []
    for obj in vars_.get("obj-m", []) + vars_.get("obj-y", []):
        if not obj.endswith(".o") or "/" in obj:
            continue
        name = obj[:-2]
        parts = vars_.get(name + "-objs") if (obj in multi or name + "-objs" in vars_) else None
        units = [p[:-2] + ".c" for p in (parts or [obj]) if p.endswith(".o")]
        files = [os.path.join(d, u) for u in units if os.path.isfile(os.path.join(d, u))]
        if files and name not in [n for n, _ in mods]:
            mods.append((name, files))
    # a directory is one module: the one named as the directory, or the
    # only one its Makefile makes
    own = [m for m in mods if m[0] == os.path.basename(os.path.normpath(d))]
    mods = own or (mods if len(mods) == 1 else [])
    return mods or None, named


def choose(dirs, overrides):
    """The configuration for a family of @dirs: {CONFIG_X: value} set on
    top of the base (the modules' options m, then @overrides)."""
    chosen = {}
    for d in dirs:
        mk = os.path.join(d, "Makefile")
        if not os.path.isfile(mk):
            continue
        opts = module_options(mk)
        own = [o for o, mod in opts if mod == os.path.basename(os.path.normpath(d))]
        if not own and len({mod for _, mod in opts}) == 1:
            own = [o for o, _ in opts]
        for o in own:
            chosen[o] = "m"
    chosen.update(overrides)
    return chosen


def sources_options(files):
    """The CONFIG_ options the #if lines of @files name."""
    out = set()
    for f in files:
        with open(f, errors="replace") as fh:
            for cond in CONDITIONAL.findall(fh.read()):
                out |= set(OPTION.findall(cond))
    return {o[:-len("_MODULE")] if o.endswith("_MODULE") else o for o in out}


def header(chosen):
    """The #define and #undef lines of @chosen (linux/config.h includes
    them last: SHIM_KCONFIG), as 2.4's autoconf.h spelled them."""
    out = ["/* the options chosen for this build (make demo SRC=): demo/modules.py */"]
    for name, v in sorted(chosen.items()):
        out += ["#undef %s" % name, "#undef %s_MODULE" % name]
        if v == "y":
            out.append("#define %s 1" % name)
        elif v == "m":
            out.append("#define %s_MODULE 1" % name)
        elif v != "n":
            out.append("#define %s %s" % (name, v))
    return "\n".join(out) + "\n"


def describe(chosen, named, base):
    """The configuration as the demo prints it: what is set for the
    family, and what the Makefiles and #if's name that stays off."""
    on = " ".join("%s=%s" % kv for kv in sorted(chosen.items()))
    off = sorted(o for o in named if o not in chosen and base.get(o, "n") == "n")
    return "configuration: %s (on the sandbox's 2.4 kernel, linux/config.h)%s" % (
        on or "nothing set", "; off: " + " ".join(off) if off else "")
