"""coverage - what the comparison ran, and what it did not.

A comparison vouches only for code it ran.  Both sides' scenario binaries
are built with gcc's coverage counters (make COVERAGE=1: the driver's own
sources only, at -O0 so that each line's count is its own), every run of
the Run step writes its counters into a directory of its own (GCOV_PREFIX)
so that runs in parallel do not merge, and gcov reads them all back in one
process.  From the sources, mechanically (a token scan, for a user's
driver as for ours):

  - every deferred-work call site: a call of a function or macro the
    deferred-work API headers declare (linux/tqueue.h, linux/workqueue.h,
    the bottom halves of linux/interrupt.h), or a use of a field of one of
    their structures (tq_struct, work_struct) through an object declared
    with that type (floppy_tq.routine = ..., up->tqueue.sync);
  - every function on a teardown path: a module's __exit or module_exit()
    function, a function installed as a teardown operation (.close,
    .release, ...), an external function named for a teardown (exit,
    release, close, shutdown, destroy, umount, free, hangup, ...), and
    every function of the driver those call, directly or through an
    operation's member (tty->driver.close(...) -> serial8250_close);

and for each, how many runs reached it on each side, the two sides' lines
paired through a diff of the file.  The module's init too (its
module_init() function, every __init function, and what they call that
no teardown does), as the lines each side ran of it: its error paths
run only where a request was refused (the exerciser's init_unwind), and
are said, not judged.  A site or teardown function some side
never reached is "not checked".  A line the conversion, a design patch or
--patch changed that no run executed on the converted side is a failure:
the comparison cannot vouch for it.
"""
import collections
import difflib
import json
import os
import re
import subprocess

import runner
from report import say

API_DIRS = [os.path.join(runner.TOP, "workqueue", "include"),
            os.path.join(runner.TOP, "shim", "include")]
# the deferred-work headers: everything they declare; interrupt.h: its bottom halves
API_HEADERS = (("linux/tqueue.h", None), ("linux/workqueue.h", None),
               ("linux/interrupt.h", re.compile(r"_bh$")))
TEARDOWN_WORDS = {"exit", "release", "close", "shutdown", "cleanup", "destroy", "remove",
                  "umount", "unmount", "teardown", "free", "fini", "hangup"}

Func = collections.namedtuple("Func", "file name start end")


# --- the sources ------------------------------------------------------------

def strip(text):
    """C text with comments, strings and character constants blanked and
    preprocessor lines dropped, line numbers kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines = "".join(out).split("\n")
    # a directive (and its continuation lines) is no code of the file's own
    cont = False
    for k, line in enumerate(lines):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            lines[k] = ""
    return "\n".join(lines)


TOKEN = re.compile(r"[A-Za-z_]\w*|->|\S")


def tokens(text):
    """[(token, line)] of stripped C text."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        out += [(t, n) for t in TOKEN.findall(line)]
    return out


class Api:
    """What the deferred-work headers declare: functions and macros, the
    fields of their structures, and the type names of those structures."""

    def __init__(self, dirs=API_DIRS, headers=API_HEADERS):
        self.calls, self.fields, self.types = set(), set(), set()
        for name, only in headers:
            path = next((os.path.join(d, name) for d in dirs
                         if os.path.exists(os.path.join(d, name))), None)
            if not path:
                raise FileNotFoundError("no %s under %s" % (name, " ".join(dirs)))
            with open(path, errors="replace") as f:
                raw = f.read()
            names = set(re.findall(r"^\s*#\s*define\s+(\w+)\(", raw, re.M))
            text = strip(raw)
            for decl in text.split(";"):
                m = re.search(r"\bextern\b[^;{}]*?\b(\w+)\s*\(", decl)
                if m:
                    names.add(m.group(1))
            self.calls |= {x for x in names if not only or only.search(x)}
            if only:
                continue
            for tag, body in re.findall(r"\bstruct\s+(\w+)\s*\{([^}]*)\}", text):
                self.types.add("struct " + tag)
                for member in body.split(";"):
                    # "type name", "type name[n]" or "type (*name)(args)"
                    m = re.search(r"(\w+)\s*\)\s*\(|(\w+)\s*(?:\[[^]]*\])?\s*$",
                                  member.strip())
                    if m:
                        self.fields.add(m.group(1) or m.group(2))
            for tag, alias in re.findall(r"\btypedef\s+struct\s+(\w+)\s+(\w+)\s*;", text):
                if "struct " + tag in self.types:
                    self.types.add(alias)

    def objects(self, text):
        """Names declared with a deferred-work structure's type (variables
        and members), and the works DECLARE_WORK makes."""
        names = set()
        for t in self.types:
            pat = r"\b%s\s+\**\s*(\w+)\s*[;,=\[)]" % re.escape(t).replace(r"\ ", r"\s+")
            names |= set(re.findall(pat, text))
        for m in self.calls:
            if m.startswith("DECLARE_"):
                names |= set(re.findall(r"\b%s\s*\(\s*(\w+)" % m, text))
        return names


