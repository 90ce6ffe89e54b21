"""source - a driver of your own, as it is: make demo SRC=path/to/driver.c

The files: each SRC (a .c file, several, or a directory's .c files) and
the headers they include with quotes ("riscom8.h"), found beside them,
read where they are and never written.  The name: the first file's
(riscom8), or the directory's.  The kernel the code is written for: the
tree's top Makefile (VERSION, PATCHLEVEL) when the file lies in a tree,
else what the code uses (2.4's cli() and save_flags(), MOD_INC_USE_COUNT,
<linux/malloc.h>).  Only 2.4 code comes in this way: it gets the 2.4
headers (shim/include-2.4), the tty core of each side
(drivers/tty-core/), the generic device and the generic tty exerciser
(drivers/exercise/tty.c), which needs nothing written for it.

Steps, each failing the demo if it fails:
  1. convert, as a user would run it (default mode: the names as they
     are), the types from the 2.4 headers and the legacy tty core, into
     build/demo/src/NAME/converted/; its context lines kept; PATCH=
     applied on top; where the converted text is, said;
  2. build both sides (make src-binary), with the monitor and gcov's
     counters in the driver's own files; what gcc 2.95 took and today's
     gcc refuses (__FUNCTION__ pasted to a string...) rewritten in the
     build's copies first, line for line, and said (demo/gcc295.py);
  3. find a device for it (demo/device_search.py: saved beside the
     binaries, replayed while the driver is unchanged): the SHIM_DEVICE
     and SHIM_MODPARAMS every run of it gets, on both sides, and the
     SHIM_IOCTLS a board needs first (its firmware downloaded); the search
     runs a legacy binary of its own (make SEARCH=1: the driver's blocks
     and comparisons instrumented, no gcov), many runs a process.
A NAME.moves file beside the source is read, for this driver only.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

import gcc295
import modules
import runner
from declarations import shown
from report import StepFailed, say

TOP = runner.TOP
QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ANGLED = re.compile(r'^\s*#\s*include\s+<((?:linux|asm)/[^>]+)>', re.M)
TASK_QUEUE = re.compile(r"\b(tq_struct|queue_task|schedule_task|run_task_queue|"
                        r"DECLARE_TASK_QUEUE|INIT_TQUEUE|flush_scheduled_tasks)\b")
# where the build finds a header before the tree's (Makefile: k24_flags)
OURS = [os.path.join(TOP, d) for d in ("shim/include-2.4", "shim/include",
                                       "workqueue/include", "drivers/tty-core/legacy/include")]
# what 2.4 code uses and 2.5 code of this tree does not
LOOKS_24 = re.compile(r"\b(save_flags|restore_flags|cli|sti)\s*\(|\bMOD_INC_USE_COUNT\b|"
                      r"<linux/malloc\.h>|\bMODULE_PARM\s*\(")


class Source:
    """A driver of one's own: its files, its name, its build."""

    def __init__(self, name, files, root):
        self.name = name
        self.files = files      # absolute paths, .c first
        self.root = root        # the directory the files are named from
        self.tree = None        # the kernel tree they lie in, if any
        self.tree_headers = {}  # {"linux/x.h": path}: the tree's, with tasks
        self.included = set()   # files another of them includes (a .c too)
        self.out = None
        self.legacy = self.converted = None
        self.exe = {}
        self.env = {}
        self.moves = None
        self.context = []
        self.found = {}
        self.modules = [(name, [f for f in files if f.endswith(".c")])]
        self.config = None      # {CONFIG_X: value} chosen on top of the base
        self.config_line = None
        self.family = None      # scripts/modlink's word: the order, and why

    @property
    def module_arg(self):
        """make's SRC_MODULES= for a family of several modules, or None."""
        if len(self.modules) < 2:
            return None
        units = set(self.sources)
        return " ".join("%s=%s" % (name, ",".join(
            os.path.relpath(f, self.root) for f in files
            if os.path.relpath(f, self.root) in units)) for name, files in self.modules)

    @property
    def sources(self):
        """The units the build compiles: a .c file another includes
        (ip2main.c's "./ip2/i2lib.c") is compiled inside it, not alone."""
        return [os.path.relpath(f, self.root) for f in self.files
                if f.endswith(".c") and f not in self.included]

    def shown(self, path):
        """A file of the driver as the user named it."""
        return shown(path)


