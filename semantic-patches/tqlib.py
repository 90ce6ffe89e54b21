"""Helpers shared by the tqueue-*.cocci semantic patches and by convert.

The .cocci files import this module from their own directory.  It does
four small things that SmPL cannot say by itself:

  * print what a rule matched, as `file:line: message` in report mode
    (-D report) or as a TQSTAT record for the convert script (-D stats);
  * tokenize C text (comments and literals dropped), for the residue scan
    and for name-conflict checks;
  * compute the seed patch's new name for a task-queue member or variable
    (tq -> work, tq_hangup -> hangup_work, SAK_tq -> SAK_work, ...);
  * remember, per file, which names may be renamed and which may not.

Standard library only.
"""

import json
import os
import re
import threading

# ---------------------------------------------------------------------------
# Reporting

_mode = {"report": False, "stats": False}
_seen = set()


def set_report_mode():
    _mode["report"] = True


def set_stats_mode():
    _mode["stats"] = True


def set_renamed_mode():
    """convert made the renames of members and file-scope variables (and
    said so) in the copy coccinelle reads: @mem and @var keep to locals."""
    _mode["renamed"] = True


def is_tq_type(t):
    """True for the task-queue type as coccinelle spells it."""
    return " ".join(str(t).split()) in ("struct tq_struct", "struct tq_struct *")


def is_work_type(t):
    return " ".join(str(t).split()) in ("work_t", "work_t *", "struct work_struct",
                                        "struct work_struct *")


def c(expr):
    """Coccinelle's spaced-out rendering of an expression, tightened (it
    may also carry the newline and indentation in front of it)."""
    s = " ".join(str(expr).split())
    s = re.sub(r"\s*(->|\.)\s*", r"\1", s)
    s = re.sub(r"([(&*!\[])\s+", r"\1", s)
    return re.sub(r"\s+([)\],])", r"\1", s)


def note(p, idiom, msg, kind="conv"):
    """Record one match of @idiom at position @p (a coccinelle position list).

    kind is "conv" (converted, or would be in patch mode), "residue" (left
    for a human) or "conflict" (a rename that was not done)."""
    pos = p[0]
    fname = pos.file
    if _current and fname not in _current:
        # a function edited earlier in the run is matched in a temporary
        # copy: the count stands, its line does not
        fname = _current[0]
    key = (pos.file, int(pos.line), idiom, msg)
    if key in _seen:
        return
    _seen.add(key)
    if _mode["stats"]:
        print("TQSTAT\t%s\t%s\t%s\t%s\t%s" % (kind, idiom, fname, pos.line, msg), flush=True)
    elif _mode["report"]:
        print("%s:%s: %s%s" % (fname, pos.line, "kept: " if kind == "kept" else "", msg),
              flush=True)


def note_line(fname, line, idiom, msg, kind="residue"):
    """Like note(), for a place found by the token scan rather than by SmPL."""
    class _P:
        pass
    p = _P()
    p.file, p.line = fname, line
    note([p], idiom, msg, kind)


def reported_lines(fname):
    """Lines of fname already reported (as read, not edited, by this run)."""
    return {k[1] for k in _seen if k[0] == fname}


# ---------------------------------------------------------------------------
# Tokenizer

# One match per token: the comments, literals, numbers and blanks before
# it (dropped), then the token, or the end of the text.
_TOKEN_AFTER = re.compile(r"""
    (?:/\*.*?\*/|//[^\n]*
      |"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'
      |\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*
      |\s+)*
    (?:(?P<ident>[A-Za-z_$][A-Za-z0-9_$]*)|(?P<punct>->|[^\sA-Za-z0-9_])|\Z)
""", re.S | re.X)


def tokens(text):
    """[(kind, value, line)] for identifiers and punctuation; comments,
    string and character literals and numbers are dropped."""
    return _tokens(text)


def _tokens(text):
    out = []
    append = out.append
    count = text.count
    line, prev = 1, 0
    for m in _TOKEN_AFTER.finditer(text):
        kind = m.lastgroup
        if kind is None:
            break               # the end of the text
        start = m.start(kind)
        line += count("\n", prev, start)
        prev = start
        append((kind, m.group(kind), line))
    return out


