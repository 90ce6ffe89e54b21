"""The conversion made on tokens, where coccinelle does not convert: a
#define body it cannot parse (mptscsih.h's SCHEDULE_TASK() on
tq_scheduler) and a function it cannot parse (cyclades.c's
cyy_interrupt()).  The idioms of the semantic patches that a token
sequence shows without types:

    schedule_task(x)                    schedule_work(x)
    flush_scheduled_tasks()             flush_scheduled_work()
    INIT_TQUEUE(...), PREPARE_TQUEUE(...)   INIT_WORK(...), PREPARE_WORK(...)
    struct tq_struct                    struct work_struct
    queue_task(x, &tq_scheduler)        schedule_work(x)
    queue_task(x, &tq_timer)            schedule_delayed_work(x, 1)
    queue_task(x, &tq_immediate)        schedule_work(x)
      (where a mark_bh(IMMEDIATE_BH) of the file or the driver ran it)
    mark_bh(IMMEDIATE_BH);              (goes once no task is left on tq_immediate)
    t.routine = f; t.data = d;          INIT_WORK(&t, f, d);
      (either order; INIT_LIST_HEAD(&t.list) and t.sync = 0 beside them go;
      a cast of the routine stays, a (void *) of the data goes)
    t.sync (t a task)                   t.pending

rewrite() returns the edits and what it cannot convert there, each with
the edit to make by hand.  Standard library only.
"""

import re

import tqlib
import tqprep

from .report import line_map

_NAMES = {"schedule_task": "schedule_work", "flush_scheduled_tasks": "flush_scheduled_work",
          "INIT_TQUEUE": "INIT_WORK", "PREPARE_TQUEUE": "PREPARE_WORK"}


def _text(text, toks, lo, hi):
    return text[toks[lo].start:toks[hi - 1].end] if hi > lo else ""


def _statement_end(toks, i, hi):
    """Index of the `;` ending the statement that starts at toks[i]."""
    depth = 0
    for j in range(i, hi):
        v = toks[j].val
        if v in ("(", "[", "{"):
            depth += 1
        elif v in (")", "]", "}"):
            depth -= 1
        elif v == ";" and depth == 0:
            return j
    return None


def _member_assignment(text, toks, i, hi):
    """(base text, member, value text, end index) of `base.m = v;` or
    `base->m = v;` starting at toks[i], else None."""
    end = _statement_end(toks, i, hi)
    if end is None:
        return None
    eq = next((j for j in range(i, end) if toks[j].val == "="), None)
    if eq is None or eq < i + 3 or toks[eq - 2].val not in (".", "->") or \
            toks[eq - 1].kind != "ident":
        return None
    base = _text(text, toks, i, eq - 2)
    arrow = toks[eq - 2].val
    return base, arrow, toks[eq - 1].val, _text(text, toks, eq + 1, end), end


def _line_span(text, a, b):
    """a..b widened to whole lines when alone on them (in a #define, with
    the continuation backslash after it)."""
    ls = text.rfind("\n", 0, a) + 1
    le = text.find("\n", b)
    le = len(text) if le < 0 else le
    if text[ls:a].strip() == "" and text[b:le].strip() in ("", "\\"):
        return ls, min(len(text), le + 1)
    return a, b


