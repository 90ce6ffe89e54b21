"""The files convert is given: the C files under the paths (Entry), the
others it copies with -o, and what each file includes."""

import os
import re

from .common import REPO


C_SUFFIXES = (".c", ".h")


SKIP_COPY = (".o", ".a", ".so", ".d", ".gcda", ".gcno", ".pyc")


class Entry:
    """One C file: where it is, what it is called in messages, where its
    converted copy goes (relative to OUTDIR), and what became of it."""

    def __init__(self, src, shown, rel, group):
        self.src = src
        self.shown = shown
        self.rel = rel
        self.group = group
        self.size = 0
        self.candidate = None       # why it goes to coccinelle, or None
        self.stages = ()            # the semantic patches that can change it
        self.old = None             # the text convert works on (after tqbh)
        self.orig = None            # the text as read
        self.new = None
        self.parsed = None          # the text coccinelle parses (tqprep.hide)
        self.hidden = []
        self.keep = None            # names of concern (concern_names), None: all
        self.kept_tasks = {}        # {task: private queue} it queues, by name
        self.kept_members = {}      # {(struct tag, member): queue} it sees declared
        self.unknown_tasks = {}     # {task: queue} whose declaration was not found
        self.typedefs = {}          # {typedef name: struct tag} it sees
        self.work = None
        self.full = None            # --rename: the copy with no body blanked (full_text)
        self.renamed = None         # --rename: [(kind, idiom, line, msg)] said of its renames
        self.prerenamed = False     # --rename: renames made in parsed (Job.rename)
        self.regions = None
        self.check = False          # the residue check parses it again (Job.finish)
        self.unparsed = []          # [(line, what, near)]
        self.gave_up = None         # spatch could not handle the file: why
        self.rules = {}
        self.residue = []           # [(line, rule, reason)]
        self.kept = []
        self.notes = []
        self.conflicts = []
        self.moves = []             # [(line, "routine: from -> to: why")]
        self.bh_kept = {}           # {private queue: why tqbh kept it}
        self.drains = []            # [(function, why)]: run_task_queue() kept (tqbh)
        self.tokenwise = []         # what of e.unparsed tokenwise.fix() converted
        self.blocked = []           # [(line, why)]: not converted, all or none

    @property
    def failed(self):
        return bool(self.unparsed or self.gave_up)


def is_c_text(data):
    return b"\0" not in data


def shown_as(path):
    """path as convert names it in what it prints: as given (relative,
    or absolute), less a leading ./."""
    while path.startswith("./") and len(path) > 2:
        path = path[2:].lstrip("/")
    return path


def collect(paths, outdir):
    entries, copies, problems = [], [], []
    seen = set()
    out_real = os.path.realpath(outdir) if outdir else None
    for group, path in enumerate(paths):
        if not os.path.lexists(path):
            problems.append("%s: no such file or directory" % path)
            continue
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                                 and os.path.realpath(os.path.join(root, d)) != out_real)
                for name in sorted(files):
                    full = os.path.join(root, name)
                    rel = os.path.relpath(full, path)
                    if name.startswith(".") or not os.path.isfile(full):
                        continue
                    real = os.path.realpath(full)
                    if real in seen:
                        continue
                    seen.add(real)
                    if name.endswith(C_SUFFIXES):
                        entries.append(Entry(full, shown_as(full), rel, group))
                    elif not name.endswith(SKIP_COPY):
                        copies.append((full, rel))
        elif os.path.isfile(path):
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            if not path.endswith(C_SUFFIXES):
                problems.append("%s: not a C file (expected .c or .h); skipped" % path)
                continue
            entries.append(Entry(path, shown_as(path), os.path.basename(path), group))
        else:
            problems.append("%s: not a regular file or directory; skipped" % path)
    return entries, copies, problems


def is_kernel_tree(d):
    inc = os.path.join(d, "include", "linux")
    return os.path.isfile(os.path.join(inc, "kernel.h")) or \
        os.path.isfile(os.path.join(inc, "sched.h"))


def tree_includes(path):
    """The include/ directories of the trees holding path, innermost first
    (drivers/legacy/include, then drivers/include, ...), and whether the
    outermost one is a kernel tree (include/linux/kernel.h or sched.h):
    then that tree declares the kernel API itself."""
    d = os.path.abspath(path if os.path.isdir(path) else os.path.dirname(path) or ".")
    found = []
    while True:
        inc = os.path.join(d, "include")
        if os.path.isdir(inc) and d != REPO:
            found.append(inc)
            if is_kernel_tree(d):
                return found, True
        parent = os.path.dirname(d)
        if parent == d:
            return found, False
        d = parent


def include_dirs(paths, extra):
    """-I for spatch: what the user gave, the trees' own include/
    directories, and the sandbox's kernel headers unless a kernel tree
    supplies its own.  Each group of files adds its own directories."""
    dirs = list(extra)
    sandbox = False
    for p in paths:
        if not os.path.exists(p):
            continue
        found, kernel = tree_includes(p)
        dirs.extend(found)
        sandbox = sandbox or not kernel
    if sandbox or not paths:
        dirs += [os.path.join(REPO, "workqueue", "include"), os.path.join(REPO, "shim", "include")]
    out = []
    for d in dirs:
        d = os.path.abspath(d)
        if d not in out and os.path.isdir(d):
            out.append(d)
    return out


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)


def includes_of(path, text, incs):
    """The real paths of the files text's #include lines name, found
    beside path (for "...") and in incs."""
    d = os.path.dirname(path)
    out = []
    for kind, name in _INCLUDE.findall(text):
        for base in ([d] if kind == '"' else []) + incs:
            p = os.path.realpath(os.path.join(base, name))
            if os.path.isfile(p):
                out.append(p)
                break
    return out


class Includes:
    """What a file sees through its #include lines, transitively: found
    beside it (for "...") and in the include directories; texts read once,
    from the entries in memory where they are there."""

    def __init__(self, incs, entries):
        self.incs = incs
        self.by_real = {os.path.realpath(e.src): e for e in entries}
        self.texts = {}
        self.closure = {}

    def text(self, p):
        if p not in self.texts:
            e = self.by_real.get(p)
            try:
                self.texts[p] = e.old if e is not None and e.old is not None else \
                    open(p, "rb").read().decode("latin-1")
            except OSError:
                self.texts[p] = ""
        return self.texts[p]

    def reach(self, path, text, depth=0):
        """{real path} of every file path (whose text is text) includes."""
        if path in self.closure:
            return self.closure[path]
        self.closure[path] = set()      # an include cycle ends here
        got = set()
        for p in includes_of(path, text, self.incs):
            got.add(p)
            if depth < 12:
                got |= self.reach(p, self.text(p), depth + 1)
        self.closure[path] = got
        return got


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    return data, data.decode("latin-1")