def identifiers(toks, lo=0, hi=None, members=False):
    """Identifier names in toks[lo:hi]; unless members, leave out names
    after `.`/`->` (fields) and after struct/union/enum (tags)."""
    names = set()
    hi = len(toks) if hi is None else hi
    for i in range(lo, hi):
        kind, val, _ = toks[i]
        if kind != "ident":
            continue
        if not members and i > 0:
            prev = toks[i - 1][1]
            if prev in (".", "->", "struct", "union", "enum"):
                continue
        names.add(val)
    return names


_file_cache = {}


def file_tokens(fname):
    """The tokens of fname, or of fname.full where convert wrote one: the
    same text, line for line, with the bodies of no concern that it hides
    from coccinelle left in, so that a new name is checked against every
    name of the file."""
    if fname not in _file_cache:
        text = None
        for p in (fname + ".full", fname):
            try:
                with open(p, encoding="latin-1") as f:
                    text = f.read()
                break
            except OSError:
                continue
        _file_cache[fname] = tokens(text) if text is not None else []
    return _file_cache[fname]


def _find(toks, name, line):
    for i, (kind, val, ln) in enumerate(toks):
        if ln == line and val == name:
            return i
    return None


def enclosing_block(toks, i):
    """(start, end) token indices of the innermost {...} around token i."""
    depth = 0
    start = None
    for j in range(i, -1, -1):
        v = toks[j][1]
        if v == "}":
            depth += 1
        elif v == "{":
            if depth == 0:
                start = j
                break
            depth -= 1
    if start is None:
        return None
    depth = 0
    for j in range(start, len(toks)):
        v = toks[j][1]
        if v == "{":
            depth += 1
        elif v == "}":
            depth -= 1
            if depth == 0:
                return (start, j)
    return (start, len(toks) - 1)


def function_region(toks, i):
    """Token range of the whole function (parameters included) around i."""
    depth = 0
    top = None
    for j in range(0, i + 1):
        v = toks[j][1]
        if v == "{":
            if depth == 0:
                top = j
            depth += 1
        elif v == "}":
            depth -= 1
    if top is None:
        return (0, len(toks))
    lo = top
    while lo > 0 and toks[lo - 1][1] not in (";", "}"):
        lo -= 1
    blk = enclosing_block(toks, top + 1) or (top, len(toks) - 1)
    return (lo, blk[1] + 1)


# ---------------------------------------------------------------------------
# Names of the legacy API, for the residue scan

LEGACY = {
    "tq_struct": "struct tq_struct left (inside a macro argument or an unparsed construct)",
    "schedule_task": "schedule_task() left: use schedule_work()",
    "flush_scheduled_tasks": "flush_scheduled_tasks() left: use flush_scheduled_work()",
    "INIT_TQUEUE": "INIT_TQUEUE() left: use INIT_WORK()",
    "PREPARE_TQUEUE": "PREPARE_TQUEUE() left: use PREPARE_WORK()",
    "queue_task": "queue_task() left: no automatic conversion for this queue",
    "run_task_queue": "run_task_queue() left: private task queues need a workqueue by hand",
    "DECLARE_TASK_QUEUE": "DECLARE_TASK_QUEUE() left: use create_workqueue() by hand",
    "task_queue": "task_queue left: use a workqueue_t by hand",
    "TQ_ACTIVE": "TQ_ACTIVE() left: no workqueue equivalent",
    "start_context_thread": "start_context_thread() left: 2.5.41 calls it init_workqueues()",
    "tq_immediate": "tq_immediate left: use schedule_work() (runs in process context)",
    "tq_timer": "tq_timer: runs in the timer interrupt at the next tick; by hand: "
                "schedule_delayed_work(&x, 1) (process context), or a timer_list",
    "tq_disk": "tq_disk: the block layer's plug queue, not deferred work; convert by hand",
    "tq_scheduler": "tq_scheduler (2.2's queue run by schedule()): by hand, schedule_work(&x)",
    "IMMEDIATE_BH": "IMMEDIATE_BH left: the immediate bottom half has no workqueue equivalent",
    "tqueue_lock": "tqueue_lock left: the task queues' lock went with them; a task taken off "
                   "its queue by hand under it (list_del(&t.list)) is, as work, cancelled by "
                   "hand: cancel_delayed_work(&w) for one queued on tq_timer, then "
                   "flush_scheduled_work()",
}

