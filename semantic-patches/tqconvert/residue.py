"""What is left after conversion: every task-queue line of a file and why
(token_residue), and the all-or-none decision (all_or_none)."""

import os
import re

import tqlib
import tqprep

from .compat import old_kernel_lines
from .prepare import _API_NAMES
from .report import lazy_line_map


# What tqueue-residue.cocci can report on, in converted code: a legacy
# name (the token scan), .sync of anything, .routine, .func or .data assigned,
# .list of a name declared as work (or as a task queue's member in the
# tree), a work_t initialiser, a routine: inside another initialiser,
# list_entry() of work.  A file with none of these is not parsed again:
# skb->data alone is not worth a second parse.
_RESIDUE_HINT = re.compile(r"(?:\.|->) (?:sync\b|(?:routine|func|data) = (?!=))|\broutine :|"
                           r"\b(?:work_t|work_struct|tq_struct) \w+ = \{|"
                           r"\blist_entry \( [^;]*?\b(?:work_t|work_struct|tq_struct)\b")


def needs_residue_check(text, names):
    """names: those declared as work or task queues (concern_names())."""
    code = tqlib.facts(text).code
    if tqlib.legacy_residue(text) or _RESIDUE_HINT.search(code):
        return True
    names = sorted(n for n in names if n not in _API_NAMES)
    return bool(names) and re.search(r"\b(?:%s) (?:\.|->) list\b" % "|".join(
        map(re.escape, names)), code) is not None


def token_residue(e):
    """Every line of the converted text that still holds a task-queue
    name and that no rule has explained, with the token's reason; in a
    part coccinelle could not parse, say so."""
    if e.drains:
        _drains_kept(e)
    done = {line for line, _, _ in e.residue} | {line for line, _, _ in e.kept}
    regs = None
    bad = {}
    if e.unparsed or e.gave_up:
        regs = tqprep.regions(e.new)
        for line, what, _ in e.unparsed:
            r = tqprep.region_at(regs, line)
            if r is not None:
                bad[(r.first, r.last)] = what
    toks = tqprep.scan(e.new) if e.unknown_tasks or e.kept_tasks or e.kept_members else None
    if e.unknown_tasks:
        for i, _, task, _ in tqprep.queue_task_calls(toks):
            if task in e.unknown_tasks:
                t = toks[i]
                e.kept = [k for k in e.kept if k[0] != t.line]
                e.residue.append((t.line, "residue_queue_task",
                                  "queue_task() of %s on the private task queue %s: where %s "
                                  "is declared was not found (reached through a chain of "
                                  "members, or a type convert does not see), so it may have "
                                  "become a work_t there: keep that declaration struct "
                                  "tq_struct by hand" % (
                                      task, e.unknown_tasks[task], task)))
                done.add(t.line)
    left = tqlib.legacy_residue(e.new)
    queues = {t for _, t, _ in left} & {"queue_task", "run_task_queue", "DECLARE_TASK_QUEUE"}
    kept = {}           # line -> (token, task) of a task a private queue keeps
    if e.kept_tasks or e.kept_members:
        for i, task in tqprep.kept_task_tokens(toks, e.kept_tasks, e.kept_members,
                                               e.typedefs):
            kept.setdefault(toks[i].line, (toks[i].val, task))
        if kept:
            queues.add("tasks of private queues")
    old_only = None
    new_lines = e.new.splitlines()
    for line, tok, why in left:
        if line in done:
            continue
        done.add(line)
        if old_only is None:
            old_only = old_kernel_lines(e.new)
        if line in old_only:
            e.kept.append((line, "kept_old_kernel",
                           "%s kept: in a branch no workqueue kernel compiles (#if 0, "
                           "or a LINUX_VERSION_CODE test for a kernel before 2.5.41)"
                           % ("#include <linux/tqueue.h>" if tok == "tqueue.h" else tok)))
            continue
        if line in kept:
            what, task = kept[line]
            q = e.kept_tasks.get(task) or next(
                (q for (_, m), q in sorted(e.kept_members.items()) if m == task), "?")
            if what == "schedule_task":
                e.residue.append((line, "residue_schedule_task",
                                  "schedule_task() on %s, which is also queued on the private "
                                  "task queue %s and so stays a struct tq_struct: by hand, "
                                  "run it from %s, or give that queue a workqueue of its own "
                                  "and queue_work() both" % (task, q, q)))
            else:
                e.kept.append((line, "kept_private_task",
                               "%s kept: %s is queued on the private task queue %s, which "
                               "runs it synchronously where run_task_queue(&%s) is called, "
                               "so it stays a struct tq_struct" % (what, task, q, q)))
            continue
        if tok == "tqueue.h" and queues:
            e.kept.append((line, "kept_include",
                           "#include <linux/tqueue.h> kept: the file still uses %s"
                           % ", ".join(sorted(queues))))
            continue
        if tok == "TQ_ACTIVE" and 0 < line <= len(new_lines) and \
                re.match(r"\s*#\s*(?:if|ifdef|ifndef|elif)\b", new_lines[line - 1]):
            e.residue.append((line, "residue_TQ_ACTIVE", (
                "TQ_ACTIVE tested by the preprocessor: a test for a kernel with keventd "
                "(2.4.0-test12 defined it as tq_scheduler went), which no workqueue kernel "
                "defines; by hand, test LINUX_VERSION_CODE >= KERNEL_VERSION(2,4,0) instead "
                "(#include <linux/version.h>)")))
            continue
        if 0 < line <= len(new_lines) and _defines(new_lines[line - 1], tok):
            e.residue.append((line, "residue_compat_define",
                              "#define %s: the file defines the old name itself (for an "
                              "older kernel); nothing converted uses it: delete it by hand "
                              "once no kernel the file builds for needs it" % tok))
            continue
        if e.gave_up:
            why += " (%s; the file is unchanged)" % e.gave_up
        elif bad:
            r = tqprep.region_at(regs, line)
            what = bad.get((r.first, r.last)) if r is not None else None
            if what:
                why += " (in %s, which coccinelle could not parse: convert it by hand)" % what
        e.residue.append((line, "residue_" + tok.replace(".", "_"), why))
    for q, why in sorted(e.bh_kept.items()):
        # the reason tqbh did not convert it, where it is declared
        m = re.search(r"\b(?:DECLARE_TASK_QUEUE\s*\(\s*%s\s*\)|task_queue\s+%s\b)"
                      % (re.escape(q), re.escape(q)), e.new)
        if m:
            line = e.new.count("\n", 0, m.start()) + 1
            e.kept = [k for k in e.kept if k[0] != line]
            e.residue = [r for r in e.residue if r[0] != line]
            e.kept.append((line, "kept_private_queue",
                           "private task queue %s kept: %s" % (q, why)))
    for line, marker in tqprep.merge_markers(e.new):
        if line not in done:
            e.residue.append((line, "merge_marker",
                              "version-control conflict marker %s: resolve the conflict, "
                              "then convert again" % marker))


