"""explore - the demo's controlled schedules: interleavings on purpose.

Free runs interleave the way the host happens to; a mistake that shows only
in some interleaving (a re-initialised work that is still pending, a flush
that races a free) may never show.  So every scenario also runs on both
sides under SHIM_SCHED=pct:SEED (shim/control.c): --explore N schedules
each, or round-robin until the time budget is spent.  A schedule fails
when its run does (a BUG, a broken invariant, a leak, a queued work that
never ran, an undeclared self-concurrency) or, in a single-threaded
scenario, when the observables differ from the legacy side's free run at
the same size.  Each failure makes its scenario DIFFERENT and names the
line that replays it.

Schedules run in batches, many in one process (SHIM_SCHED_BATCH: each
goes back to a checkpoint taken before the boot, shim/host.c), and at the
scenarios' exploration size (SHIM_SCENARIO_SIZE=explore: fewer bytes,
requests, commits, the same call sites; tests/sizes/run checks it): a
schedule's cost is the process start and the scheduling points, and
both are what a batch at that size saves.

Before pct, the systematic schedules, the same on every machine: eager (a
queued work's worker runs it before the queuer's next step), lazy (a work
runs only when something waits for it) and, for each queueing call site
those two runs passed (SHIM_SCHED_SITES), preempt:SITE (the queuer gives
way right after that call), at the exploration size too; and on the
converted side, for each routine the scenario's driver declares safe to
run concurrently with itself, stall:ROUTINE (the worker running it gives
way to everything else, and what queues it meanwhile arrives on another
CPU): a declaration vouches for nothing until a run has shown the
overlap it allows, and the schedules say which did.
"""
import concurrent.futures
import os
import re
import shlex
import tempfile
import time

import compare
import declarations
import judge
import runner
from report import say

DEPTH = 3
SIZE = {"SHIM_SCENARIO_SIZE": "explore"}
BATCH_SECONDS = 0.5  # what a batch aims to take: the budget's granularity
BATCH_MAX = 200
# the systematic schedules every scenario and side gets; they list the
# queueing call sites, each of which gets a preempt:SITE schedule too
FIRST = ("eager", "lazy")


def seed_try(seed):
    """(seed, try or None) of a run's seed: an int, or "SEED try N" for a
    try of a scenario run in tries (demo.run_tries())."""
    if isinstance(seed, str) and " try " in seed:
        a, b = seed.split(" try ")
        return int(a), int(b)
    return int(seed), None


def replay_line(exe, scn, seed, spec=None, size=None):
    """The line that replays one run, from the top of the tree."""
    seed, n = seed_try(seed)
    return "%s%s%s%s%s --driver %s --scenario %s --seed %d" % (
        runner.env_words(exe), "SHIM_SCENARIO_TRY=%d " % n if n else "",
        "SHIM_SCENARIO_SIZE=%s " % size if size else "",
        "SHIM_SCHED=%s " % spec if spec else "",
        shlex.quote(os.path.relpath(exe, runner.TOP)), scn.driver, scn.name, seed)


# a witness search's free runs of the legacy side, for what only a free
# run's timing decides
FREE, FREE_AGAIN = "free", 8


