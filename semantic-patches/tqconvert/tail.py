"""The long tail of the maintainers' conversions, made in the text before
coccinelle sees it (as tqbh does for private queues), over the whole tree:

  * TQ_ACTIVE as a preprocessor test (`#ifdef TQ_ACTIVE`): a test for a
    kernel with keventd, which 2.4.0-test12 brought as tq_scheduler went
    (mptscsih.h); no workqueue kernel defines it, so it becomes the
    version test it stood for, LINUX_VERSION_CODE >= KERNEL_VERSION(2,4,0),
    in a file that tests versions already (else its residue line says
    that edit);
  * a queue named through a macro, `#define MY_QUEUE tq_immediate`, then
    queue_task(&t, &MY_QUEUE): the queue is spelt out in those calls (the
    rules convert it), the #define goes once nothing else names it;
  * queue_task(&t, &tq_immediate) in a file with no mark_bh(IMMEDIATE_BH):
    the immediate bottom half ran it when other code of the driver (a file
    of its directory or below) marked it: schedule_work(&t);
  * a routine handed to the queue as &f, (void (*)(void *)) &f: the & goes,
    f is the same pointer, and the rules that fix a routine's type see it;
  * declarations 2.5.41 moved: the prototypes of schedule_task(),
    flush_scheduled_tasks(), start_context_thread() and current_is_keventd()
    in a header other than tqueue.h go (<linux/workqueue.h> declares their
    successors), start_context_thread() is init_workqueues(), and a .c file
    that calls current_is_keventd() or init_workqueues() includes
    <linux/workqueue.h> (the seed's sched.h and init/main.c).

plan(texts, out) adds its edits, notes, context changes (routine: from ->
to: why) and residue to tqbh's Plan `out`.  Standard library only.
"""

import os
import re

import tqbh
import tqlib
import tqprep

from . import tokenwise
from .compat import old_kernel_lines

