"""What convert says: the context changes, line numbers mapped to the text
the user reads, and the --stats JSON."""

import difflib
import json
import os
import re

import tqbh
import tqprep

from .output import atomic_write
from .prepare import old_tokens


# What each counted idiom is, for --stats readers (make demo).
IDIOMS = {
    "rename_member": ("tqueue-rename.cocci", "task-queue member renamed as the seed does"),
    "rename_variable": ("tqueue-rename.cocci", "task-queue variable renamed as the seed does"),
    "rename_conflict": ("tqueue-rename.cocci", "rename not done: the new name is taken"),
    "sync_pending": ("tqueue-sync.cocci", "x.sync -> x.pending"),
    "declare_work": ("tqueue-init.cocci",
                     "static/automatic tq_struct initialiser (designated, GNU or positional) "
                     "-> DECLARE_WORK"),
    "init_tqueue": ("tqueue-init.cocci", "INIT_TQUEUE -> INIT_WORK"),
    "prepare_tqueue": ("tqueue-init.cocci", "PREPARE_TQUEUE -> PREPARE_WORK"),
    "manual_init": ("tqueue-init.cocci",
                    "x.routine/x.data (+ list, sync) assignments -> INIT_WORK"),
    "prepare_routine": ("tqueue-init.cocci",
                        "lone x.routine = f on a static -> PREPARE_WORK(&x, f, NULL)"),
    "tq_immediate": ("tqueue-immediate.cocci",
                     "queue_task(tq_immediate) + mark_bh(IMMEDIATE_BH) -> schedule_work"),
    "tq_immediate_apart": ("tqueue-immediate.cocci",
                           "queue_task(tq_immediate) with mark_bh(IMMEDIATE_BH) in another "
                           "function of the file -> schedule_work, the mark_bh dropped"),
    "tq_scheduler": ("tqueue-immediate.cocci", "queue_task(tq_scheduler) -> schedule_work"),
    "tq_timer": ("tqueue-immediate.cocci",
                 "queue_task(tq_timer) -> schedule_delayed_work(x, 1) (unless --tq-timer=keep)"),
    "private_queue": ("tqbh.py",
                      "private task queue drained by a bottom half or the driver's own code "
                      "-> the events queue (or --own-queue), its bottom half freed"),
    "schedule_task": ("tqueue-calls.cocci", "schedule_task -> schedule_work"),
    "flush_scheduled_tasks": ("tqueue-calls.cocci",
                              "flush_scheduled_tasks -> flush_scheduled_work"),
    "queue_work_order": ("tqueue-calls.cocci", "queue_work(work, wq) -> queue_work(wq, work)"),
    "callback_cast": ("tqueue-callback-cast.cocci",
                      "void f(struct foo *) callback -> void f(void *), casts dropped"),
    "routine_func": ("tqueue-types.cocci", "x.routine -> x.func (2.5.41's name)"),
    "work_t": ("tqueue-types.cocci", "struct tq_struct -> struct work_struct"),
    "include": ("tqueue-types.cocci", "#include <linux/tqueue.h> -> <linux/workqueue.h>"),
}


_QUEUES_WORK = re.compile(r"\b(?:schedule_work|schedule_delayed_work|queue_work|"
                          r"queue_delayed_work)\b")


_WHY_SWITCHED = {
    "tq_immediate": "ran in the immediate bottom half (IMMEDIATE_BH), now in process "
                    "context (events)",
    "tq_timer": "ran in the timer interrupt's bottom half at the next tick, now in process "
                "context (events) a tick later, schedule_delayed_work(%s, 1)",
    "tq_scheduler": "ran from schedule(), in whichever process called it (2.2's "
                    "tq_scheduler), now on the events queue's worker",
}


def switched(e):
    """[(line, task, queue)] of the queue_task() calls on tq_immediate and
    tq_timer of e.old that are gone from e.new: work now.  Found in the
    texts, not in what the semantic patch says: its line is not the
    file's once an earlier rule (--rename) edited the function."""
    if e.new == e.old or not any(q in e.old for q in _WHY_SWITCHED):
        return []

    def calls(text):
        if not any(q in text for q in _WHY_SWITCHED):
            return []
        # e.old's tokens are scanned once (prepare.old_tokens)
        toks = old_tokens(e) if text is e.old else tqprep.scan(text)
        out = []
        for i, (lo, hi), _, queue in tqprep.queue_task_calls(toks):
            if queue in _WHY_SWITCHED and hi > lo:
                out.append((toks[i].line, re.sub(r"\s+", "", text[toks[lo].start:toks[hi - 1].end]),
                            queue))
        return out
    left = {}
    for _, task, queue in calls(e.new):
        left[(task, queue)] = left.get((task, queue), 0) + 1
    out = []
    for line, task, queue in calls(e.old):
        if left.get((task, queue)):
            left[(task, queue)] -= 1
        elif not left or sum(n for (_, q), n in left.items() if q == queue) == 0:
            out.append((line, task, queue))
    return out