def witnesses(jobs, judges, size, steps=None, env=None, timeout=120):
    """For what the converted side showed that no legacy run at @size
    showed: legacy schedules aimed at it (judge.witness_specs), in one
    batch per scenario and seed, taken in by the judge.  How many ran.
    @jobs: [(scenario, {side: binary})]; @judges: their judge.Scenario."""
    todo = []
    for i, (scn, exe) in enumerate(jobs):
        j = judges[i]
        per = {}
        for c in j.unshown():
            if c.bucket[0] == size:
                per.setdefault(c.bucket, []).append(c)
        for b, claims in per.items():
            specs = judge.witness_specs(claims, j.done.get(b, ()), (steps or {}).get(i))
            # what a free run's timing decides (how often a routine was
            # asked to be queued) no controlled schedule shows: free runs
            # of the legacy side again, at the same seed
            if FREE not in j.done.get(b, ()) and any(
                    c.key.startswith("asked ") and not c.converted.label.startswith("schedule ")
                    for c in claims):
                specs = specs + [FREE] * FREE_AGAIN
            if specs:
                todo.append((i, b, specs))

    def one(t):
        i, b, specs = t
        scn, exe = jobs[i]
        seed, n = seed_try(b[1])
        e = dict(env or {}, **({"SHIM_SCENARIO_TRY": str(n)} if n else {}))
        sched = [x for x in specs if x != FREE]
        res = runner.run_batch(exe["legacy"], scn.driver, scn.name, sched, seed=seed, env=e,
                               timeout=timeout) if sched else []
        free = [runner.run(exe["legacy"], scn.driver, scn.name, seed, env=e, timeout=timeout)
                for x in specs if x == FREE]
        return (i, b, sched + [FREE] * len(free)), res + free

    made = 0
    with concurrent.futures.ThreadPoolExecutor(runner.cpus()) as pool:
        for (i, b, specs), res in pool.map(one, todo):
            scn, exe = jobs[i]
            j = judges[i]
            for spec, r in zip(specs, res):
                j.done.setdefault(b, set()).add(spec)
                if r is None:
                    continue
                made += 1
                j.add("legacy", b, r, "seed %s again, free" % b[1] if spec == FREE
                      else "schedule %s" % spec,
                      replay_line(exe["legacy"], scn, b[1], None if spec == FREE else spec,
                                  "explore" if size == judge.EXPLORE else None))
    return made


def steps_of(exe, scn):
    """Scheduling points of one controlled run: where pct's changes fall."""
    with tempfile.TemporaryDirectory(prefix="demo-explore.") as tmp:
        log = os.path.join(tmp, "log")
        runner.run(exe, scn.driver, scn.name, 1, sched="pct:0:1:1",
                   env=dict(SIZE, SHIM_SCHED_LOG=log, SHIM_LOGLEVEL="0"))
        try:
            with open(log, errors="replace") as f:
                m = re.search(r" end (\d+) steps", f.read()[-200:])
        except OSError:
            m = None
    return max(int(m.group(1)), 10) if m else 20000


def reference(job):
    """The legacy side's free run at the size explored (a single-threaded
    scenario's): evidence of what the legacy side does there."""
    scn, exe = job
    if scn.concurrent:
        return None
    return runner.run(exe["legacy"], scn.driver, scn.name, 1, env=SIZE)


def systematic_schedules(sites):
    """The systematic schedules of a scenario and side, given the queueing
    call sites ("file.c:LINE") its eager and lazy runs passed."""
    return ["preempt:" + site for site in sites]


def sites_run(exe, scn, spec):
    """One run under @spec, and the queueing call sites it passed."""
    with tempfile.TemporaryDirectory(prefix="demo-sites.") as tmp:
        path = os.path.join(tmp, "sites")
        res = runner.run(exe, scn.driver, scn.name, 1, sched=spec,
                         env=dict(SIZE, SHIM_SCHED_SITES=path))
        try:
            with open(path, errors="replace") as f:
                sites = [line.split()[0] for line in f if line.strip()]
        except OSError:
            sites = []
    return res, sites


def self_concurrent(res):
    """The routines a run saw running concurrently with themselves."""
    return {name for name, r in ((res.monitor or {}).get("routines") or {}).items()
            if r.get("self_concurrent")}


def stalls(results, i, decls):
    """The stall:ROUTINE schedules of scenario @i's converted side: one per
    routine its driver declares safe beside itself that its runs ran."""
    ran = set(results[i]["details"]["converted_profile"]) if results else set()
    return ["stall:" + d.routine for d in decls(i)
            if d.kind == "self" and d.routine in ran]


EXPLORED = judge.bucket(judge.EXPLORE, 1)


def take(judges, jobs, i, side, spec, res):
    """Hand a controlled run to scenario @i's judge."""
    if judges and res is not None:
        scn, exe = jobs[i]
        judges[i].add(side, EXPLORED, res, "schedule %s" % spec,
                      replay_line(exe[side], scn, 1, spec, "explore"))


