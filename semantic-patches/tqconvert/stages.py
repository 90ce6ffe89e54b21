"""The spatch groups run: every candidate through the conversion, its text
put back together, then the residue check (Job, run_stages)."""

import json
import os
import threading

import tqlib
import tqprep

from .prepare import (DECLARES_TASK, concern_names, old_tokens, prepare, stage_set,
                      typed_members)
from . import renames
from .renames import rename_map
from .residue import needs_residue_check
from .spatch import (_EXN, VERBOSE, Chunk, combine, make_chunks, parse_errors, run_all,
                     stats_lines)
from .tidy import tidy
from .common import HERE, MACROS, RESIDUE, STAGES, KNOWN_MARKERS, SpatchError, err
from .compat import old_kernel_lines


class Job:
    """Everything one conversion needs to run spatch on groups of files."""

    def __init__(self, args, runner, incs, tmp, by_work, progress):
        self.args = args
        self.runner = runner
        self.incs = incs
        self.tmp = tmp
        self.by_work = by_work
        self.progress = progress
        self.env = {}
        self.sps = {}           # stages -> combined semantic patch
        self.counter = [1000]
        self.lock = threading.Lock()
        self.seen = None            # Includes: what each file includes
        self.typed_cache = None     # --rename: other_typed() of the headers
        self.rmap = None            # --rename: the tree's map (renames.rename_map)

    def base(self, chunk, parse_errors=False, includes=True):
        # the conversion run also says where the parser gave up
        quiet = ["--quiet", "--parse-error-msg", "--verbose-parsing"] if parse_errors \
            else ["--very-quiet"]
        cmd = quiet + ["--no-show-diff", "--timeout", str(self.args.timeout), "--no-loops",
                       "--macro-file", MACROS]
        if not includes:
            return cmd + ["--no-includes"]
        cmd += ["--include-headers-for-types", "--all-includes"]
        dirs = list(self.incs)
        for e in chunk.entries:
            d = os.path.dirname(os.path.abspath(e.src))
            if d not in dirs:
                dirs.insert(0, d)
        for d in dirs:
            cmd += ["-I", d]
        return cmd

    def wall(self, chunk):
        return 60 + self.args.timeout * (len(chunk.entries) + 2)

    def run(self, chunk, args, env=None, parse_errors=False, step="spatch", includes=True):
        rc, text, kb, why = self.runner.spatch(self.base(chunk, parse_errors, includes) + args,
                                               env or self.env, self.wall(chunk), step)
        if VERBOSE[0]:
            err("  (%s: %s)" % (step, ", ".join(e.shown for e in chunk.entries)))
        return rc, text, why

    def sp_for(self, stages):
        with self.lock:
            if stages not in self.sps:
                self.sps[stages] = combine(stages, os.path.join(
                    self.tmp, "convert.%d.cocci" % len(self.sps)))
            return self.sps[stages]

    def split(self, chunk):
        if len(chunk.entries) == 1:
            return None
        half = len(chunk.entries) // 2
        with self.lock:
            self.counter[0] += 2
            n = self.counter[0]
        return [Chunk(chunk.entries[:half], self.tmp, n - 1),
                Chunk(chunk.entries[half:], self.tmp, n)]

    # -------------------------------------------------------------- stages

    def parse_check(self, text):
        """Where coccinelle's parser gave up, from the conversion run's
        messages: the top-level element (function, declaration) named."""
        for e, errs in parse_errors(text, self.by_work).items():
            for line, near in errs:
                r = tqprep.region_at(e.regions, line)
                if r is not None and r.kind == "directive":
                    continue        # a #define body: the code that uses it parses
                what = r.describe() if r else "line %d" % line
                if not any(u[1] == what for u in e.unparsed):
                    e.unparsed.append((line, what, near))

    def convert(self, chunk):
        """The conversion proper: spatch writes X.tqnew next to each copy
        it changes."""
        for e in chunk.entries:
            prepare(e, self.members, self.args.rename)
            if self.rmap is not None and e.parsed is not None and e.renamed is None:
                self.rename(e)
        sp = self.sp_for(chunk.stages)
        cmd = ["-D", "patch"] + self.extra + ["--out-place", "--suffix", ".tqnew",
                                              "--sp-file", sp, "--file-groups", chunk.groups]
        rc, text, why = self.run(chunk, cmd, parse_errors=True, step="convert")
        if why:
            return why
        if rc != 0:
            raise SpatchError("spatch failed (exit %d) on %s:\n%s" % (
                rc, ", ".join(e.shown for e in chunk.entries),
                "\n".join(text.strip().splitlines()[-15:])))
        if ('File "%s"' % sp) in text:
            # spatch says so, and exits 0: a semantic patch that does not parse
            raise SpatchError("the semantic patch does not parse:\n%s" % text[
                text.index('File "%s"' % sp):][:400])
        self.parse_check(text)
        for m in _EXN.finditer(text):
            e = self.by_work.get(m.group(2))
            if e is not None:
                e.gave_up = "coccinelle gave up (%s)" % (
                    "no result within --timeout %d s" % self.args.timeout
                    if "Timeout" in m.group(1) else m.group(1).strip())

        def count(e, kind, idiom, line, msg):
            if kind in ("conv", "conflict", "note"):
                e.rules[idiom] = e.rules.get(idiom, 0) + 1
            if kind == "conflict":
                e.conflicts.append((line, msg))
            elif kind == "note" and idiom != "tq_timer":
                # a tq_timer made delayed work is said as a context change
                e.notes.append((line, msg))
        stats_lines(text, self.by_work, count)
        for e in chunk.entries:
            for kind, idiom, line, msg in e.renamed or ():
                count(e, kind, idiom, line, msg)
        return None

    def rename(self, e):
        """--rename's renames in the copy coccinelle reads (renames.edits),
        said as tqueue-rename's rules said them; the members whose type
        coccinelle may know to be another (X.typed, found before the
        renames) are left to the rules, told where a kept task's are
        (X.kept)."""
        # a flag is an integer, its type is never a task's: not the rules'
        typed = typed_members(e, self.seen, self.typed_cache,
                              set(self.rmap["fields"]) - set(self.rmap.get("flags", ())))
        with open(e.work + ".typed", "w") as f:
            f.write("".join(n + "\n" for n in sorted(typed)))
        toks = old_tokens(e)
        kept = renames.kept_starts(toks, e.kept_tasks, e.kept_members, e.typedefs)
        # a file that declares no task nor work has no declarator to rename
        decl = renames.declared_tokens(None, toks) if DECLARES_TASK.search(
            tqlib.facts(e.old).code) else []
        e.renamed = renames.notes(decl, self.rmap, e.hidden, kept) + \
            renames.habit_notes(toks, self.rmap, e.hidden)
        todo = renames.edits(toks, decl, self.rmap, e.hidden, typed, kept)
        if "DECLARE_COMPLETION" in e.old or "completion" in e.old:
            more, said = renames.local_clashes(toks, e.hidden)
            if more:
                taken = {a for a, _, _ in todo}
                todo += [x for x in more if x[0] not in taken]
                e.renamed += said
        if typed and kept:
            # the rules rename the accesses to typed members, not a kept
            # task's: where it stands in the copy they read
            at = renames.columns(e.old, [t.start for t in toks
                                         if t.start in kept and t.val in typed], todo)
            with open(e.work + ".kept", "w") as f:
                f.write("".join("%d:%d\n" % lc for lc in at))
        if todo:
            e.parsed, e.hidden = tqprep.rewrite(e.old, e.hidden, todo)
            e.prerenamed = True
            with open(e.work, "wb") as f:
                f.write(e.parsed.encode("latin-1"))

    def finish(self, chunk):
        """The converted text of each file: hidden constructs put back,
        spatch's leftovers tidied; then the copy coccinelle will check for
        residue."""
        for e in chunk.entries:
            out = e.parsed
            if os.path.exists(e.work + ".full"):
                # the residue check reads the converted text's names
                os.unlink(e.work + ".full")
            for extra in (".typed", ".kept"):
                if os.path.exists(e.work + extra):
                    os.unlink(e.work + extra)
            if os.path.exists(e.work + ".tqnew"):
                with open(e.work + ".tqnew", "rb") as f:
                    out = f.read().decode("latin-1")
                os.unlink(e.work + ".tqnew")
            if e.gave_up or (e.unparsed and self.args.no_partial):
                # not the private queues' rewrite alone: it needs the rest
                e.new = e.orig
            elif out == e.parsed and not e.prerenamed:
                e.new = e.old
            else:
                restored, problems = tqprep.restore(e.parsed, out, e.hidden)
                e.new = tidy(e.old, restored)
                for line, msg in problems:
                    e.residue.append((line, "hidden_construct", msg))
            # the residue check parses again only the converted texts with
            # something it could report: the others need no copy for it
            e.check = not e.gave_up and needs_residue_check(
                e.new, concern_names(e.new, self.members))
            if not e.check:
                continue
            if e.new != e.old:
                # .func: the residue rules look at work whose routine is set
                keep = None if e.keep is None else \
                    e.keep | concern_names(e.new, set()) | {"func"}
                parsed, _ = tqprep.hide(e.new, known=KNOWN_MARKERS, keep=keep,
                                        dead=old_kernel_lines(e.new))
            else:
                parsed = e.parsed
            with open(e.work, "wb") as f:
                f.write(parsed.encode("latin-1"))

    def residue(self, chunk):
        cmd = ["-D", "report", "-D", "stats", "-D", "convert", "--sp-file", self.residue_sp,
               "--file-groups", chunk.groups]
        rc, text, why = self.run(chunk, cmd, step="residue")
        if why:
            return why
        if rc != 0:
            raise SpatchError("spatch failed (exit %d) on %s:\n%s" % (
                rc, ", ".join(e.shown for e in chunk.entries),
                "\n".join(text.strip().splitlines()[-15:])))

        def sink(e, kind, idiom, line, msg):
            if kind == "residue":
                e.residue.append((line, idiom, msg))
            elif kind == "kept":
                e.kept.append((line, idiom, msg))
        stats_lines(text, self.by_work, sink)
        return None

    def process(self, chunk):
        """One group of files through every step.  A group whose spatch
        grew too big or too slow is run again in halves; one file alone
        that still does is given up."""
        why = self.convert(chunk)
        if why:
            return self.retry(chunk, why)
        self.finish(chunk)
        self.progress.add(len(chunk.entries), sum(1 for e in chunk.entries if e.failed))

    def check(self, chunk):
        """The residue check of a group of converted files."""
        why = self.residue(chunk)
        if why:
            for e in chunk.entries:
                e.notes.append((1, "residue check incomplete: spatch %s" % why))
        self.progress.add(len(chunk.entries), 0)

    def retry(self, chunk, why):
        for e in chunk.entries:
            e.unparsed = []
            e.rules = {}
            e.notes = [n for n in e.notes if n[1].startswith("context change")]
            e.conflicts = []
            if os.path.exists(e.work + ".tqnew"):
                os.unlink(e.work + ".tqnew")
        halves = self.split(chunk)
        if halves is None:
            e = chunk.entries[0]
            e.gave_up = "spatch %s on this file alone (--max-memory %d, --timeout %d)" % (
                why, self.args.max_memory, self.args.timeout)
            e.new = e.orig
            self.progress.add(1, 1)
            return
        for c in halves:
            self.process(c)


