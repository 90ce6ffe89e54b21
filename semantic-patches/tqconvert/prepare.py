"""The copy of a file coccinelle reads (prepare): constructs it cannot
parse hidden, the bodies of no concern blanked; and which stages can
change a file (stage_set)."""

import os
import re

import tqlib
import tqprep

from .common import KNOWN_MARKERS
from .compat import old_kernel_lines


# Which stages can change a file, by the names in its code: matching a
# rule costs time in every function of every file it is given, whatever
# the file holds (the init and callback-cast rules most), so a stage goes
# only to the files that have a name it needs.
_STAGE_NAMES = {
    "tqueue-sync.cocci": {"sync"},
    "tqueue-init.cocci": {"tq_struct", "INIT_TQUEUE", "PREPARE_TQUEUE", "routine",
                          "DECLARE_WORK", "INIT_WORK", "PREPARE_WORK"},
    "tqueue-immediate.cocci": {"tq_immediate", "IMMEDIATE_BH", "tq_timer", "tq_scheduler"},
    "tqueue-calls.cocci": {"schedule_task", "flush_scheduled_tasks", "queue_work"},
    "tqueue-types.cocci": {"tq_struct", "tqueue", "routine"},
}


# callback-cast: a cast to void in the statement or initialiser that hands
# a routine or its data to the queue
_CAST_NEAR = re.compile(r"\b(?:INIT_TQUEUE|PREPARE_TQUEUE|INIT_WORK|PREPARE_WORK|DECLARE_WORK|"
                        r"routine|data)\b[^;]*?\( void\b")


# A function's body is parsed and matched only if the function has one of
# these names, or a name declared with a task-queue or work type, or is
# handed to the queue (tqprep.unrelated_bodies): no rule can change or
# report anything in another.  The rest of a big driver is blanked in the
# copy coccinelle reads, lines kept, and put back afterwards.
_API_NAMES = set(tqlib.LEGACY) | set().union(*_STAGE_NAMES.values()) | {
    "work_t", "work_struct", "schedule_work", "queue_work", "queue_delayed_work",
    "schedule_delayed_work", "cancel_delayed_work", "flush_scheduled_work",
    "flush_workqueue", "create_workqueue", "destroy_workqueue", "list_entry",
    "sync", "routine"}


_DECLARED = re.compile(r"\b(?:struct (?:tq_struct|work_struct)|work_t)(?: \*| const| volatile)* "
                       r"(\w+)")


# a task or a work declared (tqlib.facts()' code): what --rename collects
# and renames declarations from
DECLARES_TASK = re.compile(r"\bstruct tq_struct \w+ [;=\[,]|\bwork_t \w+|\bDECLARE_WORK\b")


def concern_names(text, members):
    """The names that make a function of text worth coccinelle's time."""
    code = tqlib.facts(text).code
    return _API_NAMES | members | set(_DECLARED.findall(code))


def stage_set(e, stages):
    """The stages (of those given, in order) that can change e."""
    f = tqlib.facts(e.old)
    names = f.names
    out = []
    for st in stages:
        if st == "tqueue-rename.cocci":
            out.append(st)
        elif st == "tqueue-callback-cast.cocci":
            if names & _STAGE_NAMES["tqueue-init.cocci"] and \
                    _CAST_NEAR.search(f.code):
                out.append(st)
        elif names & _STAGE_NAMES[st]:
            out.append(st)
    # one stage at least: the run also says where the parser gives up
    return tuple(out) or ("tqueue-types.cocci",)


def old_tokens(e):
    """tqprep.scan(e.old), once for the text it is now."""
    memo = getattr(e, "_old_toks", None)
    if memo is None or memo[0] is not e.old:
        toks = tqprep.scan(e.old)
        tqprep.pin(e.old, toks, memo and memo[0])
        memo = e._old_toks = (e.old, toks)
    return memo[1]


def prepare(e, members, rename):
    """The copy of e coccinelle reads: constructs it cannot parse hidden,
    bodies of no concern blanked, the tasks of private queues hidden (a
    plain name: coccinelle hands names to a shell).  Done by the job that
    runs the file, so that the first spatch starts before the last file
    is ready.  members: the tree's task-queue members and, with --rename,
    variables (find_candidates).  --rename checks every name of a file
    for conflicts: it reads them in X.full beside the copy, the same text
    with no body blanked, line for line (tqlib.file_tokens)."""
    if e.parsed is not None:
        return
    toks = old_tokens(e)
    e.keep = concern_names(e.old, members)
    e.parsed, e.hidden = tqprep.hide(e.old, toks, KNOWN_MARKERS, e.keep, e.kept_tasks,
                                     e.kept_members, e.typedefs, old_kernel_lines(e.old))
    e.regions = tqprep.regions(e.old, toks)
    with open(e.work, "wb") as f:
        f.write(e.parsed.encode("latin-1"))
    if rename and DECLARES_TASK.search(tqlib.facts(e.old).code):
        # only a file that declares a task or a work has a name whose
        # rename the rules check (a local's), or collect
        with open(e.work + ".full", "wb") as f:
            f.write(full_text(e).encode("latin-1"))
    e.full = None


def full_text(e):
    """e's copy for coccinelle with no body blanked: what --rename checks
    every name against, and collects the tree's names from."""
    if e.full is None:
        e.full, _ = tqprep.hide(e.old, old_tokens(e), KNOWN_MARKERS, None, e.kept_tasks,
                                e.kept_members, e.typedefs, old_kernel_lines(e.old))
    return e.full


_NOT_OTHER = frozenset({"tq_struct", "work_t", "work_struct"})


def other_typed(text, names, cache=None):
    """Of names, those text may declare with a type other than a task's or
    a work's: a name followed by `;`, `,`, `[`, `:`, `)` or `=` and not
    after `.`, `->`, `&` or `struct tq_struct` (or work_t, with or
    without `*`).  Loose on purpose: it may take a call's argument for a
    declaration, never the other way round."""
    out = set()
    for n in names:
        key = (id(text), n)
        if cache is not None and key in cache:
            hit = cache[key]
        else:
            hit = False
            code = tqlib.facts(text).code
            if n in tqlib.facts(text).names:
                for m in re.finditer(r"(\S+) ((?:\* )*)%s (?=[;,\[:)=])" % re.escape(n), code):
                    before = m.group(1)
                    if before in _NOT_OTHER or (not m.group(2) and before in (".", "->", "&")):
                        continue
                    hit = True
                    break
            if cache is not None:
                cache[key] = hit
        if hit:
            out.add(n)
    return out


def typed_members(e, seen, cache, fields=None):
    """The members e's copy for coccinelle reaches (x.m, p->m) that
    --rename may rename and whose type coccinelle may know to be another
    than a task's, from a declaration in that copy or in a header it
    includes: tqueue-rename's @acc_other, which matches every typed
    expression of every function it is given, runs only on those.  fields:
    the members to rename, if known (the tree's map)."""
    code = tqlib.facts(e.parsed).code.split(" ")
    reached = {code[i] for i in range(1, len(code))
               if code[i - 1] in (".", "->") and tqlib.new_name(code[i])}
    if fields is not None:
        reached &= fields
    if not reached:
        return set()
    out = other_typed(e.parsed, reached)
    for p in sorted(seen.reach(os.path.realpath(e.src), e.old)):
        if out == reached:
            break
        out |= other_typed(seen.text(p), reached - out, cache)
    return out