def systematic(jobs, pairs, refs, decls, results=None, judges=None):
    """Every scenario and side under eager and lazy, then preempt:SITE for
    each queueing call site they passed, and on the converted side
    stall:ROUTINE for each routine declared safe beside itself, in one
    batch per pair: {pair: (spec, why)} of the first failure of each, how
    many ran, {scenario: overlapping routines}, how many sites,
    {scenario: routines seen concurrent with themselves} and {pair: the
    flush sites of its runs}."""
    failures, overlaps, sites = {}, {}, {p: [] for p in pairs}
    selfs, flushes = {}, {}
    count = [0]
    own = [owned(results, i) for i in range(len(jobs))]

    def note(p, spec, res):
        i, side = p
        scn, exe = jobs[i]
        count[0] += 1
        why, res = check_run(scn, side, exe[side], spec, res, refs[i], decls(i), own[i])
        take(judges, jobs, i, side, spec, res)
        flushes.setdefault(p, []).append({"flushes": (res.monitor or {}).get("flushes") or []})
        if side == "converted":
            overlaps.setdefault(i, set()).update(compare.overlapping(res.monitor))
            selfs.setdefault(i, set()).update(self_concurrent(res))
        if why and p not in failures:
            failures[p] = (spec, why)

    def listing(p, spec):
        i, side = p
        scn, exe = jobs[i]
        res, seen = sites_run(exe[side], scn, spec)
        return p, spec, res, seen

    def preempts(p):
        i, side = p
        scn, exe = jobs[i]
        specs = systematic_schedules(sites[p])
        if side == "converted":
            specs += stalls(results, i, decls)
        return p, specs, runner.run_batch(exe[side], scn.driver, scn.name, specs,
                                          env=SIZE) if specs else []

    with concurrent.futures.ThreadPoolExecutor(runner.cpus()) as pool:
        for p, spec, res, seen in pool.map(lambda t: listing(*t),
                                           [(p, spec) for p in pairs for spec in FIRST]):
            sites[p] += [s for s in seen if s not in sites[p]]
            note(p, spec, res)
        for p, specs, res in pool.map(preempts, [p for p in pairs if p not in failures]):
            for spec, r in zip(specs, res):
                if r is not None:
                    note(p, spec, r)
    return failures, count[0], overlaps, sum(len(v) for v in sites.values()), selfs, flushes


def flush_findings(result, legacy, converted):
    """What the flush check (compare.compare_flushes) finds in a scenario's
    free runs and its systematic schedules (@legacy, @converted: their
    monitors' flush sites) together, that its free runs alone did not.

    Whether a flush finds a work still pending is the moment's timing in
    a free run: a flush of the wrong queue shows only when the work it
    should have waited for had not run yet.  The lazy schedule runs a
    work only when something waits for it, on every machine: every flush
    finds what was queued before it, so there a wrong queue always shows.

    Single-threaded scenarios only: in a concurrent one, the lazy
    schedule's keventd flush finds every other process's work pending
    too (another driver's, in a mixed scenario), which it waited for by
    accident, and which a queue of the driver's own rightly no longer
    waits for."""
    if result["concurrent"] or not result.get("runs"):
        return []
    lmons = [r.get("legacy_monitor") for r in result["runs"]] + legacy
    cmons = [r.get("converted_monitor") for r in result["runs"]] + converted
    found = compare.compare_flushes(compare.sites_by_function(lmons),
                                    compare.sites_by_function(cmons),
                                    timing_free=True)
    return [f.text for f in found if not f.intended and f.text not in result["reasons"]]


# a controlled run's scheduling points before it is called endless
# (shim/control.c's default), and how many more a second try gets
MAX_STEPS = 5000000
LONGER = 4


def endless(why):
    """Did a run fail only for not ending within its points?"""
    return bool(why) and "(SHIM_SCHED_MAX_STEPS)" in why


