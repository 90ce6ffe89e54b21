"""compare - the rules a scenario's runs are held to, for the judge.

What a run shows by itself (run_problems: it ended, no BUG, oops or
hang, the kernel warned of nothing, every invariant held, nothing
leaked, every queued work ran once) and what its monitor says of each
work routine (merge_profiles) are read here; whether the converted
side's showing them is a difference is the judge's (judge.py:
refinement, a legacy witness).  Decided here, as structure rather than
behaviour (compare_scenario's findings, which the judge takes as they
are):
  - where each routine runs (queue or bottom half) is where the legacy
    side ran it, keventd becoming events, or where a declaration moves it;
  - every flush call site still waits for every routine it waited for;
  - no routine runs concurrently with itself unless declared so.
A declared move that happened makes a scenario "intended".  Concurrency
the conversion adds (two routines that keventd ran one after the other
now overlapping) is listed, not judged (the race check is).
"""
import re

import declarations as decl_mod

CTX_ORDER = ("process", "bottom half", "hard irq", "timer")


class Finding:
    """Something that differs: DIFFERENT unless a declaration allows it."""

    def __init__(self, kind, text, intended=False, decl=None):
        self.kind = kind
        self.text = text
        self.intended = intended
        self.decl = decl  # the declaration that makes it intended

    def __repr__(self):
        return "%s: %s" % (self.kind, self.text)


def run_problems(side, res, monitor_expected=True):
    """What went wrong in one run by itself."""
    out = []
    if res.rc == "timeout":
        return ["%s: timed out" % side]
    if isinstance(res.rc, int) and res.rc < 0:
        why = last_bug(res.stderr) or "killed by signal %d" % -res.rc
        return ["%s: %s" % (side, why)]
    scn, mon = res.scenario, res.monitor
    if not scn:
        bug = last_bug(res.stderr)
        return ["%s: exit %s without a report%s" % (side, res.rc, (": " + bug) if bug else "")]
    warning = kernel_warning(res.stderr)
    if warning:
        out.append("%s: %s" % (side, warning))
    why = scn.get("why") or {}
    for k, v in (scn.get("invariants") or {}).items():
        if not v:
            out.append("%s: invariant %s broken%s" % (side, k, " (%s)" % why[k]
                                                      if why.get(k) else ""))
    if scn.get("leaks"):
        out.append("%s: %d allocations leaked" % (side, scn["leaks"]))
    if mon:
        if mon.get("never_ran"):
            out.append("%s: %d queued works never ran" % (side, mon["never_ran"]))
        if mon.get("queued") != mon.get("ran"):
            out.append("%s: %s works queued, %s ran" % (side, mon.get("queued"),
                                                        mon.get("ran")))
    elif monitor_expected:
        out.append("%s: no monitor report" % side)
    return out


def alike(problem):
    """A run's problem less its side and its numbers: what makes a failure
    on both sides one and the same (the driver's own, not the conversion's:
    "legacy: invariant no_leaks broken" and "converted: ...")."""
    text = problem.split(": ", 1)[1] if problem.startswith(("legacy: ", "converted: ")) \
        else problem
    # an oops prints its address as bare hex ("virtual address
    # 7f3850108152"), which differs from run to run as any address does
    return re.sub(r"0x[0-9a-f]+|\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b|\d+", "N", text)


def split_alike(legacy, converted):
    """(what fails alike on both sides, what fails on one only): each
    problem of either side, the former as one line for both."""
    common = {alike(p) for p in legacy} & {alike(p) for p in converted}
    both = []
    for p in legacy:
        if alike(p) in common and p.split(": ", 1)[-1] not in both:
            both.append(p.split(": ", 1)[-1])
    one = [p for p in legacy + converted if alike(p) not in common]
    return both, one


def last_bug(text):
    """The kernel's own words for a crash, if it said any: its first line
    that says what went wrong (a BUG's message before "kernel BUG at")."""
    lines = []
    for line in (text or "").splitlines():
        line = line.strip()
        if line.startswith("<") and line[2:3] == ">":
            line = line[3:]
        lines.append(line)
    at = next((line for line in lines if line.startswith("EIP is at ")), None)
    for kinds in (("BUG:", "Oops", "Unable to handle", "Kernel panic",
                   "Slab corruption"), ("kernel BUG", "WARNING:"),
                  # the C library's heap, found corrupted (an abort)
                  ("malloc(): ", "free(): ", "double free", "corrupted size",
                   "munmap_chunk(): ", "realloc(): ")):
        for line in lines:
            if line.startswith(kinds):
                # where, as the runner found it (runner.oops_at)
                return line + ("; " + at if at and kinds[0] == "BUG:" else "")
    return None


# what the kernel says when it reports a bug and goes on
WARNINGS = ("WARNING:", "slab error", "Slab corruption")