def tree_version(path):
    """(VERSION, PATCHLEVEL) of the kernel tree @path lies in, or None."""
    t = tree_of(path)
    return t[1] if t else None


def tree_of(path):
    """(root, (VERSION, PATCHLEVEL)) of the kernel tree @path lies in."""
    d = os.path.dirname(os.path.abspath(path))
    while d != os.path.dirname(d):
        mk = os.path.join(d, "Makefile")
        if os.path.exists(os.path.join(d, "include", "linux")) and os.path.exists(mk):
            with open(mk, errors="replace") as f:
                text = f.read(4096)
            v = re.search(r"^VERSION\s*=\s*(\d+)", text, re.M)
            p = re.search(r"^PATCHLEVEL\s*=\s*(\d+)", text, re.M)
            if v and p:
                return d, (int(v.group(1)), int(p.group(1)))
        d = os.path.dirname(d)
    return None


def kernel_version(files):
    """"2.4", or what else the code is written for (a string saying so)."""
    v = tree_version(files[0])
    if v:
        return "%d.%d" % v
    for f in files:
        with open(f, errors="replace") as fh:
            if LOOKS_24.search(fh.read()):
                return "2.4"
    return "2.5 (no 2.4 idiom in it, and no kernel tree around it)"


def split_modules(paths, config):
    """[(module, [.c files])] that @paths make, in the order given
    (demo/modules.py: a directory's Makefile under @config, else its .c
    files; .c files given, one module per directory), and the CONFIG_
    options the Makefiles read name; None for them if none was read."""
    mods, named, read = [], set(), False
    loose = {}
    for p in paths:
        if os.path.isdir(p):
            found, opts = modules.directory_modules(os.path.abspath(p), config)
            named |= opts
            if found:
                read = True
                mods += found
                continue
            cs = sorted(glob.glob(os.path.join(os.path.abspath(p), "*.c")))
            if not cs:
                raise StepFailed("source", "%s: a directory with no .c file" % shown(p))
            mods.append((os.path.basename(os.path.normpath(p)), cs))
        elif os.path.isfile(p) and p.endswith(".c"):
            f = os.path.abspath(p)
            if os.path.dirname(f) in loose:
                loose[os.path.dirname(f)].append(f)
            else:
                loose[os.path.dirname(f)] = [f]
                mods.append((os.path.basename(f)[:-2], loose[os.path.dirname(f)]))
        else:
            raise StepFailed("source", "%s: not a .c file or a directory of them" % shown(p))
    out, seen = [], set()
    for name, cs in mods:
        name = identifier(name)
        while name in seen:
            name += "_"
        seen.add(name)
        out.append((name, cs))
    return out, (named if read else None)


def collect(paths, mods=None):
    """The driver's files: the .c files given (a directory: its .c files,
    or the modules' of @mods) and the headers they include with quotes,
    found beside them (under the directory that holds them all)."""
    if mods is None:
        mods, _ = split_modules(paths, modules.base_config())
    cs = [c for _, files in mods for c in files]
    root = os.path.commonpath([os.path.dirname(c) for c in cs])
    if len(mods) == 1 and any(os.path.dirname(c) != root for c in cs):
        raise StepFailed("source", "the files of one driver lie in one directory (%s)" %
                         ", ".join(shown(c) for c in cs))
    files, todo, included = list(cs), list(cs), set()
    while todo:
        f = todo.pop()
        with open(f, errors="replace") as fh:
            text = fh.read()
        for inc in QUOTED.findall(text):
            h = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            if h.startswith(root + os.sep) and os.path.isfile(h):
                included.add(h)
                if h not in files:
                    files.append(h)
                    todo.append(h)
    return root, files, included