def rewrite(text, toks, lo, hi, tasks=frozenset(), immediate=True, drop_marks=True,
            skip=frozenset(), calls_only=False):
    """([(start, end, new)], [(token index, hand edit)], [(token index,
    queue, task text)]) for toks[lo:hi]: the edits, what is left to do
    by hand (each with the edit to make), and the queue_task() calls made
    work (their routine changes context).  tasks: member names known to
    be tasks (for .sync); immediate: queue_task() on tq_immediate is run
    by a mark_bh(IMMEDIATE_BH) of the file or the driver; drop_marks: a
    mark_bh(IMMEDIATE_BH); statement goes (no task is left on
    tq_immediate); skip: token indices of tasks kept on private queues,
    left as they are.  Private queues are not this module's: their
    queue_task() and run_task_queue() stay, for the residue check.
    calls_only: code whose statements cannot be told apart (its brackets
    do not balance): calls whose parentheses close, and types, only."""
    edits, left, moved = [], [], []
    done = set(skip)
    i = lo
    while i < hi:
        t = toks[i]
        if i in done or t.kind != "ident":
            i += 1
            continue
        v = t.val
        nxt = toks[i + 1].val if i + 1 < hi else ""
        if v in _NAMES and nxt == "(":
            if tqprep._match_close(toks, i + 1) is not None:
                edits.append((t.start, t.end, _NAMES[v]))
        elif v == "tq_struct" and i > lo and toks[i - 1].val == "struct":
            edits.append((t.start, t.end, "work_struct"))
        elif v == "queue_task" and nxt == "(":
            k = tqprep._match_close(toks, i + 1)
            args = tqprep._args(toks, i + 1) if k is not None and k < hi else []
            q = None
            if len(args) == 2 and args[1][1] - args[1][0] == 2 and \
                    toks[args[1][0]].val == "&":
                q = toks[args[1][0] + 1].val
            task = _text(text, toks, *args[0]) if args else ""
            if q == "tq_scheduler" or (q == "tq_immediate" and immediate):
                edits.append((t.start, toks[k].end, "schedule_work(%s)" % task))
                moved.append((i, q, task))
            elif q == "tq_timer":
                edits.append((t.start, toks[k].end, "schedule_delayed_work(%s, 1)" % task))
                moved.append((i, q, task))
            elif q == "tq_immediate":
                left.append((i, "queue_task(%s, &tq_immediate) and no mark_bh(IMMEDIATE_BH) in "
                                "the driver: by hand, schedule_work(%s) if code elsewhere marked "
                                "the immediate bottom half" % (task, task)))
            i = (k or i) + 1
            continue
        elif calls_only:
            pass
        elif v == "mark_bh" and [x.val for x in toks[i + 1:i + 5]] == ["(", "IMMEDIATE_BH", ")",
                                                                       ";"] and i + 4 < hi:
            if drop_marks:
                a, b = _line_span(text, t.start, toks[i + 4].end)
                edits.append((a, b, ""))
                i += 5
                continue
        elif v == "sync" and i > lo and toks[i - 1].val in (".", "->") and \
                i >= 2 and toks[i - 2].val in tasks and nxt != "=":
            edits.append((t.start, t.end, "pending"))
        elif v in ("routine", "data", "sync", "INIT_LIST_HEAD") and \
                (v == "INIT_LIST_HEAD" or toks[i - 1].val in (".", "->")):
            # t.routine = f; t.data = d; -> INIT_WORK(&t, f, d);
            start = _statement_start(toks, i, lo)
            got = _manual_init(text, toks, start, hi)
            if got and not done & set(range(start, got[3])):
                a, b, new, last = got
                edits.append((a, b, new))
                done.update(range(start, last + 1))
                i = last + 1
                continue
            if v == "routine" and nxt == "=":
                base = _text(text, toks, start, i - 1)
                ref = re.escape(base if toks[i - 1].val == "->" else "&" + base)
                if re.search(r"\b(?:INIT_WORK|DECLARE_WORK)\s*\(\s*%s\s*," %
                             ref.replace("\\ ", r"\s*"), text):
                    # re-points work set up elsewhere in the file: 2.5.41's
                    # name for the member, as tqueue-types.cocci writes it
                    edits.append((t.start, t.end, "func"))
                else:
                    left.append((i, "%s set alone: by hand, %s (2.5.41's name), or INIT_WORK() "
                                    "where the work is set up" % (
                                        _text(text, toks, start, i + 1),
                                        base + toks[i - 1].val + "func")))
        i += 1
    return edits, left, moved


def _statement_start(toks, i, lo):
    j = i
    while j > lo and toks[j - 1].val not in (";", "{", "}"):
        j -= 1
    return j


def _manual_init(text, toks, i, hi):
    """The run of statements `base.routine = f; base.data = d;` (either
    order, with INIT_LIST_HEAD(&base.list); and base.sync = 0; among
    them) from toks[i]: (start, end, `INIT_WORK(&base, f, d);`, last
    token index), else None."""
    fields = {}
    base = arrow = None
    j = i
    last = None
    while j < hi:
        if toks[j].val == "INIT_LIST_HEAD" and j + 1 < hi and toks[j + 1].val == "(":
            k = tqprep._match_close(toks, j + 1)
            if k is None or k + 1 >= hi or toks[k + 1].val != ";":
                break
            inner = _text(text, toks, j + 2, k).replace(" ", "")
            if base is not None and inner not in ("&%s%slist" % (base, arrow), "&(%s%slist)"
                                                  % (base, arrow)):
                break
            fields.setdefault("list", True)
            last, j = k + 1, k + 2
            continue
        got = _member_assignment(text, toks, j, hi)
        if got is None:
            break
        b, a, m, value, end = got
        if m not in ("routine", "data", "sync") or m in fields or \
                (base is not None and (b, a) != (base, arrow)) or \
                (m == "sync" and value.strip() != "0"):
            break
        base, arrow = b, a
        fields[m] = value
        last, j = end, end + 1
    if "routine" not in fields or "data" not in fields or last is None:
        # a routine set alone re-points work that may be queued: no INIT_WORK
        return None
    # t.routine: &t; p->routine (p a task's address): p
    ref = "&" + base if arrow == "." else base
    # the routine keeps its cast: its signature is the semantic patches'
    routine = " ".join(fields["routine"].split())
    new = "INIT_WORK(%s, %s, %s);" % (ref, routine, _uncast(fields.get("data", "NULL")))
    return toks[i].start, toks[last].end, new, last