def _drains_kept(e):
    """The run_task_queue(&tq_timer) calls tqbh kept (e.drains: the
    function and the hand edit), said at their lines of the converted
    text, in place of what the residue rules say of them."""
    toks = tqprep.scan(e.new)
    funcs = [(tqprep._function_name(toks[h:lb]), lb, rb) for h, lb, rb in tqprep._functions(toks)]
    for i, t in enumerate(toks):
        if t.val != "run_task_queue" or i + 4 >= len(toks) or \
                [x.val for x in toks[i + 1:i + 5]] != ["(", "&", "tq_timer", ")"]:
            continue
        fn = next((name for name, lb, rb in funcs if lb < i < rb), None)
        for name, why in e.drains:
            if name == fn:
                e.residue = [r for r in e.residue if r[0] != t.line]
                e.residue.append((t.line, "residue_tq_timer_drain", why))
                break


def _defines(text, tok):
    """Is text, a line, a #define of the macro tok (a compatibility alias
    such as specialix's "#define queue_task queue_task_irq_off" for 2.0)?"""
    return re.match(r"\s*#\s*define\s+%s\b" % re.escape(tok), text) is not None


def blockers(e):
    """The residue of e's converted text that leaves a task-queue use the
    conversion of the rest does not fit (a task left a tq_struct beside
    work, an API call left, a part coccinelle could not parse): [(line,
    reason)].  Not the block layer's tq_disk (not deferred work, the same
    before and after), nor work whose routine or data is set where the
    file never sets it up (it compiles; the set-up is elsewhere), nor a
    macro the file defines under an old API name (nothing converted
    expands it), nor a line no workqueue kernel compiles (compat.py)."""
    out = []
    dead = old_kernel_lines(e.new)
    for line, idiom, msg in sorted(set(e.residue)):
        if line in dead:
            continue
        if idiom in ("residue_not_set_up", "residue_tq_disk", "residue_compat_define") or \
                "&tq_disk)" in msg.split(":", 1)[0]:
            continue
        out.append((line, msg))
    return out