def tree_headers(files, tree):
    """The headers of the kernel @tree that @files include (and those
    include) which the sandbox does not provide, and which use the task
    queue: they are the driver's too, and convert with it (linux/x.h ->
    their path)."""
    out, todo = {}, list(files)
    while todo:
        with open(todo.pop(), errors="replace") as fh:
            text = fh.read()
        for inc in ANGLED.findall(text):
            if inc in out or any(os.path.exists(os.path.join(d, inc)) for d in OURS):
                continue
            sub, name = inc.split("/", 1)
            path = os.path.join(tree, "include", sub, name)
            if sub == "asm" and not os.path.exists(path):
                path = os.path.join(tree, "include", "asm-i386", name)
            if not os.path.isfile(path):
                continue
            with open(path, errors="replace") as fh:
                body = fh.read()
            if TASK_QUEUE.search(body):
                out[inc] = path
                todo.append(path)
    return out


def identifier(name):
    name = re.sub(r"\W", "_", name)
    return name if re.match(r"[A-Za-z_]", name) else "drv_" + name


def prepare(paths, config=None):
    """A Source for the paths of SRC=, or a failed step saying why;
    @config, CONFIG='CONFIG_A=y CONFIG_B=n', over what is chosen."""
    try:
        overrides = modules.parse_overrides(config)
    except modules.ConfigError as e:
        raise StepFailed("source", str(e))
    base_config = modules.base_config()
    chosen = modules.choose([p for p in paths if os.path.isdir(p)], overrides)
    mods, named = split_modules(paths, dict(base_config, **chosen))
    root, files, included = collect(paths, mods)
    first = paths[0]
    base = os.path.basename(os.path.normpath(first))
    name = identifier(base[:-2] if base.endswith(".c") else base)
    src = Source(name, files, root)
    src.included = included
    src.modules = mods
    if named is not None or overrides:
        # what a module build of the tree would set: said, and built with
        named = (named or set()) | modules.sources_options(
            [f for f in files if f.endswith(".c")] + [f for f in files if f.endswith(".h")])
        src.config = chosen
        src.config_line = modules.describe(chosen, named, base_config)
    version = kernel_version([f for f in files if f.endswith(".c")])
    if version != "2.4":
        raise StepFailed("source", "%s is written for %s: SRC= takes 2.4 code (the 2.4 "
                         "headers, the tty core, the generic exerciser); a driver in this "
                         "tree's 2.5 layout brings its scenarios with EXTRA= (docs/extra.md)" % (
                             shown(first), version))
    moves = os.path.join(root, name + ".moves")
    src.moves = moves if os.path.exists(moves) else None
    t = tree_of(files[0])
    if t:
        src.tree = t[0]
        src.tree_headers = tree_headers(files, src.tree)
    return src