def _uncast(value):
    """Data without the (void *) 2.4 code handed it through."""
    v = " ".join(value.split())
    if v.startswith("(void *)"):
        return v[len("(void *)"):].strip()
    return v


def define_bodies(toks):
    """[(lo, hi)] token ranges of the bodies of #define directives (after
    the macro's name and parameters)."""
    out = []
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        if t.pp and t.val == "#" and i + 2 < n and toks[i + 1].val == "define" and \
                toks[i + 1].pp and toks[i + 2].pp:
            j = i + 3
            if j < n and toks[j].val == "(" and toks[j].start == toks[i + 2].end:
                k = tqprep._match_close(toks, j)
                j = (k + 1) if k is not None else j
            end = j
            while end < n and toks[end].pp and not (toks[end].val == "#" and end > j and
                                                    toks[end - 1].line != toks[end].line):
                end += 1
            out.append((j, end))
            i = end
            continue
        i += 1
    return out


def _unparsed_regions(e, toks_new):
    """(lo, hi) token ranges of e.new for the parts coccinelle could not
    parse (e.unparsed, lines of e.old): a function by its name, anything
    else by its lines."""
    out = []
    old_regs = tqprep.regions(e.old)
    new_regs = None
    back = None
    for line, what, near in e.unparsed:
        r = tqprep.region_at(old_regs, line)
        if r is None or r.kind == "directive":
            continue
        if new_regs is None:
            new_regs = tqprep.regions(e.new, toks_new)
        hit = None
        if r.kind == "function" and r.name:
            hit = next((x for x in new_regs if x.kind == "function" and x.name == r.name), None)
        if hit is None:
            if back is None:
                back = line_map(e.old, e.new)
            lines = [n for n in range(1, e.new.count("\n") + 2) if r.first <= back(n) <= r.last]
            if not lines:
                continue
            first, last = min(lines), max(lines)
        else:
            first, last = hit.first, hit.last
        idx = [j for j, t in enumerate(toks_new) if first <= t.line <= last]
        if idx and not _conflicted(e.new, toks_new, idx[0], idx[-1] + 1):
            # code whose brackets do not balance (#if branches that open
            # braces differently): its calls and types only, not its
            # statements
            out.append((idx[0], idx[-1] + 1, what,
                        not _well_formed(e.new, toks_new, idx[0], idx[-1] + 1)))
    return out


def _conflicted(text, toks, lo, hi):
    first, last = toks[lo].line, toks[hi - 1].line
    return any(first <= n <= last for n, _ in tqprep.merge_markers(text))


def _well_formed(text, toks, lo, hi):
    """Is toks[lo:hi] code whose tokens can be rewritten: its parentheses
    and braces balanced (outside preprocessor lines), no conflict marker?"""
    depth = {"(": 0, "{": 0}
    for t in toks[lo:hi]:
        if t.pp:
            continue
        if t.val in ("(", "{"):
            depth[t.val] += 1
        elif t.val in (")", "}"):
            k = "(" if t.val == ")" else "{"
            depth[k] -= 1
            if depth[k] < 0:
                return False
    return not any(depth.values())


_LEFT_INIT = re.compile(r"(?:\.|->) routine = (?!=)")