# [ \t]*, not \s*: a blank line before the #include is not its line
_INCLUDE_TQ = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"](?:linux/)?tqueue\.h[>"]', re.M)


class Facts:
    """What convert asks of one text, several times: its code as one line
    of space-separated tokens, its identifiers, its legacy names."""

    __slots__ = ("code", "names", "legacy")

    def __init__(self, text):
        toks = tokens(text)
        self.code = " ".join(t[1] for t in toks)
        self.names = frozenset(t[1] for t in toks if t[0] == "ident")
        out = [(line, val, LEGACY[val]) for kind, val, line in toks
               if kind == "ident" and val in LEGACY]
        for m in _INCLUDE_TQ.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append((line, "tqueue.h", "#include of tqueue.h left"))
        self.legacy = tuple(out)


_facts = {}
_facts_size = [0]           # bytes of code in _facts
_facts_lock = threading.Lock()
_FACTS_MAX = 64 << 20       # bytes of code kept at most


def facts(text):
    """Facts of text, computed once while the text is recent."""
    with _facts_lock:
        hit = _facts.get(text)
    if hit is not None:
        return hit
    f = Facts(text)
    with _facts_lock:
        if text not in _facts:
            _facts[text] = f
            _facts_size[0] += len(f.code)
        while _facts_size[0] > _FACTS_MAX and len(_facts) > 1:
            _facts_size[0] -= len(_facts.pop(next(iter(_facts))).code)
    return f


def declares_task_queue(fname):
    """Does the file declare a private task queue (DECLARE_TASK_QUEUE(q)
    in code, not its #define)?"""
    toks = file_tokens(fname)
    return any(toks[i][1] == "DECLARE_TASK_QUEUE" and toks[i + 1][1] == "(" and
               (i == 0 or toks[i - 1][1] != "define") for i in range(len(toks) - 1))


def legacy_residue(text):
    """[(line, token, reason)] for legacy names left in code (not comments)."""
    return list(facts(text).legacy)


# ---------------------------------------------------------------------------
# Renaming (the seed patch's names, and the maintainers' after it)

# the words that name deferred work, and their place in a name: alone
# (tq -> work, the seed's tqs -> work), as a prefix (the seed's tq_hangup
# -> hangup_work) or a suffix (SAK_tq -> SAK_work, the maintainers'
# poll_task -> poll_work, chdlc_bh -> chdlc_work, tty_tx_task_queue ->
# tty_tx_work); a queue the work was named after goes with it
# (immediate_bh -> work)
# (not bh alone: 2.4's buffer heads are bh everywhere, req->bh)
_EXACT = {"tq": "work", "tqueue": "work", "task": "work", "tqs": "work",
          "task_queue": "work", "immediate_bh": "work", "immediate_task": "work",
          "immediate_tq": "work"}
_PREFIX = ("tq_", "tqueue_")
_SUFFIX = ("_immediate_bh", "_immediate_tq", "_task_queue", "_tqueue", "_tqs", "_tq", "_task",
           "_bh")


def new_name(old):
    """The name of a task-queue member or variable once it is work, or
    None."""
    if old in _EXACT:
        return _EXACT[old]
    for pre in _PREFIX:
        if old.startswith(pre) and len(old) > len(pre):
            return old[len(pre):] + "_work"
    for suf in _SUFFIX:
        if old.endswith(suf) and len(old) > len(suf):
            return old[:-len(suf)] + "_work"
    return None


# the task-queue calls a helper of a driver is named after (the
# maintainers' sa1100fb_schedule_task -> sa1100fb_schedule_work,
# wanpipe_queue_tq -> wanpipe_queue_work)
_API_IN_NAMES = (("flush_scheduled_tasks", "flush_scheduled_work"),
                 ("schedule_task", "schedule_work"), ("queue_task", "queue_work"),
                 ("queue_tq", "queue_work"))


