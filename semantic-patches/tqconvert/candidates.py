"""Which files coccinelle must see (find_candidates), the private task
queues a workqueue takes over (private_queues, with tqbh), and the tasks
that stay on a private queue (private_tasks)."""

import os
import re

import tqbh
import tqlib
import tqprep

from . import family, renames, tail
from .prepare import old_tokens


_TQ_MEMBER = re.compile(r"\bstruct\s+tq_struct\s*\**\s*(\w+)\s*(?:\[[^]\n]*\]\s*)?[;,]")


_STRUCT_TAG = re.compile(r"\bstruct\s+(\w+)\s*\{")


def words_pattern(words):
    """An alternation matching exactly the words, their common prefixes
    factored out (bh, bh_1, bh_pointer: bh(?:_(?:1|pointer))?): Python's
    regular expressions try every alternative at every position, and a
    file most of whose positions start none of the words is then passed
    over a character at a time, not a word at a time."""
    tree = {}
    for w in words:
        node = tree
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node):
        alts = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:%s)" % "|".join(alts)
        return "(?:%s)?" % body if "" in node else body
    return emit(tree)


def private_tasks(cands, includes):
    """Each candidate's e.kept_tasks, {name: queue}, and e.kept_members,
    {(struct tag, member): queue}, of the tasks queued on private task
    queues (tqprep.private_tasks()).  A member is kept where its structure
    is declared (the file queuing it, or a header it includes, directly
    or not) and in every candidate that sees that declaration."""
    by_real = {os.path.realpath(e.src): e for e in cands}
    seen = {}           # entry -> [entries it sees: itself, its includes]
    tags = {}           # entry -> {struct tags it declares}
    typedefs = {}       # entry -> {typedef name: struct tag} it declares
    toks = {}           # entry -> its tokens, for the files that queue tasks
    for e in cands:
        real = os.path.realpath(e.src)
        seen[e] = [e] + [by_real[p] for p in sorted(includes.reach(real, e.old))
                         if p in by_real]
        tags[e] = set(_STRUCT_TAG.findall(e.old))
        queues = "queue_task" in tqlib.facts(e.old).names
        if queues or "typedef" in e.old:
            t = old_tokens(e)
            typedefs[e] = tqprep.typedef_tags(t)
            if queues:
                toks[e] = t
        else:
            typedefs[e] = {}
    for e in cands:
        e.typedefs = {}
        for d in seen[e]:
            e.typedefs.update(typedefs[d])
    declared = {}       # (declaring entry, tag, member) -> queue
    for e, t in toks.items():
        e.kept_tasks, mine = tqprep.private_tasks(t, e.typedefs)
        found = set()
        for (tag, member), q in mine.items():
            for d in seen[e]:
                if tag in tags[d]:
                    declared.setdefault((d, tag, member), q)
                    found.add(member)
        # a task declared neither here nor in a structure found through
        # the variable's type (a chain of members, a type not seen): its header
        # may well turn it into work_t, so it is not reported as kept
        code = tqlib.facts(e.old).code
        for name, q in e.kept_tasks.items():
            if name not in found and not re.search(
                    r"\bstruct tq_struct (?:\* )*%s\b" % re.escape(name), code):
                e.unknown_tasks[name] = q
    for e in cands:
        e.kept_members = {(tag, m): q for (d, tag, m), q in declared.items() if d in seen[e]}


def shared_task_variables(text, toks=None):
    """The task-queue variables text declares at file scope that another
    file may name and --rename renames: not static, not members (a
    member of a structure is found by its structure), and with a new name
    (tq_hangup, not timer).  toks: tqprep.scan(text), if made already."""
    if toks is None:
        toks = tqprep.scan(text)
    out = set()
    start = 0
    for i, t, depth, pdepth in tqprep._depths(toks):
        if depth or pdepth:
            continue
        if t.val in (";", "}", "{"):
            start = i + 1
            continue
        if t.val == "tq_struct" and i and toks[i - 1].val == "struct" and \
                i + 2 < len(toks) and toks[i + 1].kind == "ident" and \
                toks[i + 2].val in (";", "=", ",", "[") and \
                not any(x.val == "static" for x in toks[start:i]) and \
                tqlib.new_name(toks[i + 1].val):
            out.add(toks[i + 1].val)
    return out