def run_stages(args, jobs, job, cands, pool, tmp):
    stages = [st for st in STAGES if args.rename or st != "tqueue-rename.cocci"]
    for e in cands:
        e.stages = stage_set(e, stages)
    chunks = make_chunks(cands, jobs, tmp, [0])
    job.env = {}
    job.extra = ["-D", "stats"]
    if args.tq_timer == "delayed":
        job.extra += ["-D", "tq_timer_delayed"]
    if args.rename:
        # the renames of members and file-scope variables made here, over
        # the whole tree (renames.edits); only a file that declares a task
        # or a work has a name to collect (tqueue-rename's @mem and @var)
        job.extra += ["-D", "rename", "-D", "renamed"]
        decl = [e for e in cands if DECLARES_TASK.search(tqlib.facts(e.old).code)]
        job.rmap = rename_map(decl, cands)
        path = os.path.join(tmp, "rename-map.json")
        with open(path, "w") as f:
            json.dump(job.rmap, f)
        job.env["TQ_RENAME_MAP"] = path
        job.typed_cache = {}
    job.residue_sp = os.path.join(HERE, RESIDUE)
    run_all(pool, job.process, chunks)
    # converted files with something the residue rules could report are
    # parsed again, in groups of their own: a spatch run costs a second
    # to start, whatever it is given
    check = [e for e in cands if e.check]
    job.progress.phase("residue check", len(check))
    run_all(pool, job.check, make_chunks(check, jobs, tmp, job.counter))