def helper_name(old):
    """The name of a function named after the task-queue call it wraps,
    once it wraps the workqueue's, or None."""
    for api, work in _API_IN_NAMES:
        m = re.search(r"(?:^|_)(%s)(?:_|$)" % api, old)
        if m and old != api:
            return old[:m.start(1)] + work + old[m.end(1):]
    return None


def routine_name(old):
    """The name of a task's routine whose name says it is a task or a
    bottom half (chdlc_bh -> chdlc_work, cpc_tty_rx_task ->
    cpc_tty_rx_work), or None."""
    for suf in _SUFFIX:
        if old.endswith(suf) and len(old) > len(suf):
            return old[:-len(suf)] + "_work"
    return None


def flag_name(old):
    """The name of a flag that guards deferred work, once it guards work
    (bh_active -> work_active), or None: its words tq, tqueue, bh become
    work."""
    words = old.split("_")
    new = ["work" if w in ("bh", "tq", "tqueue") else w for w in words]
    return "_".join(new) if new != words and len(words) > 1 else None


class _Names:
    def __init__(self):
        self.reset(None)

    def reset(self, fname):
        self.fname = fname
        self.fields = {}        # old -> new
        self.fields_blocked = {}
        self.globals = {}
        self.globals_blocked = {}
        self.locals = {}        # (function, old) -> new
        self.external = None
        # members whose type coccinelle may know to be another (convert
        # writes them in X.typed); None: any
        self.typed = None
        # "line:column" of the accesses to a task kept on a private queue
        # (X.kept), in the copy coccinelle reads: it keeps its type, and
        # its name with it
        self.kept = set()
        if fname:
            try:
                with open(fname + ".typed") as f:
                    self.typed = set(f.read().split())
            except OSError:
                pass
            try:
                with open(fname + ".kept") as f:
                    self.kept = set(f.read().split())
            except OSError:
                pass
        path = os.environ.get("TQ_RENAME_MAP")
        if path:
            with open(path) as f:
                self.external = json.load(f)


names = _Names()


# what the rules saw in the current file (not facts()' cache, which this
# dict shared a name with, and so its start_file() clear)
_seen_here = {}
_current = []


def start_file(files):
    """Called by every .cocci once per file, before its other rules."""
    names.reset(files[0] if files else None)
    _seen_here.clear()
    _current[:] = list(files)


def fact(kind, value):
    """Remember something a rule saw in this file (e.g. "data_set", "x")."""
    _seen_here.setdefault(kind, set()).add(str(value))


def has_fact(kind, value):
    return str(value) in _seen_here.get(kind, ())


def add_member(old, p, ctx):
    """A struct member `struct tq_struct old` at p; ctx names the struct."""
    new = new_name(old)
    if not new:
        return
    toks = file_tokens(p[0].file)
    i = _find(toks, old, int(p[0].line))
    why = None
    if i is not None:
        blk = enclosing_block(toks, i)
        if blk and new in identifiers(toks, blk[0], blk[1], members=True):
            why = "'%s' is already a member of %s" % (new, ctx)
    if why:
        names.fields_blocked[old] = why
        note(p, "rename_conflict", "keeping member name '%s': %s" % (old, why), "conflict")
    elif old not in names.fields_blocked:
        names.fields[old] = new
        note(p, "rename_member", "member %s -> %s" % (old, new))


def add_var(old, p):
    """A variable `struct tq_struct old` at p (file scope or local)."""
    new = new_name(old)
    if not new:
        return
    pos = p[0]
    toks = file_tokens(pos.file)
    fn = pos.current_element
    if fn == old or fn in ("something_else", ""):
        if _mode.get("renamed"):
            return
        # file scope: the new name must be unused in the whole file
        why = None
        if new in identifiers(toks):
            why = "'%s' is already used in this file" % new
        if why:
            names.globals_blocked[old] = why
            note(p, "rename_conflict", "keeping variable name '%s': %s" % (old, why), "conflict")
        else:
            names.globals[old] = new
            note(p, "rename_variable", "variable %s -> %s" % (old, new))
        return
    i = _find(toks, old, int(pos.line))
    why = None
    if i is not None:
        lo, hi = function_region(toks, i)
        if new in identifiers(toks, lo, hi):
            why = "'%s' is already used in %s()" % (new, fn)
    if why:
        names.locals[(fn, old)] = None
        note(p, "rename_conflict", "keeping variable name '%s': %s" % (old, why), "conflict")
    elif (fn, old) not in names.locals:
        names.locals[(fn, old)] = new
        note(p, "rename_variable", "variable %s -> %s (in %s)" % (old, new, fn))