def find_candidates(entries, seen, rename):
    """Mark the entries coccinelle must see (e.candidate = why) and read
    them.  A file is a candidate if it uses the task-queue API in code,
    or if it reaches (x.m, p->m) a task-queue member m of a structure
    declared in a candidate header it includes, directly or not; with
    --rename also if it names a task-queue variable of another candidate.
    Returns the names of those members."""
    for e in entries:
        if e.old is None:
            continue
        if tqprep.mentions_api(e.data) and tqprep.legacy_lines(e.old):
            e.candidate = "task-queue API"
        elif b"queue_work" in e.data and \
                "queue_work" in tqlib.facts(e.old).names:
            # the seed's queue_work(work, wq) is put in the article's order
            e.candidate = "queue_work() call"
    headers = [e for e in entries if e.candidate and e.src.endswith(".h")]
    members = {}        # member name -> {header realpath}
    for h in headers:
        code = tqlib.facts(h.old).code
        for m in _TQ_MEMBER.finditer(code):
            members.setdefault(m.group(1), set()).add(os.path.realpath(h.src))
    globals_ = set()
    flag_members = set()
    if rename:
        for e in entries:
            if e.candidate and "tq_struct" in e.old:
                # its tokens, kept with it: habits() and the steps after
                # it scan the same text
                globals_ |= shared_task_variables(e.old, old_tokens(e))
        # the maintainers' names: a file that calls a renamed routine or
        # helper, or names a renamed flag, is renamed too
        h = renames.habits([e for e in entries if e.candidate])
        globals_ |= set(h["functions"]) | set(h["flag_globals"])
        flag_members = set(h["flag_fields"])
        for name in flag_members:
            members.setdefault(name, set())
    if not members and not globals_:
        return set()
    by_real = seen.by_real
    mem_re = re.compile(r"(?:\.|->)\s*(%s)\b" % "|".join(map(re.escape, sorted(members)))) \
        if members else None
    glob_re = re.compile(r"\b(%s)\b" % words_pattern(globals_)) \
        if globals_ else None
    for e in entries:
        if e.candidate or e.old is None:
            continue
        if flag_members and not e.candidate:
            names = tqlib.facts(e.old).names & flag_members if \
                any(m in e.old for m in flag_members) else set()
            if names:
                e.candidate = "names the flag %s" % sorted(names)[0]
                continue
        if mem_re is not None:
            hit = mem_re.search(e.old)
            if hit:
                code = tqlib.tokens(e.old)
                names = set()
                for i in range(1, len(code)):
                    if code[i - 1][1] in (".", "->") and code[i][1] in members:
                        names.add(code[i][1])
                if names:
                    reached = seen.reach(os.path.realpath(e.src), e.old)
                    for name in sorted(names):
                        decl = members[name] & reached
                        if decl:
                            h = by_real[sorted(decl)[0]]
                            e.candidate = "uses task-queue member %s of %s" % (name, h.shown)
                            break
        if not e.candidate and glob_re is not None and glob_re.search(e.old):
            names = tqlib.facts(e.old).names & globals_
            if names:
                e.candidate = "names task-queue variable %s" % sorted(names)[0]
    # --rename: a function that names a task-queue variable of another
    # file concerns the task queue too (tqueue-rename renames it there)
    return set(members) | globals_


def private_queues(args, cands, seen=None):
    """The private task queues that a workqueue can take over, rewritten
    (tqbh) before anything else sees the candidates: their tasks then
    convert like any other.  What changes context is kept per routine
    (e.moves), what stays a task queue with its reason (e.bh_kept), a
    drain left to do by hand (e.drains).  seen: what each file includes
    (inputs.Includes), for the tasks a header queues on tq_timer."""
    mode = "keep" if args.keep_private_queues else "own" if args.own_queue else "events"
    includes = {}
    if seen is not None:
        by_real = {os.path.realpath(e.src): e for e in cands}
        for e in cands:
            if "run_task_queue" in e.old:
                includes[e.shown] = [by_real[p].shown for p in sorted(
                    seen.reach(os.path.realpath(e.src), e.old)) if p in by_real]
    texts = {e.shown: e.old for e in cands}
    plan = tqbh.plan(texts, mode, args.tq_timer == "delayed", includes)
    tail.plan(texts, plan)
    family.plan(texts, plan)
    for e in cands:
        e.bh_kept = plan.kept.get(e.shown, {})
        e.drains = plan.residue.get(e.shown, [])
        edits = plan.edits.get(e.shown)
        if not edits:
            continue
        e.old, where = tqbh.apply(e.orig, edits)

        def line(off, text=e.old, where=where):
            return text.count("\n", 0, where(off)) + 1
        for off, move in plan.moves.get(e.shown, ()):
            e.moves.append((line(off), move))
        for off, msg in plan.notes.get(e.shown, ()):
            e.notes.append((line(off), msg))
    for key, q, target, freed in plan.converted:
        for e in cands:
            if e.shown == key:
                e.rules["private_queue"] = e.rules.get("private_queue", 0) + 1
