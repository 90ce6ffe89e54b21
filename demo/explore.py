"""explore - the demo's controlled schedules: interleavings on purpose.

Free runs interleave the way the host happens to; a mistake that shows only
in some interleaving (a re-initialised work that is still pending, a flush
that races a free) may never show.  So every scenario also runs on both
sides under SHIM_SCHED=pct:SEED (shim/control.c): --explore N schedules
each, or round-robin until the time budget is spent.  A schedule fails
when its run does (a BUG, a broken invariant, a leak, a queued work that
never ran, an undeclared self-concurrency) or, in a single-threaded
scenario, when the observables differ from the legacy side's free run.
Each failure makes its scenario DIFFERENT and names the line that replays
it.

Before pct, the systematic schedules, the same on every machine: eager (a
queued work's worker runs it before the queuer's next step), lazy (a work
runs only when something waits for it) and, for each queueing call site
those two runs passed (SHIM_SCHED_SITES), preempt:SITE (the queuer gives
way right after that call).
"""
import concurrent.futures
import os
import re
import shlex
import tempfile
import time

import compare
import declarations
import runner
from report import say

DEPTH = 3
# the systematic schedules every scenario and side gets; they list the
# queueing call sites, each of which gets a preempt:SITE schedule too
FIRST = ("eager", "lazy")


def steps_of(exe, scn):
    """Scheduling points of one controlled run: where pct's changes fall."""
    with tempfile.TemporaryDirectory(prefix="demo-explore.") as tmp:
        log = os.path.join(tmp, "log")
        runner.run(exe, scn.driver, scn.name, 1, sched="pct:0:1:1",
                   env={"SHIM_SCHED_LOG": log, "SHIM_LOGLEVEL": "0"})
        try:
            with open(log, errors="replace") as f:
                m = re.search(r" end (\d+) steps", f.read()[-200:])
        except OSError:
            m = None
    return max(int(m.group(1)), 10) if m else 20000


def systematic_schedules(sites):
    """The systematic schedules of a scenario and side, given the queueing
    call sites ("file.c:LINE") its eager and lazy runs passed."""
    return ["preempt:" + site for site in sites]


def sites_run(exe, scn, spec):
    """One run under @spec, and the queueing call sites it passed."""
    with tempfile.TemporaryDirectory(prefix="demo-sites.") as tmp:
        path = os.path.join(tmp, "sites")
        res = runner.run(exe, scn.driver, scn.name, 1, sched=spec,
                         env={"SHIM_SCHED_SITES": path})
        try:
            with open(path) as f:
                sites = [line.split()[0] for line in f if line.strip()]
        except OSError:
            sites = []
    return res, sites


def systematic(jobs, pairs, refs, decls):
    """Every scenario and side under eager and lazy, then preempt:SITE for
    each queueing call site they passed: {pair: (spec, why)} of the first
    failure of each, how many ran, and {pair: overlapping routines}."""
    failures, overlaps, sites = {}, {}, {p: [] for p in pairs}
    count = [0]

    def one(p, spec, listing):
        i, side = p
        scn, exe = jobs[i]
        if listing:
            res, seen = sites_run(exe[side], scn, spec)
        else:
            res, seen = runner.run(exe[side], scn.driver, scn.name, 1, sched=spec), []
        return p, spec, seen, check(scn, side, res, refs[i], decls), \
            compare.overlapping(res.monitor) if side == "converted" else set()

    def run_all(todo, listing):
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            for p, spec, seen, why, over in pool.map(lambda t: one(*t, listing), todo):
                count[0] += 1
                sites[p] += [s for s in seen if s not in sites[p]]
                overlaps.setdefault(p[0], set()).update(over)
                if why and p not in failures:
                    failures[p] = (spec, why)

    run_all([(p, spec) for p in pairs for spec in FIRST], True)
    run_all([(p, spec) for p in pairs if p not in failures
             for spec in systematic_schedules(sites[p])], False)
    return failures, count[0], overlaps, sum(len(v) for v in sites.values())


def check(scn, side, res, reference, decls):
    """Why a controlled run failed, or None."""
    problems = compare.run_problems(side, res)
    if problems:
        return problems[0] + ((": " + compare.last_bug(res.stderr))
                              if compare.last_bug(res.stderr) and "BUG" not in problems[0]
                              else "")
    if side == "converted" and res.monitor:
        for name, r in (res.monitor.get("routines") or {}).items():
            if r.get("self_concurrent") and not declarations.self_declared(name, decls):
                return "converted: %s ran concurrently with itself" % name
    if not scn.concurrent and reference and res.scenario:
        d = compare.first_difference(reference, res.scenario["observables"])
        if d:
            return "%s: %s is %s, the legacy side's free run saw %s" % (
                side, d[0].lstrip("."), str(d[2])[:60], str(d[1])[:60])
    return None