def _lookup(kind, old):
    """New name of a member (kind "fields") or file-scope variable
    ("globals"): the convert script's map over the whole tree wins over
    what this file alone shows."""
    ext = names.external
    if ext is not None and (old in ext.get(kind, {}) or
                            old in ext.get(kind + "_blocked", {})):
        return ext.get(kind, {}).get(old)
    if old in getattr(names, kind + "_blocked"):
        return None
    return getattr(names, kind).get(old)


def field_new(old):
    return _lookup("fields", old)


def field_typed(old):
    """Is old a member to rename whose type coccinelle may know to be
    another than a task's, in this file?"""
    return field_new(old) is not None and (names.typed is None or old in names.typed)


def field_renamed_at(p):
    """Is the access to a member at p renamed?  Not where coccinelle
    knows its type to be another (@acc_other), nor a kept task's."""
    at = "%s:%s" % (p[0].line, p[0].column)
    return not has_fact("acc_other", at) and at not in names.kept


def global_new(old):
    return _lookup("globals", old)


def local_new(fn, old):
    return names.locals.get((fn, old))


def renamed_member(expr):
    """Does expr (x.m, p->m) end with a member this run renamed?  Its
    type is then a task's, even where coccinelle cannot tell: the header
    it reads still declares the member under its old name."""
    m = re.search(r"(?:\.|->)\s*(\w+)\s*$", str(expr))
    if not m:
        return False
    ext = names.external or {}
    return m.group(1) in set(ext.get("fields", {}).values()) | set(names.fields.values())


# ---------------------------------------------------------------------------
# Initialisers

_DESIG = re.compile(r"^\s*(?:\.\s*(\w+)\s*=|(\w+)\s*:)\s*(.*)$", re.S)


def parse_tq_initializer(elements):
    """{field: text} for a designated tq_struct initialiser that DECLARE_WORK
    can express (routine, data, sync = 0, list), else None."""
    fields = {}
    if elements and not _DESIG.match(elements[0]):
        return _positional(elements)
    for e in elements:
        m = _DESIG.match(e)
        if not m:
            return None                 # mixed
        name = m.group(1) or m.group(2)
        if name in fields or name not in ("routine", "data", "sync", "list"):
            return None
        fields[name] = m.group(3).strip()
    if "sync" in fields and fields["sync"] not in ("0", "0UL", "0L"):
        return None
    return fields


_EMPTY_LIST = {"{0,0}", "{NULL,NULL}", "{}", "{0}", "{NULL}", "0", "NULL"}
_ZERO = {"0", "0UL", "0L", "0ul", "0l"}


def designated(element):
    """Is element of an initialiser designated (.m = v, or GNU m: v)?"""
    return _DESIG.match(element) is not None


def _positional(elements):
    """{routine, data, positional: n} for the 2.4 layout { list, sync,
    routine, data } with an empty list and a zero sync, else None.  One
    zero alone (`{0,}`, `{ NULL }`) zeroes the whole task, as a static
    with no initialiser is."""
    els = [" ".join(e.split()) for e in elements]
    if len(els) == 1 and re.sub(r"\s+", "", els[0]).replace(",}", "}") in _EMPTY_LIST:
        return {"positional": "1"}
    if not 2 <= len(els) <= 4 or \
            re.sub(r"\s+", "", els[0]).replace(",}", "}") not in _EMPTY_LIST or \
            els[1] not in _ZERO:
        return None
    fields = {"positional": str(len(els))}
    if len(els) > 2:
        fields["routine"] = els[2]
    if len(els) > 3:
        fields["data"] = els[3]
    return fields


def null_if_zero(text):
    return "NULL" if text in ("0", "( void * ) 0", "(void *)0", "0L", "0UL") else text