def all_or_none(e):
    """A file converts whole or not at all, as the maintainers converted
    theirs: one use that cannot convert leaves the file as it was, every
    blocker named at its line, every task-queue line of it listed."""
    bl = blockers(e) if e.new != e.orig else []
    if not bl:
        return
    where = lazy_line_map(e.orig, e.new)
    e.blocked = []
    generic = set(tqlib.LEGACY.values())
    old_lines, new_lines = e.orig.splitlines(), e.new.splitlines()
    for line, msg in bl:
        n = where(line)
        if e.blocked and e.blocked[-1][0] == n:
            # one line, one reason: the rule's own before the token's
            if e.blocked[-1][1] in generic and msg not in generic:
                e.blocked[-1] = (n, as_written(msg, new_lines, line, old_lines, n))
            continue
        e.blocked.append((n, as_written(msg, new_lines, line, old_lines, n)))
    e.new = e.orig
    e.moves, e.notes, e.conflicts, e.kept, e.rules = [], [], [], [], {}
    e.residue = [(line, "all_or_none", "not converted, nor the rest of the file (all or "
                  "none): " + msg) for line, msg in e.blocked]
    first = e.blocked[0][0]
    done = {line for line, _ in e.blocked}
    for line, tok, why in tqlib.legacy_residue(e.orig):
        if line not in done:
            done.add(line)
            e.residue.append((line, "unconverted", "%s left as it was: the file is not "
                              "converted, line %d cannot be (all or none)" % (
                                  "#include <linux/tqueue.h>" if tok == "tqueue.h" else tok,
                                  first)))


def split_from_whole(cands, members, seen):
    """A file left whole (all or none) that reaches a task member of a
    structure a header declares, the header converted: the file still
    queues it as a struct tq_struct, the header (one it includes,
    directly or not: seen.reach()) made it work, and the two no longer
    build together.  Each says so at its line (the file at its first
    use, the header at the declaration), with what to do: all or none
    is per file, and leaving every file that includes the header as it
    was would undo every driver that shares it.  A member the header
    keeps a struct tq_struct (a private queue's task) is no split."""
    from .candidates import _TQ_MEMBER
    by_real = {os.path.realpath(e.src): e for e in cands}
    declared = {}       # member -> {header realpath}, of the headers that converted it
    for h in cands:
        if h.src.endswith(".h") and h.new != h.orig:
            kept = {m.group(1) for m in _TQ_MEMBER.finditer(tqlib.facts(h.new).code)}
            for m in _TQ_MEMBER.finditer(tqlib.facts(h.orig).code):
                if m.group(1) in members and m.group(1) not in kept:
                    declared.setdefault(m.group(1), set()).add(os.path.realpath(h.src))
    for e in cands:
        if not getattr(e, "blocked", None):
            continue
        used = {}       # header realpath -> [(member, line)]
        reached = seen.reach(os.path.realpath(e.src), e.orig)
        toks = tqlib.tokens(e.orig)
        for i in range(1, len(toks)):
            if toks[i - 1][1] in (".", "->") and toks[i][1] in declared:
                for h in declared[toks[i][1]] & reached:
                    he = by_real.get(h)
                    if he is not None and he is not e and he.new != he.orig:
                        used.setdefault(h, []).append((toks[i][1], toks[i][2]))
        for h, uses in sorted(used.items()):
            he = by_real[h]
            names = sorted({m for m, _ in uses})
            e.residue.append((uses[0][1], "split_from_whole",
                              "%s: declared in %s, which converted (work), while this file "
                              "is left as it was (a struct tq_struct): they no longer build "
                              "together; convert this file by hand, or keep %s struct "
                              "tq_struct in the header" % (", ".join(names), he.shown,
                                                           "them" if len(names) > 1 else "it")))
            for name in names:
                m = re.search(r"\b%s\s*(?:\[[^]]*\]\s*)?[;,]" % re.escape(name), he.new)
                if m:
                    he.residue.append((he.new.count("\n", 0, m.start()) + 1, "split_from_whole",
                                       "%s: converted here, but %s, left as it was (all or "
                                       "none), still uses it as a struct tq_struct" % (
                                           name, e.shown)))


_NAME = re.compile(r"[A-Za-z_]\w*")


def as_written(msg, new_lines, line, old_lines, n):
    """msg, which quotes line of the converted text, made to quote line n
    of the text as written: a name the conversion changed on that line
    (--rename's tqueue -> work) given back where msg has it after `&`,
    `->`, `.` or `(`."""
    a = new_lines[line - 1] if 0 < line <= len(new_lines) else ""
    b = old_lines[n - 1] if 0 < n <= len(old_lines) else ""
    ta, tb = tqlib.tokens(a), tqlib.tokens(b)
    if a == b or len(ta) != len(tb):
        return msg
    back = {}
    for (ka, va, _), (kb, vb, _) in zip(ta, tb):
        if va != vb:
            if ka != "ident" or kb != "ident":
                return msg
            back[va] = vb
    for new, old in back.items():
        msg = re.sub(r"(?<=[&>.(])%s\b" % re.escape(new), old, msg)
    return msg
