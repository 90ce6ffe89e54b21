"""A task set up across the files of a family, made one work (before
coccinelle sees the text, over the files given together).

A driver family shares one structure between a core file and its chip
files: the core sets up the card's task, its data and sync,

    cs->tqueue.sync = 0;                    (config.c, per card)
    cs->tqueue.data = cs;

and each chip file gives it the chip's bottom half,

    cs->tqueue.routine = (void *) (void *) isac_bh;     (isac.c)

Converted file by file, the core keeps a bare `.data =` and each chip a
bare `.func =`, a work never set up with INIT_WORK() (what oopsed in
HiSax after 2.5.41 until its maintainer rewired its works).  Taken
whole, the rule a maintainer applies: the task is initialised where its
structure's task is first initialised, the file that clears its sync and
gives it its data (the core's per-card set-up, which runs before the
chip's init code that points the routine: the data belongs to the
structure, the routine to the chip), so that becomes

    INIT_TQUEUE(&cs->tqueue, NULL, cs);     -> INIT_WORK(&cs->tqueue, NULL, cs)

and each routine set becomes

    PREPARE_TQUEUE(&cs->tqueue, (void *) (void *) isac_bh, cs);
                                            -> PREPARE_WORK(&cs->tqueue, isac_bh, cs)

with the data it had: the data the core sets is the structure itself
(`cs->tqueue.data = cs`), which a chip file names through its own
variable of that structure's type.  The rest (INIT_WORK, PREPARE_WORK,
the callback's type) is the rules' work on the 2.4 macros, which mean
what the assignments meant.

A family is found by task expression, `B->m` or `B.m` with B a variable
of type `struct T` (or a pointer to one) declared in the function or its
parameters: same T and m, the routine set alone (no data beside it in
its function) in some files, the data set alone (to B itself) in others,
no file setting both, nor INIT_TQUEUE/PREPARE_TQUEUE on it.  Anything
else, and a file converting alone, is left to the per-file rules.

plan(texts, out) adds its edits and notes to tqbh's Plan `out`.
"""

import os

import tqprep

_SETUP_MACROS = ("INIT_TQUEUE", "PREPARE_TQUEUE")
_FIELDS = ("routine", "data", "sync")
_STMT_START = (";", "{", "}")


class _Set:
    """One `B op m.field = value;` statement in a function."""

    def __init__(self, key, fn, base, op, member, field, lo, vlo, semi, plain):
        self.key, self.fn = key, fn                 # file, function index
        self.base, self.op, self.member, self.field = base, op, member, field
        self.lo, self.vlo, self.semi = lo, vlo, semi    # token indices
        self.plain = plain                          # a statement of its own in a block
        self.type = None


def plan(texts, out):
    """texts: {key: text} of the candidates; out: tqbh.Plan, added to."""
    sets = []
    prepared = set()        # (type, op, member) handed to INIT_TQUEUE/PREPARE_TQUEUE
    scans = {}
    for key in sorted(texts):
        text = texts[key]
        if "routine" not in text and "data" not in text and "TQUEUE" not in text:
            continue
        toks = tqprep.scan(text)
        scans[key] = toks
        _collect(key, toks, sets, prepared)
    if not sets:
        return
    # per function and task expression: routine alone, data alone, or both
    by_fn = {}
    for s in sets:
        by_fn.setdefault((s.key, s.fn, s.base, s.op, s.member), []).append(s)
    routines, datas, whole = {}, {}, set()
    for group in by_fn.values():
        fields = {s.field for s in group}
        tkey = (group[0].type, group[0].op, group[0].member)
        if group[0].type is None:
            continue
        if "routine" in fields and "data" in fields:
            whole.add(tkey)
        elif "routine" in fields:
            routines.setdefault(tkey, []).append(group)
        elif "data" in fields:
            datas.setdefault(tkey, []).append(group)
    for tkey in sorted(set(routines) & set(datas)):
        if tkey in whole or tkey in prepared:
            continue
        rfiles = {g[0].key for g in routines[tkey]}
        dfiles = {g[0].key for g in datas[tkey]}
        if rfiles & dfiles:
            continue        # one file sets both: the per-file rules say what it is
        if not all(_self_data(scans[g[0].key], g) for g in datas[tkey]):
            continue        # data other than the structure: no name for it in a chip file
        if any(len([s for s in g if s.field == "routine"]) != 1 for g in routines[tkey]) or \
                any(len([s for s in g if s.field == "data"]) != 1 for g in datas[tkey]):
            continue
        _rewire(texts, scans, out, tkey, datas[tkey], routines[tkey])