def kernel_warning(text):
    """The first line of a kernel warning in a run's output, if any
    (ThreadSanitizer's reports are the race check's)."""
    for line in (text or "").splitlines():
        line = line.strip()
        if line.startswith("<") and line[2:3] == ">":
            line = line[3:]
        if line.startswith(WARNINGS) and not line.startswith("WARNING: ThreadSanitizer"):
            return line
    return None


def first_difference(a, b, path=""):
    if type(a) != type(b):
        return path, a, b
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return path + "." + k, a.get(k, "(missing)"), b.get(k, "(missing)")
            d = first_difference(a[k], b[k], path + "." + k)
            if d:
                return d
        return None
    if a != b:
        return path, a, b
    return None


def merge_profiles(monitors):
    """One profile per routine over several runs (seeds) of a side."""
    out = {}
    for mon in monitors:
        for name, r in ((mon or {}).get("routines") or {}).items():
            m = out.setdefault(name, {"queued": 0, "ran": 0, "queued_from": {},
                                      "asked_from": {}, "asked_by_itself": 0,
                                      "ran_in": {}, "queues": {}, "self_concurrent": 0,
                                      "self": [], "runs": 0})
            m["runs"] += 1
            for k in ("queued", "ran", "self_concurrent", "asked_by_itself"):
                m[k] += r.get(k, 0)
            for k in ("queued_from", "asked_from", "ran_in", "queues"):
                for x, n in (r.get(k) or {}).items():
                    m[k][x] = m[k].get(x, 0) + n
            m["self"] += r.get("self") or []
    return out


def fmt_counts(d):
    return ", ".join("%s %d" % (k, d[k]) for k in sorted(d)) if d else "none"


def compare_profiles(legacy, converted, exact, decls, also=None, structural=False):
    """Findings about the routines (steps 3, 4 and 6); @also: {side:
    routines further runs of that side ran}.  @structural: only where
    each runs and whether it ran beside itself (the judge, judge.py,
    takes how often, from where and whether it ran at all as features
    of each run, with a legacy witness)."""
    out = []
    for name in sorted(set(legacy) | set(converted)):
        lo, co = legacy.get(name), converted.get(name)
        if not lo or not co:
            if structural:
                continue
            side, p = ("legacy", lo) if lo else ("converted", co)
            other = "converted" if lo else "legacy"
            if name in (also or {}).get(other, ()):
                continue
            out.append(Finding("routine", "%s runs on the %s side only (queued %d times, "
                                          "ran %d)" % (name, side, p["queued"], p["ran"])))
            continue
        if not structural and (exact is None or name in exact) and \
                lo["asked_from"] != co["asked_from"]:
            out.append(Finding("count", "%s was asked to be queued from %s on the legacy "
                               "side, from %s converted" % (
                                   name, fmt_counts(lo["asked_from"]),
                                   fmt_counts(co["asked_from"]))))
        if not structural and bool(lo["asked_by_itself"]) != bool(co["asked_by_itself"]):
            out.append(Finding("requeue", "%s queues itself again from its own run %d times "
                               "on the legacy side, %d converted" % (
                                   name, lo["asked_by_itself"], co["asked_by_itself"])))
        expected = decl_mod.expected_places(set(lo["queues"]), name, decls)
        moved = set(co["queues"]) - expected
        if moved:
            out.append(Finding("place", "%s runs on %s; the legacy side ran it on %s and "
                               "no declaration moves it there" %
                               (name, "/".join(sorted(moved)), "/".join(sorted(lo["queues"])))))
        for d in decls:
            if d.kind == "move" and d.routine == name and d.to in co["queues"] and \
                    any(decl_mod.moves_from(d, q) for q in lo["queues"]):
                out.append(Finding("place", "%s: %s -> %s, as declared (%s)" %
                                   (name, d.frm, d.to, d.where), intended=True, decl=d))
        if co["self_concurrent"]:
            where = co["self"][0] if co["self"] else {}
            d = decl_mod.self_declaration(name, decls)
            text = ("%s ran concurrently with itself %d times (first on CPUs %s at "
                    "%s us)" % (name, co["self_concurrent"],
                                " and ".join(map(str, where.get("cpus", []))),
                                where.get("at_us", "?")))
            out.append(Finding("self", text + (", as declared (%s)" % d.where if d else ""),
                               intended=d is not None, decl=d))
    return out