def fix(e, members, texts):
    """The task-queue uses coccinelle left in e.new where it could not
    see them: in the parts it could not parse (e.unparsed), and a routine
    and data set by hand on a task member it did not match (ambassador's
    nested setup_dev()), converted on tokens; what cannot be is
    residue, one line each, with the edit to make by hand.  members: the
    tree's task-queue members; texts: {shown: text as read} of the
    candidates, for the mark_bh() of the driver."""
    if e.gave_up:
        return
    code = tqlib.facts(e.new).code
    # the tree's task members, under their --rename names too
    members = set(members) | {tqlib.new_name(m) for m in members if tqlib.new_name(m)}
    silent = _LEFT_INIT.search(code) is not None
    if not e.unparsed and not silent:
        return
    toks = tqprep.scan(e.new)
    regions = _unparsed_regions(e, toks) if e.unparsed else []
    if silent:
        for head, lb, rb in tqprep._functions(toks):
            if any(toks[j].val == "routine" and toks[j - 1].val in (".", "->") and
                   toks[j - 2].val in members | _task_names(code) for j in range(lb, rb)):
                if not any(lo <= lb < hi for lo, hi, _, _ in regions):
                    regions.append((lb, rb + 1, None, False))
    if not regions:
        return
    from .compat import old_kernel_lines
    dead = old_kernel_lines(e.new)
    skip = {i for i, _ in tqprep.kept_task_tokens(toks, e.kept_tasks, e.kept_members,
                                                  e.typedefs)}
    skip |= {j for j, t in enumerate(toks) if t.line in dead}
    from . import tail
    immediate = tail.marked(e.shown, e.orig, texts)
    inside = set()
    for lo, hi, _, _ in regions:
        inside.update(range(lo, hi))
    outside_imm = any(t.val == "tq_immediate" and j not in inside and j not in skip
                      for j, t in enumerate(toks))
    edits, left, moved = [], [], []
    for lo, hi, what, calls_only in sorted(regions):
        ed, lf, mv = rewrite(e.new, toks, lo, hi, members | _task_names(code), immediate,
                             immediate and not outside_imm, skip, calls_only)
        edits += ed
        left += [(i, msg, what) for i, msg in lf]
        moved += mv
    if not edits and not left:
        return
    before = e.new
    e.new = tqprep._splice(before, sorted(set(edits)))
    e.tokenwise = sorted({w for _, _, w, _ in regions if w})
    shift = _line_shift(before, sorted(set(edits)))
    e.residue = [(shift(n), i, m) for n, i, m in e.residue]
    e.kept = [(shift(n), i, m) for n, i, m in e.kept]
    for i, msg, what in left:
        e.residue.append((shift(toks[i].line), "residue_tokenwise", msg + (
            " (in %s, which coccinelle could not parse)" % what if what else "")))
    back = line_map(e.old, e.new)
    for a, b, new in sorted(set(edits)):
        if any(toks[lo].start <= a < toks[hi - 1].end for lo, hi, w, _ in regions if w):
            continue
        line = back(shift(before.count("\n", 0, a) + 1))
        if new.startswith("INIT_WORK("):
            e.notes.append((line, (
                "%s: a routine and data set by hand, which coccinelle did not match here "
                "(in a nested function, or code it could not follow), made on their tokens"
                % new.rstrip(";"))))
        elif new == "func":
            e.notes.append((line, (
                ".routine -> .func, 2.5.41's name: a routine re-pointed on work the file sets "
                "up with INIT_WORK(), which coccinelle did not match here, made on its token")))
    why = {"tq_scheduler": "ran from schedule(), in whichever process called it (2.2's "
                           "tq_scheduler), now on the events queue's worker",
           "tq_timer": "ran in the timer interrupt's bottom half at the next tick, now "
                       "in process context (events) a tick later",
           "tq_immediate": "ran in the immediate bottom half (IMMEDIATE_BH), now in "
                           "process context (events)"}
    import tqbh
    for i, q, task in moved:
        line = back(shift(toks[i].line))
        routine = tqbh._routine_of([e.old], texts.values(), task)
        if routine:
            e.moves.append((line, "%s: %s -> events: %s %s" % (routine, q, task, why[q])))
        else:
            e.notes.append((line, "%s %s" % (tqbh.unknown_routine(task), why[q])))


def _task_names(code):
    """Names the text declares as a task or a work."""
    return set(re.findall(r"\bstruct (?:tq_struct|work_struct) (?:\* )*(\w+)", code))


def _line_shift(text, edits):
    """line of text -> its line once edits (sorted, apart) are made."""
    marks = []          # (first line after the edit, lines removed)
    delta = 0
    for a, b, new in edits:
        delta += new.count("\n") - text.count("\n", a, b)
        marks.append((text.count("\n", 0, b) + 1, delta, text.count("\n", 0, a) + 1))

    def shift(n):
        d = 0
        for after, total, first in marks:
            if n >= after:
                d = total
            elif n >= first:
                return first + d
        return n + d
    return shift