def owned(results, i):
    """What scenario @i's free runs showed failing alike on both sides
    (as compare.alike() says it): the driver's own.  A controlled run
    failing only so adds nothing, and must not stop the exploration of
    everything else in that scenario (a driver that leaves a tty driver
    registered at unload would otherwise have none explored)."""
    if not results:
        return frozenset()
    return frozenset(compare.alike(compare.own_problem(o))
                     for o in results[i]["details"].get("own") or [])


def check_longer(scn, side, exe, spec, res, reference, decls, own=frozenset()):
    """Why a controlled run failed, or None; a run that only hit the
    points' budget is tried once more with LONGER times as many: the
    same schedule, so what it then does is what the first would have
    done.  A run that is merely long (a close waiting out its timeout
    while a concurrent scenario's interrupts keep coming) is no livelock,
    and which side needs more points is the interleaving's; a run that
    still does not end is one."""
    return check_run(scn, side, exe, spec, res, reference, decls, own)[0]


def check_run(scn, side, exe, spec, res, reference, decls, own=frozenset()):
    """check_longer()'s why, and the run it is of (the longer one, if)."""
    why = check(scn, side, res, reference, decls, own)
    if not endless(why):
        return why, res
    again = runner.run(exe, scn.driver, scn.name, 1, sched=spec,
                       env=dict(SIZE, SHIM_SCHED_MAX_STEPS=str(LONGER * MAX_STEPS)))
    return check(scn, side, again, reference, decls, own), again


def gave_up(res):
    """Did the exerciser give up on a process that never returned (the
    driver's own hang, when @own let it pass)?  It does nothing more after
    one, so what the run observed is where the schedule had got to when the
    clock ran out, not where the scenario ends: nothing to compare."""
    return (res.scenario.get("invariants") or {}).get("no_process_hangs") is False


def check(scn, side, res, reference, decls, own=frozenset()):
    """Why a controlled run failed, or None; a failure of the driver's
    own (@own) is none.  A pair of scenario and side is explored no
    further after one; whether the failure is the conversion's is the
    judge's (judge.py), from every run of both sides, and so is what a
    run observed (@reference, the legacy side's free run at this size, is
    evidence there, no longer the measure)."""
    problems = [p for p in compare.run_problems(side, res) if compare.alike(p) not in own]
    if problems:
        return problems[0] + ((": " + compare.last_bug(res.stderr))
                              if compare.last_bug(res.stderr) and "BUG" not in problems[0]
                              else "")
    if side == "converted" and res.monitor:
        for name in sorted(self_concurrent(res)):
            if not declarations.self_declared(name, decls):
                return "converted: %s ran concurrently with itself" % name
    return None