def explore(args, jobs, results, decls, rep, t0):
    rep.step("Explore: every scenario under controlled schedules (SHIM_SCHED=pct; eager, "
             "lazy, preempt:SITE)")
    if args.explore is not None:
        per, budget = args.explore, None
    else:
        per, budget = None, args.budget if args.budget is not None else \
            (15 if args.quick else 40)
    if per == 0 or budget == 0:
        say("exploration off")
        rep.data["exploration"] = {"schedules": 0}
        return "no exploration"
    # what each job's single-threaded scenario must still see: the legacy free run
    refs = {}
    for i, r in enumerate(results):
        run1 = r["runs"][0]["legacy"]
        refs[i] = run1["observables"] if run1 else None
    pairs = [(i, side) for i in range(len(jobs)) for side in ("legacy", "converted")]
    start = time.time()
    sys_failures, sys_total, sys_overlaps, nsites = systematic(jobs, pairs, refs, decls)
    sys_secs = time.time() - start
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        steps = dict(zip(pairs, pool.map(lambda p: steps_of(jobs[p[0]][1][p[1]], jobs[p[0]][0]),
                                         pairs)))
    start = time.time()
    tried = {p: 0 for p in pairs}
    failures = {p: (None, spec, why) for p, (spec, why) in sys_failures.items()}
    overlaps = {i: set(sys_overlaps.get(i, ())) for i in range(len(jobs))}

    def one(p, seed):
        i, side = p
        scn, exe = jobs[i]
        spec = "pct:%d:%d:%d" % (seed, DEPTH, steps[p])
        res = runner.run(exe[side], scn.driver, scn.name, 1, sched=spec)
        return p, seed, spec, check(scn, side, res, refs[i], decls), \
            compare.overlapping(res.monitor) if side == "converted" else set()

    def todo():
        seed = 1
        while True:
            for p in pairs:
                if p in failures:
                    continue
                if per is not None and seed > per:
                    return
                yield p, seed
            seed += 1

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        pending = set()
        gen = todo()
        while True:
            while len(pending) < 2 * (os.cpu_count() or 1):
                if budget is not None and time.time() - start > budget:
                    break
                nxt = next(gen, None)
                if nxt is None:
                    break
                pending.add(pool.submit(one, *nxt))
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, return_when="FIRST_COMPLETED")
            for fut in done:
                p, seed, spec, why, seen = fut.result()
                tried[p] += 1
                overlaps[p[0]] |= seen
                if why and p not in failures:
                    failures[p] = (seed, spec, why)
    secs = time.time() - start
    total = sum(tried.values())
    # what the race check's quick mode looks at too
    for i, seen in overlaps.items():
        results[i]["explored_overlaps"] = sorted(seen)
    rows = []
    for (i, side), (seed, spec, why) in sorted(failures.items()):
        scn, exe = jobs[i]
        line = "SHIM_SCHED=%s %s --driver %s --scenario %s --seed 1" % (
            spec, shlex.quote(os.path.relpath(exe[side], runner.TOP)), scn.driver, scn.name)
        label = spec if seed is None else "seed %d" % seed
        rows.append([scn.driver, scn.name, side, spec if seed is None else seed, why, line])
        r = results[i]
        r["reasons"].append("%s, schedule %s: %s; replay: %s" % (side, label, why, line))
        if r["verdict"] != "DIFFERENT":
            r["verdict"], r["why"] = "DIFFERENT", r["reasons"][-1]
        say("  %-9s %-16s %-9s DIFFERENT under %s: %s"
            % (scn.driver, scn.name, side, label, why))
        say("      replay: %s" % line)
    least = min(tried.values()) if tried else 0
    summary = "%d controlled schedules in %.0f s (%.0f/s), at least %d per scenario and " \
        "side" % (total, secs, total / secs if secs else 0, least)
    pct_failing = len(failures) - len(sys_failures)
    say(summary + (", %d failing" % pct_failing if pct_failing else ", none failing"))
    sys_summary = "%d systematic schedules (eager, lazy, and preempt at each of the %d " \
        "queueing call sites they reached) in %.0f s" % (sys_total, nsites, sys_secs)
    say(sys_summary + (", %d failing" % len(sys_failures) if sys_failures else ", none failing"))
    summary += "; " + sys_summary
    rep.section("Exploration: controlled schedules (SHIM_SCHED=pct, depth %d; eager, lazy, "
                "preempt:SITE)" % DEPTH,
                ["driver", "scenario", "side", "seed or schedule", "failure", "replay"], rows,
                summary + ".  A schedule fails when its run does, or when a single-threaded "
                "scenario's observables differ from the legacy side's free run.", quiet=True)
    rep.data["exploration"] = {"schedules": total, "seconds": round(secs, 1),
                               "systematic": {"schedules": sys_total, "sites": nsites,
                                              "seconds": round(sys_secs, 1),
                                              "failing": len(sys_failures)},
                               "least_per_scenario": least,
                               "failures": [dict(zip(("driver", "scenario", "side", "seed",
                                                      "failure", "replay"), r)) for r in rows]}
    return "%d schedules explored and %d systematic schedules" % (total, sys_total)