def _collect(key, toks, sets, prepared):
    for fi, (head, lb, rb) in enumerate(tqprep._functions(toks)):
        i = lb + 1
        while i < rb:
            t = toks[i]
            if t.val in _SETUP_MACROS and toks[i + 1].val == "(" and i + 6 < rb and \
                    toks[i + 2].val == "&" and toks[i + 3].kind == "ident" and \
                    toks[i + 4].val in ("->", ".") and toks[i + 5].kind == "ident":
                ty = _type_of(toks, head, i, toks[i + 3].val)
                if ty:
                    prepared.add((ty, toks[i + 4].val, toks[i + 5].val))
            # B op m . field = value ;
            if t.kind == "ident" and not t.pp and i + 6 < rb and \
                    toks[i + 1].val in ("->", ".") and toks[i + 2].kind == "ident" and \
                    toks[i + 3].val == "." and toks[i + 4].val in _FIELDS and \
                    toks[i + 5].val == "=" and toks[i - 1].val in _STMT_START + (")", "else"):
                semi = _statement_end(toks, i + 6, rb)
                if semi is not None:
                    s = _Set(key, fi, t.val, toks[i + 1].val, toks[i + 2].val, toks[i + 4].val,
                             i, i + 6, semi, toks[i - 1].val in _STMT_START)
                    s.type = _type_of(toks, head, i, t.val)
                    sets.append(s)
                    i = semi
            i += 1


def _statement_end(toks, i, rb):
    """The index of the ; ending the expression from i, or None."""
    depth = 0
    while i < rb:
        v = toks[i].val
        if v in ("(", "["):
            depth += 1
        elif v in (")", "]"):
            depth -= 1
            if depth < 0:
                return None
        elif v in ("{", "}"):
            return None
        elif v == ";":
            return i if depth == 0 else None
        i += 1
    return None


def _type_of(toks, head, at, name):
    """T of the last `struct T [*] name` declared in the function before
    token at (parameters included), or None."""
    found = None
    for j in range(head, at):
        if toks[j].val != name or toks[j].kind != "ident":
            continue
        k = j - 1
        while k > head and toks[k].val == "*":
            k -= 1
        if k > head and toks[k].kind == "ident" and toks[k - 1].val == "struct" and \
                toks[j + 1].val in (",", ";", ")", "="):
            found = toks[k].val
    return found


def _value(toks, s):
    """The value's tokens, casts in front dropped."""
    lo, hi = s.vlo, s.semi
    while lo < hi and toks[lo].val == "(":
        k = tqprep._match_close(toks, lo)
        if k is None or k + 1 >= hi or not all(
                toks[j].kind == "ident" or toks[j].val == "*" for j in range(lo + 1, k)):
            break
        lo = k + 1
    return [t.val for t in toks[lo:hi]]


def _self_data(toks, group):
    """Is the data the structure itself (`B->m.data = B`), the sync, if
    set, cleared, each a statement of its own?"""
    for s in group:
        if not s.plain:
            return False        # under an if without braces: not a set-up
        if s.field == "data" and (_value(toks, s) != [s.base] or s.op != "->"):
            return False
        if s.field == "sync" and _value(toks, s) != ["0"]:
            return False
    return True


def _text(text, toks, lo, hi):
    return text[toks[lo].start:toks[hi - 1].end]


def _line_span(text, a, b):
    """[a, b) widened to its whole line(s) when nothing else is on them."""
    la = text.rfind("\n", 0, a) + 1
    lb = text.find("\n", b)
    lb = len(text) if lb < 0 else lb
    if text[la:a].strip() or text[b:lb].strip():
        return a, b
    return la, min(len(text), lb + 1)


def _rewire(texts, scans, out, tkey, datas, routines):
    ty, op, member = tkey
    where = []
    for g in datas:
        key = g[0].key
        text, toks = texts[key], scans[key]
        # INIT_TQUEUE in place of the first of the statements, the others go
        g = sorted(g, key=lambda s: s.lo)
        d = g[0]
        task = "%s%s%s" % (d.base, op, member)
        out.edit(key, toks[d.lo].start, toks[d.semi].end,
                 "INIT_TQUEUE(&%s, NULL, %s);" % (task, d.base))
        for s in g[1:]:
            a, b = _line_span(text, toks[s.lo].start, toks[s.semi].end)
            out.edit(key, a, b, "")
        line = toks[d.lo].line
        where.append("%s:%d" % (key, line))
        chips = sorted({os.path.basename(r[0].key) for r in routines})
        out.notes.setdefault(key, []).append((toks[d.lo].start, (
            "%s: struct %s's %s is given its data here and its routine in %s: "
            "INIT_WORK(&%s, NULL, %s) here, where the task is first set up, and "
            "PREPARE_WORK() where each routine is set" % (
                task, ty, member, ", ".join(chips), task, d.base))))
    for g in routines:
        key = g[0].key
        text, toks = texts[key], scans[key]
        r = g[0]
        task = "%s%s%s" % (r.base, op, member)
        value = _text(text, toks, r.vlo, r.semi)
        data = r.base if op == "->" else "&" + r.base
        out.edit(key, toks[r.lo].start, toks[r.semi].end,
                 "PREPARE_TQUEUE(&%s, %s, %s);" % (task, value, data))
        out.notes.setdefault(key, []).append((toks[r.lo].start, (
            "%s.routine = ... -> PREPARE_WORK(&%s, ..., %s): the task is set up with "
            "INIT_WORK() and its data in %s" % (task, task, data, ", ".join(where)))))