def sites_by_function(monitors):
    """Flush call sites by the function they are in: what each covered."""
    out = {}
    for mon in monitors:
        for s in (mon or {}).get("flushes") or []:
            fn = s.get("function") or s["site"].split("+")[0]
            m = out.setdefault(fn, {"covers": {}, "elsewhere": {}, "queues": [],
                                    "calls": 0, "where": [], "may_cover": {},
                                    "may_elsewhere": {}})
            m["calls"] += s["calls"]
            if s["queue"] not in m["queues"]:
                m["queues"].append(s["queue"])
            if s.get("where") and s["where"] not in m["where"]:
                m["where"].append(s["where"])
            for r, n in s["covers"].items():
                m["covers"][r] = m["covers"].get(r, 0) + n
            for r, q in s["elsewhere"].items():
                m["elsewhere"][r] = q
            for r, n in (s.get("may_cover") or {}).items():
                m["may_cover"][r] = m["may_cover"].get(r, 0) + n
            for r, q in (s.get("may_elsewhere") or {}).items():
                m["may_elsewhere"][r] = q
    return out


def compare_flushes(legacy, converted, timing_free=False):
    """Step 5: every legacy flush site still covers what it covered.

    What a flush found on its queue when it started is the moment's timing.
    In a single-threaded scenario (timing_free) a site also covers what was
    queued since its previous call, on either side, so that a flush of the
    wrong queue shows whether or not the work happened to be done already.
    That wider coverage only excuses: a legacy site is held only to what it
    found on its queue, because keventd's flush also waited, by accident,
    for every other driver's work queued since (the tty's hook for the
    console's callback), which a queue of its own rightly takes away."""
    out = []
    for fn in sorted(legacy):
        lo = legacy[fn]
        moment = lo["covers"]
        if timing_free:
            lo = dict(lo, covers=dict(lo["covers"], **lo.get("may_cover", {})))
        if not lo["covers"]:
            continue
        co = converted.get(fn)
        where = " (%s)" % ", ".join(lo["where"]) if lo["where"] else ""
        if not co:
            out.append(Finding("flush", "the flush in %s%s is gone: on the legacy side it "
                               "waited for %s" % (fn, where, ", ".join(sorted(lo["covers"])))))
            continue
        cwhere = " (%s)" % ", ".join(co["where"]) if co["where"] else ""
        elsewhere = dict(co.get("may_elsewhere", {}), **co["elsewhere"]) if timing_free \
            else co["elsewhere"]
        still = [r for r in lo["covers"]
                 if r in co["covers"] or (timing_free and r in co.get("may_cover", {}))]
        for r in sorted(lo["covers"]):
            if r in still or r not in moment:
                continue
            if r in elsewhere:
                out.append(Finding("flush", "the flush in %s%s no longer waits for %s: it "
                                   "is on queue %s" % (fn, cwhere, r, elsewhere[r])))
    return out


def overlapping(mon):
    """The pairs of work routines one run saw running at once (a routine
    with itself too)."""
    return {(a, b) for a, b, ka, kb in (mon or {}).get("overlaps") or []
            if ka == "work" and kb == "work"}


def legacy_could_overlap(a, b, legacy_prof):
    """Could routines @a and @b (one routine, if the same) run at once on
    the legacy side?  keventd ran one task at a time, and 2.4 ran one
    bottom half at a time (the timer's and tq_immediate's among them),
    but keventd ran beside the bottom halves of the other CPUs: so only
    when one ran in process context there and the other in a bottom half
    or the timer's."""
    pa, pb = legacy_prof.get(a), legacy_prof.get(b)
    if not pa or not pb:
        return False

    def kinds(p):
        ran = set(p.get("ran_in") or {})
        return "process" in ran, bool(ran & {"bottom half", "timer", "hard irq"})

    (proc_a, bh_a), (proc_b, bh_b) = kinds(pa), kinds(pb)
    return (proc_a and bh_b) or (bh_a and proc_b)


def new_concurrency(legacy_mons, converted_mons, legacy_prof):
    """Pairs of work routines that overlap now and could not on the legacy
    side (legacy_could_overlap(): keventd's tasks one after the other, and
    the bottom halves one at a time, two tq_immediate tasks too)."""
    def overlaps(mons):
        s = set()
        for m in mons:
            for a, b, ka, kb in (m or {}).get("overlaps") or []:
                s.add((a, b, ka, kb))
        return s
    before = {(a, b) for a, b, _, _ in overlaps(legacy_mons)}
    out = []
    for a, b, ka, kb in sorted(overlaps(converted_mons)):
        if (a, b) in before or ka != "work" or kb != "work":
            continue
        # the race check's rule: what the legacy side could overlap is not new
        if not legacy_could_overlap(a, b, legacy_prof):
            out.append((a, b))
    return out


# how often each side showed a problem of its own, after the problem
SEEN = " (seen on "


def own_problem(text):
    """A failure of the driver's own (details["own"]) less the notes on
    where it showed: the problem itself."""
    for cut in (" (under schedule ", SEEN, " (converted, ", " (legacy, "):
        text = text.split(cut)[0]
    if text.startswith("converted: "):
        text = text[len("converted: "):]
    return text