def scan_sites(text, api, objects):
    """The deferred-work call sites of one stripped file, one per line: the
    API's calls, its structures' fields used, and its structures declared
    with an initialiser (struct tq_struct tqs = { ... })."""
    toks = tokens(text)
    per_line = collections.OrderedDict()
    for t in api.types:
        pat = r"\b%s\s+\**\s*(\w+)\s*=" % re.escape(t).replace(r"\ ", r"\s+")
        for m in re.finditer(pat, text):
            line = text.count("\n", 0, m.start(1)) + 1
            per_line.setdefault(line, []).append("%s = {...}" % m.group(1))
    for k, (t, line) in enumerate(toks):
        nxt = toks[k + 1][0] if k + 1 < len(toks) else ""
        if t in api.calls and nxt == "(":
            what = t
        elif t in objects and nxt in (".", "->") and k + 2 < len(toks) and \
                toks[k + 2][0] in api.fields:
            field = toks[k + 2][0]
            call = k + 3 < len(toks) and toks[k + 3][0] == "("
            what = "%s%s%s%s" % (t, nxt, field, "()" if call else "")
        else:
            continue
        per_line.setdefault(line, [])
        if what not in per_line[line]:
            per_line[line].append(what)
    return sorted((line, ", ".join(w)) for line, w in per_line.items())


def is_static(text, func):
    """Whether @func's definition says static (the lines up to its name)."""
    lines = text.split("\n")[max(0, func.start - 3):func.start]
    head = re.split(r"[;}]", " ".join(lines))[-1]
    m = re.search(r"\b%s\s*\(" % re.escape(func.name), head)
    return bool(m and re.search(r"\bstatic\b", head[:m.start()]))


def teardown_word(name):
    """Whether @name says it tears something down: one of its words is, or
    ends with, a teardown word (tty_vhangup, journal_release)."""
    return any(w.endswith(t) for w in name.split("_") for t in TEARDOWN_WORDS)


def teardown_functions(texts, funcs, live):
    """The functions on a teardown path, and why each is: {name: reason}.

    @texts: {file: stripped text}; @funcs: {name: Func} of the driver;
    @live: {file: lines with code}, so that a call the preprocessor left
    out (under #ifdef DEBUG) is no edge."""
    entry = {}
    members = collections.defaultdict(set)  # member name -> functions put there
    for text in texts.values():
        for name in re.findall(r"\b__exit\b[^;{}()]*?\b(\w+)\s*\(", text):
            entry.setdefault(name, "module exit (__exit)")
        for name in re.findall(r"\bmodule_exit\s*\(\s*(\w+)\s*\)", text):
            entry.setdefault(name, "module_exit()")
        for m in re.finditer(r"(?:\.|->)\s*(\w+)\s*=\s*(?:\([^()]*\)\s*)*&?\s*(\w+)\s*[,;}]|"
                             r"[{,]\s*(\w+)\s*:\s*&?\s*(\w+)\s*[,}]", text):
            member, fn = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            if fn in funcs:
                members[member].add(fn)
                if teardown_word(member):
                    entry.setdefault(fn, "the .%s operation" % member)
    for f in funcs.values():
        if teardown_word(f.name) and not is_static(texts[f.file], f):
            entry.setdefault(f.name, "named for a teardown")
    # what they call: functions of the driver, directly or through a member
    calls = {}
    for f in funcs.values():
        lines = texts[f.file].split("\n")
        body = "\n".join(line if n in live.get(f.file, ()) else ""
                         for n, line in enumerate(lines[:f.end], 1))
        toks = [t for t, n in tokens(body) if n >= f.start]
        out = set()
        for k, t in enumerate(toks[:-1]):
            after = toks[k + 1]
            if after == ")" and k + 2 < len(toks) and toks[k + 2] == "(":
                after = "("
            if after != "(":
                continue
            if t in funcs and t != f.name:
                out.add(t)
            elif k and toks[k - 1] in (".", "->"):
                out |= members.get(t, set())
        calls[f.name] = out
    found = dict(entry)
    todo = list(entry)
    while todo:
        name = todo.pop()
        for callee in sorted(calls.get(name, ())):
            if callee not in found:
                found[callee] = "called by %s" % name
                todo.append(callee)
    return {n: r for n, r in found.items() if n in funcs}