def explore(args, jobs, results, decls, rep, t0):
    """@decls(i): the declarations of scenario @i's driver.  Every run goes
    to the scenario's judge (results[i]["judge"]), which decides, once a
    witness search has asked the legacy side for what the converted side
    showed and it did not."""
    rep.step("Explore: every scenario under controlled schedules (SHIM_SCHED=pct)")
    if args.explore is not None:
        per, budget = args.explore, None
    else:
        per, budget = None, args.budget if args.budget is not None else \
            (15 if args.quick else 40)
    if per == 0 or budget == 0:
        say("exploration off")
        rep.data["exploration"] = {"schedules": 0}
        return "no exploration"
    judges = [r.get("judge") for r in results] if results and \
        all(r.get("judge") for r in results) else None
    # the legacy side's free run at the size explored: evidence there
    pairs = [(i, side) for i in range(len(jobs)) for side in ("legacy", "converted")]
    with concurrent.futures.ThreadPoolExecutor(runner.cpus()) as pool:
        steps = dict(zip(pairs, pool.map(lambda p: steps_of(jobs[p[0]][1][p[1]], jobs[p[0]][0]),
                                         pairs)))
        refs = dict(zip(range(len(jobs)), pool.map(lambda i: reference(jobs[i]),
                                                   range(len(jobs)))))
    for i, ref in refs.items():
        if judges and ref is not None:
            scn, exe = jobs[i]
            judges[i].add("legacy", EXPLORED, ref, "free run at exploration size",
                          replay_line(exe["legacy"], scn, 1, size="explore"))
        refs[i] = ref.scenario["observables"] if ref is not None and ref.scenario else None
    start = time.time()
    sys_failures, sys_total, sys_overlaps, nsites, selfs, sys_flushes = systematic(
        jobs, pairs, refs, decls, results, judges)
    for i in range(len(jobs) if results else 0):
        found = [compare.Finding("flush", "under the systematic schedules: " + text)
                 for text in flush_findings(results[i], sys_flushes.get((i, "legacy"), []),
                                            sys_flushes.get((i, "converted"), []))]
        if judges:
            judges[i].findings["systematic schedules"] = found
        else:
            results[i]["reasons"] += [f.text for f in found]
    sys_secs = time.time() - start
    start = time.time()
    tried = {p: 0 for p in pairs}
    failures = {p: (None, spec, why) for p, (spec, why) in sys_failures.items()}
    overlaps = {i: set(sys_overlaps.get(i, ())) for i in range(len(jobs))}
    # schedules per batch, per pair: grown until a batch takes BATCH_SECONDS
    size = {p: 16 for p in pairs}
    own = [owned(results, i) for i in range(len(jobs))]

    def spec_of(p, seed):
        return "pct:%d:%d:%d" % (seed, DEPTH, steps[p])

    def batch(p, seeds):
        i, side = p
        scn, exe = jobs[i]
        specs = [spec_of(p, seed) for seed in seeds]
        res = runner.run_batch(exe[side], scn.driver, scn.name, specs, env=SIZE)
        out = []
        for seed, spec, r in zip(seeds, specs, res):
            if r is None:
                continue
            why, r = check_run(scn, side, exe[side], spec, r, refs[i], decls(i), own[i])
            out.append((seed, spec, why, (compare.overlapping(r.monitor), self_concurrent(r))
                        if side == "converted" else (set(), set()), r))
        return p, out, sum(r.seconds for r in res if r is not None)

    def todo():
        seed = {p: 1 for p in pairs}
        while True:
            live = [p for p in pairs if p not in failures and
                    (per is None or seed[p] <= per)]
            if not live:
                return
            for p in live:
                n = size[p] if per is None else min(size[p], per - seed[p] + 1)
                yield p, list(range(seed[p], seed[p] + n))
                seed[p] += n

    with concurrent.futures.ThreadPoolExecutor(runner.cpus()) as pool:
        pending = set()
        gen = todo()
        while True:
            while len(pending) < 2 * (runner.cpus()):
                if budget is not None and time.time() - start > budget:
                    break
                nxt = next(gen, None)
                if nxt is None:
                    break
                pending.add(pool.submit(batch, *nxt))
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, return_when="FIRST_COMPLETED")
            for fut in done:
                p, ran, secs = fut.result()
                if ran and secs < BATCH_SECONDS / 2:
                    size[p] = min(2 * size[p], BATCH_MAX)
                for seed, spec, why, (seen, selfc), r in ran:
                    tried[p] += 1
                    take(judges, jobs, p[0], p[1], spec, r)
                    overlaps[p[0]] |= seen
                    selfs.setdefault(p[0], set()).update(selfc)
                    # the first failing seed of the pair, whatever order batches end in
                    if why and (p not in failures or
                                (failures[p][0] is not None and seed < failures[p][0])):
                        failures[p] = (seed, spec, why)
    secs = time.time() - start
    total = sum(tried.values())
    # what the race check's quick mode looks at too
    for i, seen in overlaps.items():
        results[i]["explored_overlaps"] = sorted(seen)
    # what the declarations' self-concurrency needs a run to have shown
    for i, seen in selfs.items():
        results[i]["explored_self_concurrent"] = sorted(seen)
    rows = []
    for (i, side), (seed, spec, why) in sorted(failures.items()):
        scn, exe = jobs[i]
        line = replay_line(exe[side], scn, 1, spec, "explore")
        label = spec if seed is None else "seed %d" % seed
        rows.append([scn.driver, scn.name, side, spec if seed is None else seed, why, line])
        if side == "converted" and why.startswith("converted: ") and \
                why.endswith(" ran concurrently with itself"):
            # where a routine runs: a rule of structure, no witness to find
            if judges:
                judges[i].findings.setdefault("explored schedules", []).append(
                    compare.Finding("self", "converted, schedule %s: %s; replay: %s" % (
                        label, why[len("converted: "):], line)))
        if side == "legacy":
            say("  %-9s %-16s legacy    fails under %s, the driver's own: %s"
                % (scn.driver, scn.name, label, why))
    # what the converted side showed and no legacy run did: legacy
    # schedules aimed at it, then the judge's word
    made = witnesses(jobs, judges, judge.EXPLORE,
                     steps={i: steps[(i, "legacy")] for i in range(len(jobs))},
                     env=SIZE) if judges else 0
    for i in range(len(jobs) if judges else 0):
        r = results[i]
        verdict, reasons, intended, own_now = judge.decide(judges[i])
        r["details"]["own"] = own_now
        if verdict == "DIFFERENT" and r["verdict"] != "DIFFERENT":
            new = [x for x in reasons if x not in r["reasons"]]
            for text in new[:3]:
                say("  %-9s %-16s DIFFERENT: %s" % (jobs[i][0].driver, jobs[i][0].name, text))
        r["verdict"], r["reasons"], r["intended"] = verdict, reasons, intended
        if reasons:
            r["why"] = reasons[0]
    # a pair whose systematic schedules failed is explored no further
    explored = [n for p, n in tried.items() if p not in sys_failures]
    summary = "%d controlled schedules in %.0f s (%.0f/s, in batches at exploration size), " \
        "%s per scenario and side" % (
            total, secs, total / secs if secs else 0,
            "%d to %d" % (min(explored), max(explored)) if explored else "none")
    if len(explored) < len(tried):
        summary += " (%d of %d pairs stopped at a systematic failure)" % (
            len(tried) - len(explored), len(tried))
    pct_failing = len(failures) - len(sys_failures)
    say(summary + (", %d failing" % pct_failing if pct_failing else ", none failing"))
    nstalls = sum(len(stalls(results, i, decls)) for i in range(len(jobs)))
    sys_summary = "%d systematic schedules (eager, lazy, preempt at each of the %d " \
        "queueing call sites they reached, and %d stalls of a routine declared safe " \
        "beside itself) in %.0f s" % (sys_total, nsites, nstalls, sys_secs)
    say(sys_summary + (", %d failing" % len(sys_failures) if sys_failures else ", none failing"))
    if made:
        say("witness search: %d legacy schedules aimed at what the converted side showed "
            "and the legacy side had not" % made)
    summary += "; " + sys_summary
    rep.section("Exploration: controlled schedules (SHIM_SCHED=pct, depth %d; eager, lazy, "
                "preempt:SITE, stall:ROUTINE)" % DEPTH,
                ["driver", "scenario", "side", "seed or schedule", "failure", "replay"], rows,
                summary + ".  A schedule fails when its run does; whether that is the "
                "conversion's is the judge's: a failure or an observable value of the "
                "converted side no legacy run showed (a witness search aims legacy schedules "
                "at it first), never one of the legacy side.", quiet=True)
    rep.data["exploration"] = {"schedules": total, "seconds": round(secs, 1),
                               "per_second": round(total / secs, 1) if secs else 0,
                               "witness_runs": made,
                               "systematic": {"schedules": sys_total, "sites": nsites,
                                              "seconds": round(sys_secs, 1),
                                              "failing": len(sys_failures)},
                               "least_per_scenario": min(explored) if explored else 0,
                               "failures": [dict(zip(("driver", "scenario", "side", "seed",
                                                      "failure", "replay"), r)) for r in rows]}
    return "%d schedules explored and %d systematic schedules" % (total, sys_total)