_SYSTEM = ("tq_immediate", "tq_timer", "tq_scheduler")
_FEATURE = re.compile(r"^([ \t]*#[ \t]*)(ifdef|ifndef)([ \t]+)TQ_ACTIVE\b[ \t]*(?=$|/[*/])", re.M)
_DEFINED = re.compile(r"\bdefined\s*(?:\(\s*TQ_ACTIVE\s*\)|\s+TQ_ACTIVE\b)")
_IF_LINE = re.compile(r"^[ \t]*#[ \t]*(?:el)?if\b.*$", re.M)
_MACRO_USE = re.compile(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*\b(?:queue_task|schedule_task|"
                        r"flush_scheduled_tasks|INIT_TQUEUE|PREPARE_TQUEUE|tq_struct)\b", re.M)
_CAST = r"(?:\((?:[^()]|\([^()]*\))*\)\s*)*"
# a routine handed to the queue as &f, through a cast or not
_ROUTINE_ADDR = re.compile(r"(?:\broutine\s*[=:]\s*|\b(?:INIT_TQUEUE|PREPARE_TQUEUE)\s*\("
                           r"[^,;()]*(?:\([^()]*\)[^,;()]*)*,\s*)%s(&)\s*(\w+)\b" % _CAST)
_VERSION = "LINUX_VERSION_CODE >= KERNEL_VERSION(2,4,0)"
_ALIAS = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(%s)[ \t]*(?:/\*.*?\*/[ \t]*|//.*)?$"
                    % "|".join(_SYSTEM), re.M)
_MARK_IMM = re.compile(r"\bmark_bh\s*\(\s*IMMEDIATE_BH\s*\)")
_MARK_CODE = re.compile(r"\bmark_bh \( IMMEDIATE_BH \)")
_MOVED = ("schedule_task", "flush_scheduled_tasks", "start_context_thread", "current_is_keventd")
_PROTOTYPE = re.compile(r"\b(?:%s)\s*\([^;{()]*\)\s*;" % "|".join(_MOVED))
_NEEDS_WQ = re.compile(r"\b(?:current_is_keventd|init_workqueues)\s*\(")
_INCLUDES_WQ = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<linux/(?:workqueue|tqueue)\.h>", re.M)
_LAST_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<linux/[^>\n]+>[^\n]*\n", re.M)


def plan(texts, out):
    """texts: {key: text} of the candidates; out: tqbh.Plan, added to."""
    marks = sorted(k for k, t in texts.items() if _marks(t))
    aliases = {}
    for key, text in texts.items():
        for m in _ALIAS.finditer(text):
            aliases.setdefault(m.group(1), (key, m, m.group(2)))
    for key in sorted(texts):
        text = texts[key]
        if tqprep.merge_markers(text):
            continue        # left as it is (all or none) until the conflict is resolved
        if "TQ_ACTIVE" in text:
            _feature_tests(out, key, text)
        if "&" in text and _ROUTINE_ADDR.search(text):
            _routine_addresses(out, key, text)
        if "define" in text and _MACRO_USE.search(text) and \
                os.path.basename(key) not in ("tqueue.h", "workqueue.h"):
            _macros(out, key, text, texts)
        if aliases and any(a in text for a in aliases):
            _spell_out(out, key, text, aliases)
        if "tq_immediate" in text and not _marks(text):
            _marked_elsewhere(out, key, text, marks, texts)
        if (key.endswith(".h") and _PROTOTYPE.search(text)) or _NEEDS_WQ.search(text) or \
                "start_context_thread" in text:
            _moved(out, key, text)
    # a #define of a queue's other name goes once nothing else names it
    for name, (key, m, q) in sorted(aliases.items()):
        if all(_only_as_queue(t, name) for t in texts.values()):
            t = texts[key]
            a, b = m.start(), min(len(t), m.end() + 1)
            if t[a - 2:a] == "\n\n" and t[b:b + 1] == "\n":
                b += 1
            out.edit(key, a, b, "")
            out.notes.setdefault(key, []).append((m.start(), (
                "#define %s %s dropped: each queue_task() or run_task_queue() on %s names "
                "%s now, which the conversion turns into work" % (name, q, name, q))))


def _macros(out, key, text, texts):
    """The task-queue idioms in #define bodies, on tokens (coccinelle
    converts a body only where it parses as code): tokenwise.rewrite()."""
    toks = tqprep.scan(text)
    dead = None
    for lo, hi in tokenwise.define_bodies(toks):
        if not any(toks[j].val in _BODY_NAMES for j in range(lo, hi)):
            continue
        if dead is None:
            dead = old_kernel_lines(text)
        if toks[lo - 1].line in dead:
            continue
        queues = {toks[j + 1].val for j in range(lo, hi - 1) if toks[j].val == "&"}
        edits, left, moved = tokenwise.rewrite(
            text, toks, lo, hi, immediate=marked(key, text, texts),
            drop_marks="tq_immediate" in queues)
        for a, b, new in edits:
            out.edit(key, a, b, new)
        for i, q, task in moved:
            why = {"tq_scheduler": "ran from schedule(), in whichever process called it (2.2's "
                                   "tq_scheduler), now on the events queue's worker",
                   "tq_timer": "ran in the timer interrupt's bottom half at the next tick, now "
                               "in process context (events) a tick later",
                   "tq_immediate": "ran in the immediate bottom half (IMMEDIATE_BH), now in "
                                   "process context (events)"}[q]
            routine = tqbh._routine_of([text], texts.values(), task)
            if routine:
                out.moves.setdefault(key, []).append((toks[i].start, "%s: %s -> events: %s %s"
                                                      % (routine, q, task, why)))
            else:
                out.notes.setdefault(key, []).append((toks[i].start, (
                    "context change: the routine of %s (in a macro, not found) %s"
                    % (task, why))))


_BODY_NAMES = frozenset({"queue_task", "schedule_task", "flush_scheduled_tasks", "INIT_TQUEUE",
                         "PREPARE_TQUEUE", "tq_struct"})


def _marks(text):
    """Does text mark IMMEDIATE_BH in code (not in a comment)?"""
    return _MARK_IMM.search(text) is not None and \
        _MARK_CODE.search(tqlib.facts(text).code) is not None


def marked(key, text, texts):
    """Is IMMEDIATE_BH marked in text, or in a file of its directory or
    below (the driver's own code)?"""
    if _marks(text):
        return True
    d = os.path.dirname(key)
    return any(_marks(t) for k, t in texts.items() if k != key and _below(k, d))


def _below(key, d):
    """Is the file key in the directory d or below it?"""
    return os.path.dirname(key) == d or key.startswith(d + "/" if d else "")


def _routine_addresses(out, key, text):
    """A routine handed to the queue as &f (amd7930.c): f, the same
    pointer, which the rules that fix a routine's type then see."""
    for m in _ROUTINE_ADDR.finditer(text):
        name = m.group(2)
        if re.search(r"\b%s\s*\([^;{}]*\)\s*[{;]" % re.escape(name), text):
            out.edit(key, m.start(1), m.start(2), "")


def _feature_tests(out, key, text):
    versioned = "LINUX_VERSION_CODE" in text
    for m in _FEATURE.finditer(text):
        if not versioned:
            continue
        op = ">=" if m.group(2) == "ifdef" else "<"
        out.edit(key, m.start(), m.end(), "%sif%sLINUX_VERSION_CODE %s KERNEL_VERSION(2,4,0)"
                 % (m.group(1), m.group(3), op))
        _said(out, key, m.start())
    for line in _IF_LINE.finditer(text):
        for m in _DEFINED.finditer(line.group(0)):
            at = line.start() + m.start()
            if not versioned:
                continue
            out.edit(key, at, line.start() + m.end(), "(%s)" % _VERSION)
            _said(out, key, at)


def _said(out, key, at):
    out.notes.setdefault(key, []).append((at, (
        "TQ_ACTIVE tested by the preprocessor: it told a kernel with keventd (2.4.0-test12 "
        "defined it as tq_scheduler went) from an older one; no workqueue kernel defines it, "
        "so the test is the version it stood for, %s" % _VERSION)))


def _calls(text, names):
    """[(name, token index, [(lo, hi)] args, end index or None)] of the
    calls of names in text, with the tokens."""
    toks = tqprep.scan(text)
    out = []
    for i, t in enumerate(toks):
        if t.val in names and i + 1 < len(toks) and toks[i + 1].val == "(" and not t.pp:
            k = tqprep._match_close(toks, i + 1)
            if k is None:
                continue
            out.append((t.val, i, tqprep._args(toks, i + 1), k))
    return toks, out


def _only_as_queue(text, name):
    """Is name, outside its #define, only ever the queue of queue_task()
    or run_task_queue() in text (the uses _spell_out rewrites)?"""
    toks, calls = _calls(text, ("queue_task", "run_task_queue"))
    queues = set()
    for fn, i, args, k in calls:
        lo, hi = args[-1]
        if hi - lo == 2 and toks[lo].val == "&" and toks[lo + 1].val == name:
            queues.add(lo + 1)
    return all(j in queues or t.pp for j, t in enumerate(toks) if t.val == name)


def _spell_out(out, key, text, aliases):
    toks, calls = _calls(text, ("queue_task", "run_task_queue"))
    for fn, i, args, k in calls:
        lo, hi = args[-1]
        if hi - lo == 2 and toks[lo].val == "&" and toks[lo + 1].val in aliases:
            name = toks[lo + 1].val
            out.edit(key, toks[lo + 1].start, toks[lo + 1].end, aliases[name][2])


def _marked_elsewhere(out, key, text, marks, texts):
    """queue_task(x, &tq_immediate) where the file never marks IMMEDIATE_BH
    but other code of the driver does: schedule_work(x)."""
    d = os.path.dirname(key)
    by = [k for k in marks if k != key and _below(k, d)]
    if not by:
        return
    toks, calls = _calls(text, ("queue_task",))
    for fn, i, args, k in calls:
        if len(args) != 2:
            continue
        lo, hi = args[1]
        if not (hi - lo == 2 and toks[lo].val == "&" and toks[lo + 1].val == "tq_immediate"):
            continue
        task = text[toks[args[0][0]].start:toks[args[0][1] - 1].end]
        out.edit(key, toks[i].start, toks[k].end, "schedule_work(%s)" % task)
        why = ("%s ran in the immediate bottom half when other code of the driver marked it "
               "(mark_bh(IMMEDIATE_BH) in %s), now in process context (events)"
               % (task, os.path.basename(by[0]) if os.path.dirname(by[0]) == d else by[0]))
        routine = tqbh._routine_of([text], texts.values(), task)
        if routine:
            out.moves.setdefault(key, []).append((toks[i].start, "%s: tq_immediate -> events: %s"
                                                  % (routine, why)))
        else:
            out.notes.setdefault(key, []).append((toks[i].start, (
                "%s %s" % (tqbh.unknown_routine(task), why[len(task) + 1:]))))


def _moved(out, key, text):
    toks = tqprep.scan(text)
    header = key.endswith(".h")
    base = os.path.basename(key)
    funcs = None
    gone = []
    for i, t in enumerate(toks):
        if t.val not in _MOVED or t.pp or i + 1 >= len(toks) or toks[i + 1].val != "(":
            continue
        k = tqprep._match_close(toks, i + 1)
        if k is None or k + 1 >= len(toks):
            continue
        if funcs is None:
            funcs = tqprep._functions(toks)
        inside = any(lb < i < rb for _, lb, rb in funcs)
        if not inside and toks[k + 1].val == ";" and header and \
                base not in ("tqueue.h", "workqueue.h"):
            # a prototype at file scope: from its type on
            j = i
            while j > 0 and toks[j - 1].kind == "ident" and not toks[j - 1].pp and \
                    toks[j - 1].line == t.line:
                j -= 1
            a, b = tqbh.FileInfo.line_span(_Span(text, toks), j, k + 1)
            out.edit(key, a, b, "")
            gone.append((t.start, t.val))
        elif inside and t.val == "start_context_thread":
            out.edit(key, t.start, t.end, "init_workqueues")
            out.notes.setdefault(key, []).append((t.start, (
                "start_context_thread() -> init_workqueues(), which starts the events "
                "queue's workers in 2.5.41")))
    if gone:
        out.notes.setdefault(key, []).append((gone[0][0], (
            "the prototypes of %s go: 2.5.41 declares their successors in "
            "<linux/workqueue.h>" % ", ".join("%s() (%s)" % (
                n, {"schedule_task": "schedule_work()",
                    "flush_scheduled_tasks": "flush_scheduled_work()",
                    "start_context_thread": "init_workqueues()",
                    "current_is_keventd": "current_is_keventd()"}[n]) for _, n in gone))))
    if not header and not _INCLUDES_WQ.search(text) and \
            (_NEEDS_WQ.search(text) or re.search(r"\bstart_context_thread\s*\(", text)):
        last = None
        for last in _LAST_INCLUDE.finditer(text):
            pass
        if last is not None:
            out.edit(key, last.end(), last.end(), "#include <linux/workqueue.h>\n")
            out.notes.setdefault(key, []).append((last.start(), (
                "#include <linux/workqueue.h> added: it declares current_is_keventd() and "
                "init_workqueues(), which <linux/sched.h> declared before 2.5.41")))


class _Span:
    """What tqbh.FileInfo.line_span() reads."""

    def __init__(self, text, toks):
        self.text, self.toks = text, toks