def init_functions(texts, funcs, live, teardown):
    """The functions of the module's init, and why each is: {name: reason}.
    Its module_init() function and every __init one, and the driver's
    functions they call, directly or not, that are on no teardown path
    (@teardown: those are counted there)."""
    entry = {}
    for text in texts.values():
        for name in re.findall(r"\bmodule_init\s*\(\s*(\w+)\s*\)", text):
            entry.setdefault(name, "module_init()")
        for name in re.findall(r"\b__init\b[^;{}()]*?\b(\w+)\s*\(", text):
            entry.setdefault(name, "__init")
    found = {n: r for n, r in entry.items() if n in funcs}
    todo = list(found)
    while todo:
        name = todo.pop()
        f = funcs[name]
        lines = texts[f.file].split("\n")
        body = "\n".join(line if n in live.get(f.file, ()) else ""
                         for n, line in enumerate(lines[:f.end], 1))
        toks = [t for t, n in tokens(body) if n >= f.start]
        for k, t in enumerate(toks[:-1]):
            if toks[k + 1] == "(" and t in funcs and t not in found and t not in teardown:
                found[t] = "called by %s" % name
                todo.append(t)
    return found


def function_at(defs, line):
    """The name of the function of @defs ({name: Func}) holding @line."""
    return next((fn.name for fn in defs.values() if fn.start <= line <= fn.end), None)


def line_map(old, new):
    """Lines of @old mapped to lines of @new through a diff: ({old line:
    new line}, the lines of @new the diff adds or changes, {old line in a
    changed block: (first, last + 1) of the block's new lines})."""
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    out, changed, blocks = {}, set(), {}
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            for k in range(i2 - i1):
                out[i1 + k + 1] = j1 + k + 1
        elif op == "replace":
            for k in range(i2 - i1):
                out[i1 + k + 1] = min(j1 + k, j2 - 1) + 1
                blocks[i1 + k + 1] = (j1 + 1, j2 + 1)
        if op in ("replace", "insert"):
            changed |= set(range(j1 + 1, j2 + 1))
    return out, changed, blocks


# --- the runs -----------------------------------------------------------------

def files_under(d, ext):
    """The files of @d and its subdirectories ending @ext, relative to
    it, sorted (a family's objects lie in a directory per module's)."""
    out = []
    for here, _, names in os.walk(d):
        out += [os.path.relpath(os.path.join(here, n), d) for n in names if n.endswith(ext)]
    return sorted(out)


def objdir(exe):
    """Where the driver objects of a scenario binary are (the Makefile's
    .drv/ beside it), with their .gcno files."""
    return os.path.join(os.path.dirname(os.path.abspath(exe)), ".drv")


def run_env(exe, rundir):
    """Where one run of @exe writes its counters: @rundir, flat."""
    return {"GCOV_PREFIX": rundir,
            "GCOV_PREFIX_STRIP": str(len([p for p in objdir(exe).split(os.sep) if p]))}


def stale_objects(out):
    """Driver objects under @out built without counters (by an older
    tree, or by hand): the demo removes them so that make builds them
    again with COVERAGE=1."""
    d = os.path.join(out, ".drv")
    if not os.path.isdir(d):
        return []
    return [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".o") and
            not os.path.exists(os.path.join(d, f[:-2] + ".gcno"))]


def gcov(jobs):
    """Run gcov once over many counter files: @jobs [(key, gcda path, gcno
    path)] -> {key: gcov's JSON documents}.  A missing .gcda reads as
    nothing executed: the structure alone (functions, executable lines)."""
    out = collections.defaultdict(list)
    args, key_of = [], {}
    for key, gcda, gcno in jobs:
        link = gcda[:-len(".gcda")] + ".gcno"
        if not os.path.exists(link):
            os.makedirs(os.path.dirname(link), exist_ok=True)
            os.symlink(gcno, link)
        args.append(gcda)
        key_of[os.path.abspath(gcda)] = key
    for i in range(0, len(args), 500):
        r = subprocess.run(["gcov", "-j", "-t"] + args[i:i + 500], capture_output=True,
                           text=True, cwd="/")
        for line in r.stdout.splitlines():
            if not line.startswith("{"):
                continue
            doc = json.loads(line)
            out[key_of[os.path.abspath(doc["data_file"])]].append(doc)
    return out