def split_runs(runs, monitored):
    """Each seed's pair of runs, and their problems as split_alike() splits
    them: (seed, legacy, converted, alike on both, on one side only)."""
    for seed, lo, co in runs:
        both, one = split_alike(run_problems("legacy", lo, monitored),
                                run_problems("converted", co, monitored))
        yield seed, lo, co, both, one


def one_sided(scn, runs):
    """{(seed, "legacy"): [what to see]} of a concurrent scenario whose
    converted run of a seed showed what the legacy run of that seed did
    not: a problem, a routine run, or one not run.  Whether a race of the
    driver's own bites, or an interrupt finds work to defer, is the run's
    timing: the demo runs the legacy side again (run_again()) to find a
    witness for the judge.  What only the legacy side showed needs none:
    it is never the conversion's."""
    out = {}
    if not scn.concurrent:
        return out
    monitored = any(r[1].monitor or r[2].monitor for r in runs)
    for seed, lo, co, _, one in split_runs(runs, monitored):
        for p in one:
            if p.startswith("converted: "):
                out.setdefault((seed, "legacy"), []).append(p)
    for seed, lo, co in runs:
        ran = {side: set(((r.monitor or {}).get("routines") or {}))
               for side, r in (("legacy", lo), ("converted", co))}
        for name in sorted(ran["converted"] - ran["legacy"]):
            out.setdefault((seed, "legacy"), []).append(RAN % name)
        for name in sorted(ran["legacy"] - ran["converted"]):
            out.setdefault((seed, "legacy"), []).append(NOT_RAN % name)
    return out


# what one_sided() asks further runs of a side for, besides problems
RAN = "routine %s ran"
NOT_RAN = "routine %s not run"
_RAN = re.compile(r"routine \S+ (ran|not run)\Z")


def is_ran(ask):
    """Is this ask of one_sided() (as alike() says it) a routine to see
    run (or not run), not a problem to see again?"""
    return _RAN.match(ask) is not None


def satisfied(want, res, side):
    """Which of @want (one_sided()'s asks, as alike() says them) run @res
    of @side shows: a problem, a routine it ran, one it did not run."""
    ran = set(((res.monitor or {}).get("routines") or {}))
    got = {alike(p) for p in run_problems(side, res)}
    for w in want:
        m = re.match(r"routine (\S+) (ran|not run)\Z", w)
        if m and (m.group(1) in ran) == (m.group(2) == "ran"):
            got.add(w)
    return got & set(want)


def compare_scenario(scn, runs, decls, again=None, judged=None):
    """(verdict, reasons, intended, details) of one scenario over its seeds.

    @runs: [(seed, legacy Result, converted Result)], a seed "1 try 3" for
    a try of a scenario run in tries (demo.run_tries()); @again: {side:
    [Result]}, more runs of a side of a concurrent scenario (one_sided()).
    @judged: the scenario's judge.Scenario, every run taken in: what the
    runs showed (their problems, observables, which routines ran, how
    often and from where they were asked to be queued) is its to decide,
    by refinement; this adds where each routine ran, what ran beside
    itself and what each flush waited for (structural findings), and the
    judge gives the verdict (judge.decide)."""
    import judge
    monitored = any(r[1].monitor or r[2].monitor for r in runs)
    lmons = [r[1].monitor for r in runs]
    cmons = [r[2].monitor for r in runs]
    lprof, cprof = merge_profiles(lmons), merge_profiles(cmons)
    findings = []
    if monitored:
        findings = compare_profiles(lprof, cprof, None, decls, structural=True)
        findings += compare_flushes(sites_by_function(lmons), sites_by_function(cmons),
                                    timing_free=not scn.concurrent)
    if judged is None:
        judged = judge.Scenario(scn)
        for seed, lo, co in runs:
            b = judge.bucket(judge.FULL, seed)
            judged.add("legacy", b, lo, "seed %d" % seed)
            judged.add("converted", b, co, "seed %d" % seed)
        for side, rs in (again or {}).items():
            for r in rs:
                judged.add(side, judge.bucket(judge.FULL, runs[0][0]), r,
                           "seed %d again" % runs[0][0])
    judged.findings["free runs"] = findings
    verdict, reasons, intended, own = judge.decide(judged)
    details = {"legacy_profile": lprof, "converted_profile": cprof,
               "declared": sorted({f.decl.where for f in findings if f.decl}),
               "legacy_flushes": sites_by_function(lmons),
               "converted_flushes": sites_by_function(cmons),
               "new_concurrency": new_concurrency(lmons, cmons, lprof) if monitored else [],
               # failures the legacy side shows too: the driver's own
               "own": own}
    return verdict, reasons, intended, details