def convert(src, build, patches):
    """Step 1: the driver's files through convert, into
    build/demo/src/NAME/converted (a copy of them as they are beside it,
    in legacy/); then the patches.  Returns convert's output lines."""
    src.out = os.path.join(build, "src", src.name)
    src.legacy = os.path.join(src.out, "legacy")
    src.converted = os.path.join(src.out, "converted")
    for d in (src.legacy, src.converted):
        shutil.rmtree(d, ignore_errors=True)
    # the build reads a copy: the user's tree is never written, nor
    # half-read while it changes
    for f, rel in [(f, os.path.relpath(f, src.root)) for f in src.files] + \
            [(p, inc) for inc, p in sorted(src.tree_headers.items())]:
        dst = os.path.join(src.legacy, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(f, dst)
    lines = converted_from(src) if getattr(src, "converted_tree", None) else None
    if lines is None:
        lines = convert_files(src)
    src.context = [x for x in lines if ": context: " in x]
    rewrite_copies(src)
    for p in patches:
        from convert import apply_patch
        say("patch: %s" % shown(p))
        apply_patch(p, src.converted)
    diff = os.path.join(src.out, "conversion.diff")
    with open(diff, "w") as f:
        subprocess.run(["diff", "-ruN", "legacy", "converted"], cwd=src.out, stdout=f)
    say("converted text: %s (the diff: %s)" % (shown(src.converted), shown(diff)))
    return lines


def rewrite_copies(src):
    """What gcc 2.95 took and today's gcc does not (demo/gcc295.py),
    rewritten in the build's copies of the driver's files, both sides
    alike, line for line; one line said for each file rewritten."""
    places = [(f, os.path.relpath(f, src.root)) for f in src.files]
    places += [(p, inc) for inc, p in sorted(src.tree_headers.items())]
    for f, rel in places:
        copy = os.path.join(src.legacy, rel)
        counts = gcc295.rewrite_file(copy)
        gcc295.rewrite_file(os.path.join(src.converted, rel))
        if counts:
            say("gcc 2.95's C in %s, rewritten in the build's copy (%s, and converted/ alike): "
                "%s" % (shown(f), shown(copy), gcc295.describe(counts)))


def convert_base(src):
    """Where convert runs for @src, and what the paths it prints are
    relative to: the kernel tree's top, else the checkout's, else the
    driver's own directory."""
    here = src.tree or TOP
    if any(not f.startswith(here + os.sep) for f in src.files):
        here = src.root
    return here


def places(src):
    """Each file of @src with where the build finds it under the driver's
    directory: its own files as they sit there, the tree's headers it uses
    under linux/ or asm/."""
    return [(f, os.path.relpath(f, src.root)) for f in src.files] + \
        [(p, inc) for inc, p in sorted(src.tree_headers.items())]


def converted_from(src):
    """The driver's files as a conversion made them before (make demo
    TREE=: the tree converted once, each driver's demo taking its files
    from there; scripts/mutate: once for all the mistakes made on one
    driver), under convert_base()'s paths, and that conversion's lines
    about them; None if a .c file of the driver is not there."""
    mine = set()
    base = convert_base(src)
    if not all(os.path.exists(os.path.join(src.converted_tree, os.path.relpath(f, base)))
               for f in src.files if f.endswith(".c")):
        # not where the conversion put it (a tree too small to be told
        # for one): the driver's files through convert, by themselves
        units = sorted(shown(f) for f in src.files if f.endswith(".c"))
        say("converted with the tree (%s): %s not there, converted by itself" % (
            shown(src.converted_tree), ", ".join(units)))
        return None
    for f, rel in places(src):
        where = os.path.relpath(f, base)
        mine.add(where)
        done = os.path.join(src.converted_tree, where)
        dst = os.path.join(src.converted, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(done if os.path.exists(done) else f, dst)
    lines = []
    with open(src.convert_log, errors="replace") as fh:
        for line in fh:
            if line.split(":", 1)[0] in mine:
                lines.append(line.rstrip("\n"))
    say("converted with the tree (%s): %d of its lines about %s" % (
        shown(src.converted_tree), len(lines), ", ".join(sorted(mine))))
    for line in lines:
        say(line)
    return lines


def convert_files(src):
    """The driver's files through convert, by themselves."""
    flat = os.path.join(src.out, "converted.flat")
    shutil.rmtree(flat, ignore_errors=True)
    # from the kernel tree's top (or the checkout's), so that what convert
    # prints names drivers/char/x.c:N, never a path of this machine
    here = convert_base(src)
    cmd = [os.path.join(TOP, "semantic-patches", "convert"), "-q", "-o", flat,
           "-I", os.path.join(TOP, "drivers", "tty-core", "legacy", "include"),
           "-I", os.path.join(TOP, "shim", "include-2.4")] + \
        [os.path.relpath(f, here) if f.startswith(here + os.sep) else f
         for f in src.files + sorted(src.tree_headers.values())]
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=here)
    lines = r.stdout.splitlines()
    for line in lines:
        say(line)
    if r.returncode not in (0, 1) or not os.path.isdir(flat):
        sys.stdout.write(r.stderr)
        raise StepFailed("conversion", "convert %s exited %d (above)" % (
            " ".join(shown(f) for f in src.files), r.returncode))
    # convert -o writes each file it was given by its name alone: put each
    # where the build looks, the tree's headers under linux/ or asm/ in
    # the driver's directory (first on its include path); what convert
    # did not write, as it was
    for f, rel in places(src):
        dst = os.path.join(src.converted, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        done = os.path.join(flat, os.path.basename(f))
        shutil.copy(done if os.path.exists(done) else f, dst)
    shutil.rmtree(flat, ignore_errors=True)
    return lines


ERRORS_SHOWN = 3
UNDEFINED = re.compile(r"undefined reference to [`'\u2018]([^'\u2019`]+)['\u2019]")
CALLER = re.compile(r"in function [`'\u2018]([^'\u2019`]+)['\u2019]")
DIAGNOSTIC = re.compile(r"(^|\s)(fatal )?error: ")


def family_of(binary):
    """What scripts/modlink said of a family's binary: the load order,
    who uses whose exports, what each leaves to the link; or None."""
    import json
    path = os.path.join(os.path.dirname(binary), ".k24-" + os.path.basename(binary),
                        "family.json")
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def family_order(family):
    """The family's load order said, with why."""
    uses = family["uses"]
    why = ["%s uses %s's %s" % (m, d, ", ".join(syms[:3]) + (", ..." if len(syms) > 3 else ""))
           for m in family["order"] for d, syms in sorted(uses[m].items())]
    return "modules loaded in order %s, unloaded in reverse%s" % (
        ", ".join(family["order"]), " (%s)" % "; ".join(why) if why else "")


def build_failure(err, log, family=None):
    """What a build that failed says first (the whole of it is in @log):
    the compiler's first errors, each with its source line (the first is
    the cause; many after it only follow from it), and every symbol the
    link found nowhere: a kernel API the sandbox's 2.4 kernel does not
    have (a network driver's netif_rx()), or a function of a file of the
    driver's not given.  Make's output as it was when it holds neither."""
    err = err.replace(runner.TOP + os.sep, "")
    lines = err.splitlines()
    # collect2's "ld returned 1 exit status" says only that the link failed
    errors = [i for i, x in enumerate(lines) if DIAGNOSTIC.search(x) and
              not x.startswith("collect2:")]
    # each symbol, and the functions of the driver that call it
    callers = {}
    for i, x in enumerate(lines):
        for sym in UNDEFINED.findall(x):
            m = CALLER.search(x) or (CALLER.search(lines[i - 1]) if i else None)
            callers.setdefault(sym, set()).update([m.group(1)] if m else [])
    # a family: the module that uses it, too
    users = {}
    for mod, syms in ((family or {}).get("left") or {}).items():
        for sym in syms:
            users.setdefault(sym, []).append(mod)
    undefined = ["%s (from %s%s)" % (sym, ", ".join(sorted(fns)), "".join(
        ", in module %s" % m for m in users.get(sym, [])))
                 if fns else sym for sym, fns in sorted(callers.items())]
    if not errors and not undefined:
        return err[-4000:].rstrip() + "\n(the whole output: %s)" % shown(log)
    out = []
    for i in errors[:ERRORS_SHOWN]:
        # the function or the include chain it is in, then the line and its caret
        if i and lines[i - 1].rstrip().endswith(":") and "error" not in lines[i - 1]:
            out.append(lines[i - 1])
        out.append(lines[i])
        out += [x for x in lines[i + 1:i + 3] if x.lstrip()[:1].isdigit() or "|" in x][:2]
    if len(errors) > ERRORS_SHOWN:
        out.append("... %d errors in all: the first is the one to fix" % len(errors))
    if undefined:
        more = " and %d more" % (len(undefined) - 12) if len(undefined) > 12 else ""
        out.append("undefined at link, in neither the sandbox's 2.4 kernel nor the files "
                   "given: %s%s" % (", ".join(undefined[:12]), more))
    out.append("(the whole output: %s)" % shown(log))
    return "\n".join(out)


def build(src, monitor, coverage=True, san=None, build_dir=None, out=None,
          sides=("legacy", "converted")):
    """Step 2: both sides' binaries (make src-binary); {side: path}.
    The side "search" is the device search's legacy binary, "afl" the
    same as AFL++ runs it (demo/afl_search.py)."""
    exe = {}
    for side, d in (("legacy", src.legacy), ("converted", src.converted),
                    ("search", src.legacy), ("afl", src.legacy)):
        if side not in sides:
            continue
        path = os.path.join(out or os.path.join(src.out, "bin"), side, src.name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        search = side in ("search", "afl")
        kconfig = None
        if src.config is not None:
            kconfig = os.path.join(src.out, "kconfig.h")
            text = modules.header(src.config)
            if not os.path.exists(kconfig) or open(kconfig).read() != text:
                with open(kconfig, "w") as f:
                    f.write(text)
        err = runner.make("src-binary", BINARY=path, SIDE="legacy" if search else side,
                          SRCDIR=d, SOURCES=" ".join(src.sources), NAME=src.name,
                          SRC_MODULES=src.module_arg, KCONFIG=kconfig,
                          KTREE=src.tree, EXTRA_OBJS=None if search else monitor,
                          COVERAGE=1 if coverage and not search else None,
                          SEARCH=1 if search else None, AFL=1 if side == "afl" else None,
                          SAN=san, BUILD=build_dir)
        if err:
            log = os.path.join(os.path.dirname(path), "build.log")
            with open(log, "w") as f:
                f.write(err)
            say(build_failure(err, log, family_of(path)))
            raise StepFailed("build", "%s (%s side) does not build (above)" % (src.name, side))
        exe[side] = path
        if src.module_arg and side == "legacy":
            src.family = family_of(path)
    return exe


def find_device(src, exe, args):
    """Step 3: the device and module parameters every run of the driver
    gets (demo/device_search.py), found or replayed; the environment."""
    import device_search
    # what a board's probe takes is found once, then replayed while the
    # driver is unchanged: QUICK shortens everything else, not this; the
    # search is its runs, the same on every machine, and the seconds
    # only a bound against a host too slow for them
    budget = args.search_budget if args.search_budget is not None else 900
    searcher = build(src, None, coverage=False, sides=("search",))["search"]
    out = os.path.join(src.out, "device")
    res = device_search.search(searcher, src.name, out,
                               budget=budget, quick=False, jobs=runner.cpus(),
                               say=say, runs=getattr(args, "search_runs", None),
                               shown=exe["legacy"])
    # where the hand search ends below full reach, AFL++ goes on from its
    # line (bench/engines: it reaches further on some drivers, never
    # faster), the same every time; a line saved since is replayed
    import afl_search
    if not res["found"]["replayed"] and afl_search.short(res):
        why = afl_search.available()
        if getattr(args, "afl", "auto") == "no":
            why = "--afl no (AFL=0) was asked"
        if not why and not res.get("sched"):
            # free runs wait for their timers in real time and differ
            # from run to run: AFL++ would spend the budget asleep
            why = "the driver's runs are free, not under a systematic schedule"
        if why:
            say("device search: AFL++ would go on from here, but %s" % why)
        else:
            fuzzer = build(src, None, coverage=False, sides=("afl",))["afl"]
            res = afl_search.go_on(searcher, fuzzer, src.name, res, out, say=say,
                                   shown=exe["legacy"], seconds=budget)
    src.found = res["found"]
    env = {"SHIM_DEVICE": res["device"], "SHIM_MODPARAMS": res["modparams"]}
    # the ioctls a board needs first (world/user.h), on both sides alike
    if res.get("ioctls"):
        env["SHIM_IOCTLS"] = res["ioctls"]
    return env