class Tree:
    """One side's sources of a driver: its root, and the files to look at."""

    def __init__(self, root, files):
        self.root = os.path.abspath(root)
        self.files = files


def driver_files(root, sources):
    """A driver's sources and the headers of root/include they include,
    directly or through one another."""
    files, seen = list(sources), set(sources)
    for src in files:
        try:
            with open(os.path.join(root, src), errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        for inc in re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', text, re.M):
            rel = os.path.join("include", inc)
            if rel not in seen and os.path.exists(os.path.join(root, rel)):
                seen.add(rel)
                files.append(rel)
    return files


class Coverage:
    """Counters of the runs of one demo, and what they say per driver."""

    def __init__(self, directory):
        self.dir = os.path.abspath(directory)
        self.runs = []  # (side, exe, rundir)
        self.api = Api()

    def prepare(self):
        import shutil
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)

    def env(self, side, exe, tag):
        """The environment of one counted run (@tag names it)."""
        rundir = os.path.join(self.dir, side, "%d-%s" % (len(self.runs), tag))
        self.runs.append((side, exe, rundir))
        return run_env(exe, rundir)

    def scratch(self):
        """Where the runs that are not counted (exploration, the race
        check, the headline) leave their counters: nothing reads them."""
        return os.path.join(self.dir, "scratch")

    def read(self, trees):
        """Per side, file and line, the runs that executed it.

        @trees: {driver: {side: Tree}}.  Returns None; fills self.lines
        {(side, abs file): {line: runs}}, self.funcs {(side, abs file):
        {name: runs}}, self.exec {(side, abs file): set of executable
        lines}, self.defs {(side, abs file): {name: Func}} and
        self.nruns {(side, abs file): runs of a binary holding it}."""
        wanted = {}
        for drv, sides in trees.items():
            for side, tree in sides.items():
                for f in tree.files:
                    wanted[(side, os.path.join(tree.root, f))] = drv
        jobs = []
        objs = set()
        for n, (side, exe, rundir) in enumerate(self.runs):
            d = objdir(exe)
            objs |= {(side, os.path.join(d, g)) for g in files_under(d, ".gcno")}
            # a run that died wrote nothing: it reached nothing
            for g in files_under(rundir, ".gcda") if os.path.isdir(rundir) else ():
                if g.endswith(".gcda"):
                    jobs.append(((n, side), os.path.join(rundir, g),
                                 os.path.join(d, g[:-len(".gcda")] + ".gcno")))
        # the structure: each object once, with no counters
        for i, (side, gcno) in enumerate(sorted(objs)):
            jobs.append((("structure", side), os.path.join(
                self.dir, "structure", str(i), os.path.basename(gcno)[:-5] + ".gcda"), gcno))
        docs = gcov(jobs)
        self.lines = collections.defaultdict(collections.Counter)
        self.funcs = collections.defaultdict(collections.Counter)
        self.exec = collections.defaultdict(set)
        self.defs = collections.defaultdict(dict)
        self.nruns = collections.Counter()
        for key, ds in docs.items():
            side = key[1]
            hits = collections.defaultdict(set)
            fhits = collections.defaultdict(set)
            for doc in ds:
                for f in doc["files"]:
                    k = (side, os.path.abspath(f["file"]))
                    if k not in wanted:
                        continue
                    if key[0] == "structure":
                        self.exec[k] |= {x["line_number"] for x in f["lines"]}
                        for fn in f["functions"]:
                            self.defs[k].setdefault(fn["name"], Func(
                                k[1], fn["name"], fn["start_line"], fn["end_line"]))
                        continue
                    # a header's inline function is in several objects: a run counts once
                    hits[k] |= {x["line_number"] for x in f["lines"] if x["count"]}
                    fhits[k] |= {fn["name"] for fn in f["functions"] if fn["execution_count"]}
            for k in hits:
                self.nruns[k] += 1
                self.lines[k].update(hits[k])
                self.funcs[k].update(fhits[k])

    def analyse(self, trees):
        """Per driver: its call sites and teardown functions, each side's
        run counts, what is not checked; and every changed line no
        converted run executed.  @trees: {driver: {side: Tree}}."""
        out = collections.OrderedDict()
        unrun = []
        for drv, sides in trees.items():
            lo, co = sides["legacy"], sides["converted"]
            text = {}
            for side, tree in sides.items():
                for f in tree.files:
                    try:
                        with open(os.path.join(tree.root, f), errors="replace") as fh:
                            text[(side, f)] = fh.read()
                    except OSError:
                        pass
            stripped = {k: strip(v) for k, v in text.items()}
            # the work objects a side declares, in any of its files
            objects = {side: set().union(*[self.api.objects(t) for k, t in stripped.items()
                                           if k[0] == side]) for side in sides}
            sites = []
            for f in sorted(set(lo.files) | set(co.files), key=(lo.files + co.files).index):
                rows, changed = self._pair_sites(f, lo, co, text, stripped, objects)
                sites += rows
                k = ("converted", os.path.join(co.root, f))
                unrun += [{"driver": drv, "file": f, "line": n,
                           "text": text[("converted", f)].split("\n")[n - 1].strip()}
                          for n in changed
                          if n in self.exec.get(k, ()) and not self.lines[k][n]]
            teardown = self._teardown(lo, co, stripped)
            runs = {side: max([self.nruns[(side, os.path.join(t.root, f))] for f in t.files]
                              or [0]) for side, t in sides.items()}
            missed = [r for r in sites + teardown if r["not_checked"]]
            out[drv] = {"sites": sites, "teardown": teardown, "runs": runs,
                        "not_checked": len(missed),
                        "init": self._init(sides, stripped, {r["function"] for r in teardown})}
        return out, unrun

    def _count(self, side, tree, f, line):
        k = (side, os.path.join(tree.root, f))
        if line not in self.exec.get(k, ()):
            return None
        return self.lines[k][line]

    def _pair_sites(self, f, lo, co, text, stripped, objects):
        """The call sites of file @f, each side's paired through a diff,
        with their run counts; and the lines the conversion changed."""
        found = {side: scan_sites(stripped[(side, f)], self.api, objects[side])
                 if (side, f) in stripped else [] for side in ("legacy", "converted")}
        old = text[("legacy", f)].split("\n") if ("legacy", f) in text else []
        new = text[("converted", f)].split("\n") if ("converted", f) in text else []
        lmap, changed, blocks = line_map(old, new)
        rows = collections.OrderedDict()
        conv_lines = {line for line, _ in found["converted"]}
        for line, what in found["converted"]:
            rows[("c", line)] = {"legacy": [], "converted": (line, what)}
        for line, what in found["legacy"]:
            target = lmap.get(line)
            if target not in conv_lines:
                # in a changed block, or else in the same function, the
                # converted site whose line reads most like it
                fn = function_at(self.defs.get(("legacy", os.path.join(lo.root, f)), {}), line)
                near = [n for n in range(*blocks[line]) if n in conv_lines] \
                    if line in blocks else []
                near = near or [n for n in conv_lines if fn and function_at(
                    self.defs.get(("converted", os.path.join(co.root, f)), {}), n) == fn]
                target = max(near, key=lambda n: (difflib.SequenceMatcher(
                    None, old[line - 1].strip(), new[n - 1].strip()).ratio(),
                    -abs(n - lmap.get(line, n))), default=None)
            if target in conv_lines:
                rows[("c", target)]["legacy"].append((line, what))
            else:
                rows[("l", line)] = {"legacy": [(line, what)], "converted": None}
        out = []
        for key, r in sorted(rows.items(), key=lambda kv: kv[1]["converted"][0]
                             if kv[1]["converted"] else lmap.get(kv[1]["legacy"][0][0], 0)):
            lcounts = [self._count("legacy", lo, f, n) for n, _ in r["legacy"]]
            lcount = max([c for c in lcounts if c is not None], default=None)
            ccount = self._count("converted", co, f, r["converted"][0]) \
                if r["converted"] else None
            code = lcount is not None or ccount is not None
            why = []
            for side, tree, lines, count in (
                    ("legacy", lo, [n for n, _ in r["legacy"]], lcount),
                    ("converted", co, [r["converted"][0]] if r["converted"] else [], ccount)):
                if count == 0:
                    why.append(self._unreached(side, tree, f, lines[0]))
            out.append({
                "kind": "call site", "file": f,
                "legacy": ", ".join("%s:%d %s" % (f, n, w) for n, w in r["legacy"]) or "-",
                "converted": "%s:%d %s" % (f, r["converted"][0], r["converted"][1])
                if r["converted"] else "-",
                "legacy_runs": lcount, "converted_runs": ccount, "code": code,
                "not_checked": code and (lcount == 0 or ccount == 0),
                "unreached": why})
        return out, sorted(changed)

    def _callers(self, side, funcs, why):
        """How often the caller a teardown reason names ("called by
        X") ran on @side, said after "never called"."""
        m = re.match(r"called by (\w+)", why)
        fn = funcs.get(m.group(1)) if m else None
        if not fn:
            return ""
        ran = self.funcs[(side, fn.file)][fn.name]
        if not ran:
            return ", as its caller %s() never ran" % fn.name
        return ": its caller %s() ran in %d runs and never took the call" % (fn.name, ran)

    def _unreached(self, side, tree, f, line):
        """Why no run of @side reached @line of @f: the function it is
        in never ran, or ran and never took that line."""
        k = (side, os.path.join(tree.root, f))
        fn = function_at(self.defs.get(k, {}), line)
        if not fn:
            return "%s: outside any function that ran" % side
        ran = self.funcs[k][fn]
        if not ran:
            return "%s: %s() never ran" % (side, fn)
        return "%s: %s() ran in %d runs, never to line %d" % (side, fn, ran, line)

    def _init(self, sides, stripped, teardown):
        """Per side, the module's init functions and the lines of them
        it ran: {side: {"functions", "lines", "run", "not_run"}}."""
        out = {}
        for side, tree in sides.items():
            funcs, texts = {}, {}
            for f in tree.files:
                path = os.path.join(tree.root, f)
                texts[path] = stripped.get((side, f), "")
                for name, fn in self.defs.get((side, path), {}).items():
                    funcs.setdefault(name, fn)
            live = {os.path.join(tree.root, f): self.exec.get((side, os.path.join(
                tree.root, f)), set()) for f in tree.files}
            found = init_functions(texts, funcs, live, teardown)
            lines, not_run = 0, []
            for name in sorted(found, key=lambda n: (funcs[n].file, funcs[n].start)):
                fn = funcs[name]
                k = (side, fn.file)
                for n in range(fn.start, fn.end + 1):
                    if n in self.exec.get(k, ()):
                        lines += 1
                        if not self.lines[k][n]:
                            not_run.append("%s:%d" % (os.path.relpath(fn.file, tree.root), n))
            out[side] = {"functions": sorted(found), "lines": lines,
                         "run": lines - len(not_run), "not_run": not_run}
        return out

    def _teardown(self, lo, co, stripped):
        per_side = {}
        for side, tree in (("legacy", lo), ("converted", co)):
            funcs, texts = {}, {}
            for f in tree.files:
                path = os.path.join(tree.root, f)
                texts[path] = stripped.get((side, f), "")
                for name, fn in self.defs.get((side, path), {}).items():
                    funcs.setdefault(name, fn)
            live = {os.path.join(tree.root, f): self.exec.get((side, os.path.join(
                tree.root, f)), set()) for f in tree.files}
            per_side[side] = (funcs, teardown_functions(texts, funcs, live), tree)
        out = []

        def where(name):
            fn = per_side["legacy"][0].get(name) or per_side["converted"][0][name]
            return fn.file, fn.start

        names = set(per_side["legacy"][1]) | set(per_side["converted"][1])
        for name in sorted(names, key=where):
            row = {"kind": "teardown", "function": name}
            for side in ("legacy", "converted"):
                funcs, found, tree = per_side[side]
                fn = funcs.get(name)
                if fn is None:
                    row[side], row[side + "_runs"] = "-", None
                    continue
                rel = os.path.relpath(fn.file, tree.root)
                k = (side, fn.file)
                row[side] = "%s:%d %s()" % (rel, fn.start, name)
                row[side + "_runs"] = self.funcs[k][name]
                if not row[side + "_runs"]:
                    row.setdefault("unreached", []).append(
                        "%s: never called%s" % (side, self._callers(
                            side, funcs, found.get(name, ""))))
                # the paths no run took through it: states no scenario made
                row[side + "_lines_not_run"] = [
                    n for n in range(fn.start, fn.end + 1)
                    if n in self.exec.get(k, ()) and not self.lines[k][n]]
                row.setdefault("why", found.get(name, "called by a teardown on the other side"))
            row["file"] = (row["legacy"] if row["legacy"] != "-"
                           else row["converted"]).split(":")[0]
            row["code"] = True
            row["not_checked"] = row["legacy_runs"] == 0 or row["converted_runs"] == 0
            out.append(row)
        return out