def context_changes(cands):
    """e.moves for the tq_immediate and tq_timer tasks that became work:
    `routine: tq_timer -> events: why`, the routine found where the task
    is set up (this file first, then the others)."""
    texts = None
    for e in cands:
        for line, task, queue in switched(e):
            if texts is None:
                texts = [c.orig for c in cands]
            routine = tqbh._routine_of([e.orig], texts, task)
            why = "%s %s" % (task, _WHY_SWITCHED[queue] % task if "%s" in
                             _WHY_SWITCHED[queue] else _WHY_SWITCHED[queue])
            if routine:
                e.moves.append((line, "%s: %s -> events: %s" % (routine, queue, why)))
            else:
                e.notes.append((line, "%s %s" % (tqbh.unknown_routine(task),
                                                 why[len(task) + 1:])))


def line_map(old, new):
    """Map a line number of new text to the same line in old text."""
    a, b = old.splitlines(), new.splitlines()
    table = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for k in range(j1, j2):
            # in a changed block, the same offset as far as the old text goes
            table[k + 1] = min(i1 + (k - j1), max(i1, i2 - 1)) + 1
    return lambda n: table.get(n, n)


def lazy_line_map(old, new):
    """line_map(old, new), computed the first time it is used (difflib on
    a 5,000-line file is slow, and most files have nothing to map)."""
    cache = []

    def where(n):
        if not cache:
            cache.append(line_map(old, new))
        return cache[0](n)
    return where


def write_stats(path, entries, cands, problems, nres, nkept, nnotes, runner, elapsed):
    files = {}
    totals = {}
    for e in cands:
        for k, v in e.rules.items():
            totals[k] = totals.get(k, 0) + v
        if e.failed:
            status = "partly-converted" if e.new != e.orig else "failed-to-parse"
        else:
            status = "converted" if e.new != e.orig else "unchanged"
        files[e.shown] = {
            "status": status,
            "candidate": e.candidate,
            "rules": dict(sorted(e.rules.items())),
            "residue": [{"line": ln, "rule": i, "reason": m}
                        for ln, i, m in sorted(set(e.residue))],
            "kept": [{"line": ln, "rule": i, "reason": m} for ln, i, m in sorted(set(e.kept))],
            "notes": [{"line": ln, "reason": m} for ln, m in sorted(set(e.notes))],
            "unparsed": [{"line": ln, "what": w, "near": n} for ln, w, n in e.unparsed],
            "renames_kept": [{"line": ln, "reason": m} for ln, m in sorted(e.conflicts)],
            "context_changes": [{"line": ln, "move": m} for ln, m in sorted(set(e.moves))],
            "blocked": [{"line": ln, "reason": m} for ln, m in e.blocked],
        }
        if e.gave_up:
            files[e.shown]["gave_up"] = e.gave_up
    doc = {
        "version": 2,
        "idioms": {k: {"cocci": c, "what": w} for k, (c, w) in IDIOMS.items()},
        "files": files,
        "totals": {
            "files_seen": len(entries),
            "skipped": len(entries) - len(cands),
            "candidates": len(cands),
            "converted": sum(1 for e in cands if e.new != e.orig),
            "unchanged": sum(1 for e in cands if e.new == e.orig),
            "failed_to_parse": sum(1 for e in cands if e.failed),
            "partly_converted": sum(1 for e in cands if e.failed and e.new != e.orig),
            "residue": nres,
            "kept": nkept,
            "notes": nnotes,
            "context_changes": sum(len(set(e.moves)) for e in cands),
            "blocked": sum(1 for e in cands if e.blocked),
            "skipped_paths": len(problems),
            "rules": dict(sorted(totals.items())),
            "spatch_runs": runner.runs,
            "spatch_peak_rss_kb": runner.peak_kb,
            "spatch_cpu_seconds": {k: round(v, 1) for k, v in sorted(runner.cpu.items())},
            "seconds": round(elapsed, 3),
        },
    }
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    atomic_write(path, json.dumps(doc, indent=2, sort_keys=True) + "\n")