def fmt_runs(n):
    return "-" if n is None else str(n)


def step(cov, trees, rep):
    """The demo's coverage step: read the counters, print a line per
    driver, write the section; (not checked, [changed lines not run])."""
    rep.step("Coverage: the call sites and teardown paths the runs reached")
    cov.read(trees)
    per, unrun = cov.analyse(trees)
    total = 0
    rows = []
    for drv, d in per.items():
        sites = [r for r in d["sites"] if r["code"]]
        missed = [r for r in d["sites"] + d["teardown"] if r["not_checked"]]
        total += len(missed)
        say("coverage %-9s %d call sites, %d teardown functions, in %d legacy and %d "
            "converted runs: %s" % (
                drv, len(sites), len(d["teardown"]), d["runs"]["legacy"],
                d["runs"]["converted"],
                "%d not checked" % len(missed) if missed else "every one reached on both sides"))
        for r in missed:
            say("    not checked: %s (legacy %s runs, converted %s%s)" % (
                describe(r), fmt_runs(r["legacy_runs"]), fmt_runs(r["converted_runs"]),
                "".join("; " + u for u in r.get("unreached", []))))
        init = d["init"]
        if any(i["lines"] for i in init.values()):
            say("    init: %d functions, %s" % (
                len(set().union(*[i["functions"] for i in init.values()])),
                ", ".join("%d of %d lines run on the %s side" % (
                    init[side]["run"], init[side]["lines"], side)
                    for side in ("legacy", "converted") if side in init)))
        for r in d["sites"] + d["teardown"]:
            rows.append([drv, r["kind"], r["legacy"], r["converted"],
                         teardown_note(r) if r["kind"] == "teardown" else
                         ("" if r["code"] else "no code (a declaration)"),
                         fmt_runs(r["legacy_runs"]), fmt_runs(r["converted_runs"]),
                         "NOT CHECKED" if r["not_checked"] else ""])
    for u in unrun:
        say("coverage: %s:%d changed by the conversion or a patch, never run on the "
            "converted side: %s" % (u["file"], u["line"], u["text"]))
    rep.section("Coverage: every deferred-work call site and teardown function, and the "
                "runs that reached it", ["driver", "kind", "legacy", "converted", "note",
                                         "legacy runs", "converted runs", ""], rows,
                "Found in the sources (calls of the task-queue, workqueue and bottom-half "
                "APIs, uses of their structures' fields; __exit, module_exit, teardown "
                "operations and functions, and what they call), counted by gcov per run of "
                "the Run step.  A site or teardown function a side never reached is not "
                "checked: the comparison cannot vouch for it.", quiet=True)
    if unrun:
        rep.section("Changed lines no converted run executed",
                    ["driver", "file:line", "line"],
                    [[u["driver"], "%s:%d" % (u["file"], u["line"]), u["text"]]
                     for u in unrun],
                    "Lines the conversion or a design patch changed that no run of the "
                    "converted side executed: the demo fails until a scenario reaches them.",
                    quiet=True)
    rep.data["coverage"] = {"drivers": per, "not_checked": total, "changed_not_run": unrun}
    return total, unrun


def teardown_note(row):
    """Why a function is on a teardown path, and its lines no run took."""
    note = row.get("why", "")
    lo, co = row.get("legacy_lines_not_run"), row.get("converted_lines_not_run")
    if lo or co:
        note += "; lines no run took: %s" % "; ".join(
            "%s %s" % (side, ", ".join(map(str, lines)))
            for side, lines in (("legacy", lo), ("converted", co)) if lines)
    return note


def describe(row):
    if row["kind"] == "teardown":
        return "teardown %s (%s)" % (row["legacy"] if row["legacy"] != "-"
                                     else row["converted"], row.get("why", ""))
    return "call site %s" % (row["legacy"] if row["legacy"] != "-" else row["converted"]) + \
        (" / %s" % row["converted"] if row["legacy"] != "-" and row["converted"] != "-" else "")
