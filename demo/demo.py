#!/usr/bin/env python3
"""demo - the main job: convert every driver, run it on both stacks, compare.

usage: demo.py [--driver NAME]... [--quick] [--seeds N] [--extra DIR]...
               [--explore N] [--patch FILE]... [--converted DIR] [--out DIR]

1. Convert: the semantic patches and the design patches (and any --patch)
   turn drivers/legacy into a fresh tree under build/demo/; per driver, the
   idioms each rule matched, the residue, and drift from drivers/converted.
2. Build: every driver twice through make, legacy on the task queue and
   converted on the workqueue, each with the monitor (demo/monitor.c).
3. Run: every scenario of every driver on both sides, seeds 1 to N; a
   scenario run in tries (its run asks for more: init_unwind, each
   refusing the module's init one resource) also tries 1 to its count.
4. Compare (demo/compare.py): per scenario same, intended (a change a
   declaration beside its design patch allows) or DIFFERENT, and why: each
   run's own health, the observables, each routine's profile, where it
   runs, what each flush waits for, self-concurrency.
5. Coverage (demo/coverage.py): every deferred-work call site and
   teardown function of each driver, and how many runs of step 3 reached
   it on each side (both sides are built with gcov counters); what a side
   never reached is "not checked".
6. Explore: every scenario on both sides under controlled schedules
   (SHIM_SCHED=pct:SEED), --explore N each, or as many as the time budget
   allows; a failure names its seed and the line that replays it.
7. Concurrency: what the conversion lets overlap that keventd ran one at a
   time, and ThreadSanitizer's word on the converted side (--race).
8. Headline: tty flip latency while reiserfs commits sleep, both sides.
Writes build/report/{report.md,report.json,trace.json}; exits 0 only when
no scenario is DIFFERENT and every line the conversion or a patch changed
ran on the converted side.
"""
import argparse
import glob
import collections
import concurrent.futures
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "drivers", "runner"))
sys.dont_write_bytecode = True

import compare  # noqa: E402
import convert  # noqa: E402
import coverage  # noqa: E402
import declarations  # noqa: E402
import explore  # noqa: E402
import headline  # noqa: E402
import judge  # noqa: E402
import race  # noqa: E402
import runner  # noqa: E402
import source  # noqa: E402
from report import Report, StepFailed, say  # noqa: E402

TOP = runner.TOP
BUILD = os.path.join(TOP, "build", "demo")
MONITOR = os.path.join(HERE, "monitor.c")
TIMEOUT = 120


def set_build(path):
    global BUILD
    BUILD = os.path.abspath(path)


def failed(args, rep, e, t0):
    """End the demo on a failed step: FAIL naming it, nothing compared."""
    from report import bold
    verdict = "FAIL: %s failed: %s; nothing compared (%.0fs)" % (e.step, e.why, time.time() - t0)
    say()
    say(bold(verdict))
    rep.data["verdict"] = {"ok": False, "failed_step": e.step, "text": verdict}
    rep.md += ["## Verdict", "", verdict, ""]
    rep.write(args.out)
    say("report: %s" % declarations.shown(os.path.join(args.out, "report.md")))
    return 1


def declaration_files(args):
    """[(a .moves file, the drivers it speaks for)] (demo/declarations.py)."""
    drivers = {d.name: d.sources for d in runner.drivers()}
    out = declarations.design_entries(os.path.join(TOP, "drivers", "design"), drivers)
    src = args.source
    if src:
        # what the tty core's conversion changes, for every driver on it
        out += [(f, {"tty-core"}) for f in sorted(glob.glob(
            os.path.join(TOP, "drivers", "tty-core", "converted", "*.moves")))]
        if src.moves:
            out.append((src.moves, {src.name}))
        # a PATCH= is the driver's: its moves speak for it
        for p in args.design_patch:
            moves = os.path.splitext(p)[0] + ".moves"
            if os.path.exists(moves):
                out.append((moves, {src.name}))
        return out
    for p in args.design_patch:
        moves = os.path.splitext(p)[0] + ".moves"
        if os.path.exists(moves):
            out.append((moves, declarations.design_scope(moves, drivers)))
    for d in args.extra:
        if os.path.exists(os.path.join(d, "moves")):
            out.append((os.path.join(d, "moves"), {os.path.basename(os.path.normpath(d))}))
    return out


SOURCE_DRIVERS = set()
DECLARED = []  # [(.moves, scope)] the steps add: convert's context lines


def scope_of(driver):
    """The drivers a scenario's routines belong to: the cross-driver
    scenarios run every driver of the manifest, a driver of one's own
    runs the tty core's routines beside its own."""
    if driver == "mixed":
        return set(runner.driver_names())
    if driver in SOURCE_DRIVERS:
        return {driver, "tty-core"}
    return {driver}


def source_steps(args, rep, src):
    """A driver of one's own (--src): convert it, build both sides, find
    it a device; what the runs of its scenarios need."""
    SOURCE_DRIVERS.add(src.name)
    rep.step("Convert: %s, as it is, through convert (and PATCH=)" % src.name)
    if len(src.modules) > 1:
        say("a family of %d modules: %s" % (len(src.modules), "; ".join(
            "%s (%s)" % (m, ", ".join(os.path.relpath(f, src.root) for f in files))
            for m, files in src.modules)))
    if src.config_line:
        say(src.config_line)
    source.convert(src, BUILD, args.design_patch)
    # the conversion's own word for what it changes on purpose
    moves = os.path.join(src.out, "conversion.moves")
    with open(moves, "w") as f:
        f.write("".join(line + "\n" for line in src.context))
    DECLARED.append((moves, {src.name}))
    rep.step("Build: %s on the 2.4 headers and the tty core, legacy on the task queue, "
             "converted on the workqueue" % src.name)
    exe = source.build(src, MONITOR)
    say("%s: %s, %s" % (src.name, os.path.relpath(exe["legacy"], TOP),
                        os.path.relpath(exe["converted"], TOP)))
    if src.family:
        say(source.family_order(src.family))
    rep.step("Device: a device and module parameters that take %s in" % src.name)
    src.env = source.find_device(src, exe, args)
    for side in ("legacy", "converted"):
        runner.ENV_OF[os.path.abspath(exe[side])] = dict(src.env)
    rep.data.setdefault("sources", {})[src.name] = {
        "files": [source.shown(f) for f in src.files], "converted": source.shown(src.converted),
        "context": src.context, "device": src.env, "found": src.found,
        "modules": [[m, [os.path.relpath(f, src.root) for f in files]]
                    for m, files in src.modules],
        "config": src.config, "config_line": src.config_line,
        "family": src.family}
    out = dict(exe)
    out["trees"] = {side: coverage.Tree(d, [os.path.relpath(f, src.root) for f in src.files])
                    for side, d in (("legacy", src.legacy), ("converted", src.converted))}
    out["source"] = src
    return out


def build(args, converted, rep):
    bins = {}
    if not args.drivers and not args.extra:
        return bins, {}       # a driver of one's own only: its own steps build it
    rep.step("Build: legacy drivers on the task queue, converted drivers on the workqueue")
    for side, src in (("legacy", None), ("converted", converted)):
        if not args.drivers:
            break
        out = os.path.join(BUILD, "bin", side)
        # "all" serves the cross-driver scenarios and the headline: the whole run only
        want = [d for d in args.drivers] + ([] if args.driver else ["all"])
        for o in coverage.stale_objects(out):
            os.remove(o)
        err = runner.build_side(side, out, srcdir=src, extra_objs=[MONITOR], binaries=want,
                                coverage=True)
        if err:
            say(err)
            raise StepFailed("build", "the %s drivers do not build (above)" % side)
        say("%-9s %d binaries in %s" % (side, len(want), os.path.relpath(out, TOP)))
        bins[side] = out
    extra = {}
    for d in args.extra:
        extra[d] = build_extra(d)
    return bins, extra


def build_extra(d):
    """A user's driver: d/*.c (legacy) and d/scenarios/*.c, converted here."""
    import shutil
    import subprocess
    name = os.path.basename(os.path.normpath(d))
    out = os.path.join(BUILD, "extra", name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    conv = os.path.join(out, "converted")
    r = subprocess.run([os.path.join(TOP, "semantic-patches", "convert"), "-o", conv, d],
                       capture_output=True, text=True, errors="replace")
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr)
        raise StepFailed("conversion", "convert %s exited %d (above)" % (
            declarations.shown(d), r.returncode))
    scns = [os.path.join(d, "scenarios", f)
            for f in sorted(os.listdir(os.path.join(d, "scenarios"))) if f.endswith(".c")]
    built = {"trees": {}}
    for side, src in (("legacy", os.path.abspath(d)), ("converted", conv)):
        srcs = [f for f in sorted(os.listdir(src)) if f.endswith(".c")]
        exe = os.path.join(out, side, name)
        err = runner.build_binary(exe, side, src, srcs, scns, [MONITOR], coverage=True)
        if err:
            say(err)
            raise StepFailed("build", "%s (%s) does not build (above)" % (name, side))
        built[side] = exe
        built["trees"][side] = coverage.Tree(src, coverage.driver_files(src, srcs))
    built["scenario_files"] = scns
    say("extra     %s: built on both sides" % name)
    return built


def run_scenarios(jobs, seeds, rep, cov):
    """Every scenario on both sides for every seed, each run's coverage
    counters apart (@cov); [(scn, exe, runs)]."""
    rep.step("Run: every scenario, both sides, seeds %s" % ",".join(map(str, seeds)))
    work = [(i, side, seed) for i in range(len(jobs)) for seed in seeds
            for side in ("legacy", "converted")]
    envs = {(i, side, seed): cov.env(side, jobs[i][1][side], "%s-%s-%d" % (
        jobs[i][0].driver, jobs[i][0].name, seed)) for i, side, seed in work}
    results = {}

    def one(job):
        i, side, seed = job
        scn, exe = jobs[i]
        return job, runner.run(exe[side], scn.driver, scn.name, seed, timeout=TIMEOUT,
                               env=envs[job])

    with concurrent.futures.ThreadPoolExecutor(runner.cpus()) as pool:
        for job, res in pool.map(one, work):
            results[job] = res
    out = []
    for i, (scn, exe) in enumerate(jobs):
        runs = [(seed, results[(i, "legacy", seed)], results[(i, "converted", seed)])
                for seed in seeds]
        out.append((scn, exe, runs))
    run_tries(out, seeds[0], cov)
    return out


def tries_asked(runs):
    """How many tries a scenario's first runs ask for (the most either
    side asks: both run each one, and a count that differs is an
    observable that differs)."""
    return max([(r.scenario or {}).get("tries") or 0
                for _, lo, co in runs for r in (lo, co)] or [0])


# {scenario index: [(side, seed, Result)]}: tries of one side alone
ALONE = {}


def run_tries(ran, seed, cov):
    """A scenario run in tries (scenario.h: scn_tries()): tries 1 to the
    count its first runs asked for, on both sides, at the first seed,
    each a process of its own (SHIM_SCENARIO_TRY=n) with its counters
    apart, added to its runs as seed "SEED try n"."""
    asked = [tries_asked(runs) for _, _, runs in ran]
    work = [(i, side, n) for i in range(len(ran)) for n in range(1, asked[i] + 1)
            for side in ("legacy", "converted")]
    envs = {(i, side, n): dict(cov.env(side, ran[i][1][side], "%s-%s-%d-try%d" % (
        ran[i][0].driver, ran[i][0].name, seed, n)), SHIM_SCENARIO_TRY=str(n))
        for i, side, n in work}

    def one(job):
        i, side, n = job
        scn, exe, _ = ran[i]
        return job, runner.run(exe[side], scn.driver, scn.name, seed, timeout=TIMEOUT,
                               env=envs[job])

    # and the tries one side alone asks for (scn_tries_alone(): the
    # requests of a queue the conversion added), on that side only
    alone = {}
    for i, (_, _, runs) in enumerate(ran):
        for side, k in (("legacy", 1), ("converted", 2)):
            got = [(r[k].scenario or {}).get("tries_alone") for r in runs if r[k]]
            first, n = next((x for x in got if x), (0, 0))
            alone[(i, side)] = list(range(first, first + n))
            work += [(i, side, t) for t in alone[(i, side)]]
    for i, side, n in work:
        envs.setdefault((i, side, n), dict(cov.env(side, ran[i][1][side], "%s-%s-%d-try%d" % (
            ran[i][0].driver, ran[i][0].name, seed, n)), SHIM_SCENARIO_TRY=str(n)))

    results = {}
    with concurrent.futures.ThreadPoolExecutor(runner.cpus()) as pool:
        for job, res in pool.map(one, work):
            results[job] = res
    for i, (scn, exe, runs) in enumerate(ran):
        for n in range(1, asked[i] + 1):
            runs.append(("%d try %d" % (seed, n), results[(i, "legacy", n)],
                         results[(i, "converted", n)]))
        for side in ("legacy", "converted"):
            ALONE.setdefault(i, []).extend(
                (side, "%d try %d" % (seed, n), results[(i, side, n)])
                for n in alone[(i, side)])
        if asked[i]:
            say("  %-9s %-16s %d tries, both sides%s" % (
                scn.driver, scn.name, asked[i], "".join(
                    ", %d on the %s side alone" % (len(alone[(i, s)]), s)
                    for s in ("legacy", "converted") if alone[(i, s)])))


AGAIN = 16  # at most, more runs of a side, for a concurrent scenario's one-sided problem
AGAIN_RAN = 4  # at most, for a routine one side ran, every run having ended well


def run_again(ran):
    """A concurrent scenario whose converted run shows what the legacy run
    of its seed did not (a problem, a routine run or not run): the legacy
    side run again, same seed, counters apart from the Run step's, in
    rounds of as many runs as CPUs until one shows it or AGAIN have not
    ({scenario index: {side: [Result]}}): a race of the driver's own bites
    in some runs of either side, one run in ten, say, on each; the runs
    are evidence for the judge (judge.py)."""
    todo = []
    for i, (scn, exe, runs) in enumerate(ran):
        for (seed, side), problems in compare.one_sided(scn, runs).items():
            todo.append((i, side, seed, {compare.alike(p) for p in problems}))
    out = {}

    def one(job):
        i, side, seed = job
        scn, exe, _ = ran[i]
        return runner.run(exe[side], scn.driver, scn.name, seed, timeout=TIMEOUT)

    cpus = runner.cpus()
    with concurrent.futures.ThreadPoolExecutor(cpus) as pool:
        for i, side, seed, want in todo:
            got = out.setdefault(i, {}).setdefault(side, [])
            done = 0
            # a routine missing from runs that ended well: a few more
            # (a conversion that lost it keeps it lost, and costs that)
            most = AGAIN_RAN if all(compare.is_ran(w) for w in want) else AGAIN
            while want and done < most:
                n = min(cpus, most - done)
                for res in pool.map(one, [(i, side, seed)] * n):
                    got.append(res)
                    want -= compare.satisfied(want, res, side)
                done += n
    return out


def judges_of(ran, again):
    """A judge.Scenario per scenario, every free run taken in (and the
    runs made again)."""
    out = []
    for i, (scn, exe, runs) in enumerate(ran):
        j = judge.Scenario(scn)
        for seed, lo, co in runs:
            b = judge.bucket(judge.FULL, seed)
            for side, res in (("legacy", lo), ("converted", co)):
                j.add(side, b, res, "seed %s, free" % seed,
                      explore.replay_line(exe[side], scn, seed))
        for side, seed, res in ALONE.get(i, ()):
            j.add(side, judge.bucket(judge.FULL, seed), res, "seed %s, free" % seed,
                  explore.replay_line(exe[side], scn, seed))
        for side, rs in (again.get(i) or {}).items():
            seed = runs[0][0]
            for n, res in enumerate(rs):
                j.add(side, judge.bucket(judge.FULL, seed), res,
                      "seed %s, free, again (%d)" % (seed, n + 1),
                      explore.replay_line(exe[side], scn, seed))
        out.append(j)
    return out


def resolve_sites(ran):
    """Name each flush call site by the function the call is written in
    (inlined or not) and its file:line, from the binaries' debug lines."""
    import subprocess
    per_exe = {}
    for scn, exe, runs in ran:
        for seed, lo, co in runs:
            for side, res in (("legacy", lo), ("converted", co)):
                for s in (res.monitor or {}).get("flushes") or []:
                    per_exe.setdefault(exe[side], set()).add(s["address"])
    names = {}
    for exe, addrs in per_exe.items():
        r = subprocess.run(["addr2line", "-f", "-i", "-a", "-e", exe] + sorted(addrs),
                           capture_output=True, text=True, errors="replace")
        cur = None
        for line in r.stdout.splitlines():
            if line.startswith("0x"):
                cur = int(line, 16)
                names[(exe, cur)] = []
            elif cur is not None:
                names[(exe, cur)].append(line)
    for scn, exe, runs in ran:
        for seed, lo, co in runs:
            for side, res in (("legacy", lo), ("converted", co)):
                for s in (res.monitor or {}).get("flushes") or []:
                    info = names.get((exe[side], int(s["address"], 16))) or []
                    # innermost first: the function the call is written in
                    if len(info) >= 2 and info[0] != "??":
                        s["function"] = info[0]
                        s["where"] = os.path.basename(info[1].split(" ")[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--driver", action="append", help="only this driver (repeatable)")
    ap.add_argument("--quick", action="store_true", help="one seed, a short exploration")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--extra", action="append", default=[],
                    help="a directory holding your own legacy driver")
    ap.add_argument("--src", action="append", default=[],
                    help="a 2.4 driver as it is: its .c file(s) or directory (SRC=)")
    ap.add_argument("--config", default=None,
                    help="kernel options over those chosen for --src (CONFIG='CONFIG_A=y "
                    "CONFIG_B=n')")
    ap.add_argument("--search-budget", type=float, default=None,
                    help="seconds the device search of a --src driver may take at most "
                    "(against a slow host: the search is its runs)")
    ap.add_argument("--search-runs", type=int, default=None,
                    help="runs the device search of a --src driver makes at most")
    ap.add_argument("--afl", choices=("auto", "no"), default="auto",
                    help="AFL++ goes on where the device search of a --src driver ends "
                    "below full reach (auto, when afl++ is installed), or never (AFL=0)")
    ap.add_argument("--converted-tree", help="a --src driver's files as a conversion of "
                    "its whole tree made them (make demo TREE=), with --convert-log")
    ap.add_argument("--convert-log", help="what that conversion printed")
    ap.add_argument("--explore", type=int, default=None,
                    help="controlled schedules per scenario and side (default: the budget)")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds of exploration when --explore is not given")
    ap.add_argument("--race", choices=("auto", "yes", "no"), default="auto",
                    help="ThreadSanitizer over the converted side (auto: with --quick, on "
                    "the scenarios that ran two works at once or on two workers)")
    ap.add_argument("--patch", action="append", default=[], dest="design_patch",
                    help="one more design patch (a FILE.moves beside it declares its moves)")
    ap.add_argument("--converted", help="use this converted tree instead of converting")
    ap.add_argument("--out", default=os.path.join(TOP, "build", "report"))
    ap.add_argument("--timeout", type=int, default=120,
                    help="seconds a free run may take before it is called hung")
    ap.add_argument("--build", default=BUILD,
                    help="where the converted tree and binaries go (scripts/mutate runs "
                    "several demos at once, each in its own)")
    args = ap.parse_args()
    set_build(args.build)
    rep = Report()
    t0 = time.time()
    # a driver of one's own, as it is: only it, unless --driver asks for more
    args.source = None
    if args.src:
        try:
            args.source = source.prepare(args.src, args.config)
        except StepFailed as e:
            return failed(args, rep, e, t0)
        args.source.converted_tree = args.converted_tree
        args.source.convert_log = args.convert_log
    global TIMEOUT
    TIMEOUT = args.timeout
    names = runner.driver_names()
    extra_names = [os.path.basename(os.path.normpath(d)) for d in args.extra]
    if args.source:
        extra_names.append(args.source.name)
    for d in args.driver or []:
        if d not in names and d not in extra_names:
            ap.error("no driver %s (have: %s)" % (d, " ".join(names + extra_names)))
    # --driver may name drivers of the manifest, of --extra, or both
    args.drivers = [d for d in args.driver if d in names] if args.driver else \
        ([] if args.source else names)
    args.extra = [d for d in args.extra if not args.driver or
                  os.path.basename(os.path.normpath(d)) in args.driver or
                  not any(x in extra_names for x in args.driver)]
    for d in args.extra:
        if not os.path.isdir(os.path.join(d, "scenarios")):
            ap.error("%s: an extra driver is a directory with its legacy .c files "
                     "and a scenarios/ directory (see docs/extra.md)" % d)
    for p in args.design_patch:
        if not os.path.isfile(p):
            ap.error("--patch %s: no such file" % p)
    seeds = [1] if args.quick else list(range(1, args.seeds + 1))
    os.makedirs(BUILD, exist_ok=True)
    cov = coverage.Coverage(os.path.join(BUILD, "coverage"))
    cov.prepare()
    # runs that are not counted (exploration, the headline) keep their
    # counters out of the build directory
    os.environ["GCOV_PREFIX"] = cov.scratch()

    # what the conversion changes on purpose, each file for its own drivers
    try:
        decls = declarations.load(declaration_files(args))
    except (OSError, declarations.DeclarationError) as e:
        ap.error(str(e))

    try:
        if args.drivers:
            converted, conv_ok = convert.convert(args, rep, BUILD)
        else:
            converted, conv_ok = None, True
        bins, extra = build(args, converted, rep)
        if args.source:
            extra[args.source.name] = source_steps(args, rep, args.source)
    except StepFailed as e:
        return failed(args, rep, e, t0)

    jobs = []
    for drv in args.drivers:
        exe = {s: os.path.join(bins[s], drv) for s in ("legacy", "converted")}
        jobs += [(s, exe) for s in runner.scenarios_of(exe["legacy"], drv)]
    if not args.driver and args.drivers:
        # the cross-driver scenarios: every driver at once
        exe = {s: os.path.join(bins[s], "all") for s in ("legacy", "converted")}
        jobs += [(s, exe) for s in runner.scenarios_of(exe["legacy"], "mixed")]
    for name, exe in extra.items():
        jobs += [(s, exe) for s in runner.scenarios_of(
            exe["legacy"], name if args.source and name == args.source.name else None)]

    if DECLARED:
        decls += declarations.load(DECLARED)
    ran = run_scenarios(jobs, seeds, rep, cov)
    resolve_sites(ran)
    again = run_again(ran)
    judges = judges_of(ran, again)
    made = explore.witnesses([(scn, exe) for scn, exe, _ in ran], judges, judge.FULL,
                             timeout=TIMEOUT)
    if made:
        say("witness search: %d legacy runs under schedules, for what the converted side's "
            "free runs showed and the legacy side's did not" % made)
    results = []
    for i, (scn, exe, runs) in enumerate(ran):
        verdict, reasons, intended, details = compare.compare_scenario(
            scn, runs, declarations.for_drivers(decls, scope_of(scn.driver)),
            again.get(i), judges[i])
        why = reasons[0] if reasons else ("; ".join(intended) if intended
                                          else "observables and profiles equal")
        if details["own"] and not reasons:
            why = "fails alike on both sides (the driver's own): %s; %s" % (
                "; ".join(details["own"]), why)
        secs = sum(r[1].seconds + r[2].seconds for r in runs)
        say("  %-9s %-16s %-10s %-9s (%.1fs)" % (scn.driver, scn.name, "concurrent"
                                                 if scn.concurrent else "single", verdict, secs))
        for r in reasons[:3]:
            say("      %s" % r)
        for r in details["own"][:3]:
            say("      both sides: %s" % r)
        results.append({"driver": scn.driver, "scenario": scn.name,
                        "concurrent": scn.concurrent, "what": scn.what, "verdict": verdict,
                        "why": why, "reasons": reasons, "intended": intended,
                        "details": details, "exe": exe, "judge": judges[i],
                        "runs": [{"seed": s, "legacy": lo.scenario, "converted": co.scenario,
                                  "legacy_monitor": lo.monitor,
                                  "converted_monitor": co.monitor} for s, lo, co in runs]})

    rep.step("Compare")
    compare_report(rep, results)

    trees = collections.OrderedDict()
    for drv in args.drivers:
        srcs = next(d.sources for d in runner.drivers() if d.name == drv)
        trees[drv] = {side: coverage.Tree(root, coverage.driver_files(root, srcs)) for
                      side, root in (("legacy", os.path.join(TOP, "drivers", "legacy")),
                                     ("converted", converted))}
    for d, exe in extra.items():
        trees[os.path.basename(os.path.normpath(d))] = exe["trees"]
    not_checked, unrun = coverage.step(cov, trees, rep)

    explored = explore.explore(
        args, jobs, results,
        lambda i: declarations.for_drivers(decls, scope_of(jobs[i][0].driver)), rep, t0)
    unexercised = declarations_report(rep, results, decls)
    race.concurrency(args, rep, results, converted)
    if any(d in args.drivers for d in ("tty", "reiserfs")) and not args.driver:
        headline.headline(args, bins, rep, BUILD)

    counts = {v: sum(1 for r in results if r["verdict"] == v)
              for v in ("same", "intended", "DIFFERENT")}
    own = [r for r in results if r["details"].get("own")]
    # a driver whose module never got in: nothing of it was compared
    # (of a family: the module whose init failed, or the family's name)
    out_ = ["%s (init %s)" % ((s.get("found") or {}).get("init_failed") or name,
                              (s.get("found") or {}).get("init"))
            for name, s in sorted((rep.data.get("sources") or {}).items())
            if not (s.get("found") or {}).get("registered")]
    ok = counts["DIFFERENT"] == 0 and not unrun and not out_
    never = ""
    if out_:
        never = ", the module never got in: %s" % ", ".join(out_)
    if unrun:
        never += ", %d changed %s never run on the converted side (%s%s)" % (
            len(unrun), "line" if len(unrun) == 1 else "lines",
            ", ".join("%s:%d" % (u["file"], u["line"]) for u in unrun[:3]),
            ", ..." if len(unrun) > 3 else "")
    alike = ""
    if own:
        alike = "; %d failing alike on both sides, the driver's own (%s)" % (
            len(own), ", ".join(
                "%s: %s" % (r["scenario"], compare.own_problem(r["details"]["own"][0]))
                for r in own[:2]) + (", ..." if len(own) > 2 else ""))
    verdict = "%s: %d scenarios, %d same, %d intended, %d DIFFERENT%s; %s; %d not checked " \
        "(%d call %s or teardown %s, %d %s)%s; conversion %s (%.0fs)" % (
            "PASS" if ok else "FAIL", len(results), counts["same"], counts["intended"],
            counts["DIFFERENT"], alike, explored, not_checked + len(unexercised), not_checked,
            "site" if not_checked == 1 else "sites", "path" if not_checked == 1 else "paths",
            len(unexercised), "declaration" if len(unexercised) == 1 else "declarations", never,
            "clean" if conv_ok else "with residue or drift", time.time() - t0)
    for r in results:
        for key in ("exe", "judge"):
            r.pop(key, None)
    rep.data["scenarios"] = results
    rep.data["verdict"] = {"ok": ok, "counts": counts, "text": verdict}
    say()
    from report import bold
    say(bold(verdict))
    rep.md += ["## Verdict", "", verdict, ""]
    mutations(args, rep)
    rep.write(args.out)
    say("report: %s, %s" % (declarations.shown(os.path.join(args.out, "report.md")),
                            declarations.shown(os.path.join(args.out, "report.json"))))
    return 0 if ok else 1


def mutations(args, rep):
    """The last section: the catch rate of the mutation suite's latest run
    (scripts/mutate writes it), when there is one; not in its own demos."""
    summary = os.path.join(TOP, "build", "mutate", "summary.md")
    if os.path.abspath(args.build) != os.path.join(TOP, "build", "demo") or args.source:
        return
    try:
        with open(summary) as f:
            text = f.read()
    except OSError:
        text = "No run yet: `make mutate` applies each of tests/mutations/ and says " \
            "how many the demo catches."
    rep.md += ["## Mutation suite: the catch rate", "", text, ""]
    say(text.splitlines()[0])


def declarations_report(rep, results, decls):
    """Every declaration of the drivers run, and the runs that exercised
    it: a move a scenario matched, a self-concurrency a run showed (free,
    or under a controlled schedule, stall:ROUTINE among them).  One that
    none exercised is not checked, named, and its count returned."""
    ran = set()
    for r in results:
        ran |= scope_of(r["driver"])
    rows, unexercised = [], []
    for d in decls:
        if not d.scope & ran:
            continue
        mine = [r for r in results if d.scope & scope_of(r["driver"])]
        if d.kind == "move":
            seen = [r for r in mine if d.where in r["details"].get("declared", [])]
        else:
            seen = [r for r in mine if d.routine in r.get("explored_self_concurrent", []) or
                    (r["details"]["converted_profile"].get(d.routine) or {}).get(
                        "self_concurrent")]
        what = "concurrent with itself" if d.kind == "self" else "%s -> %s" % (d.frm, d.to)
        if seen:
            state = "exercised in " + ", ".join("%s/%s" % (r["driver"], r["scenario"])
                                                for r in seen[:4])
        else:
            state = "NOT CHECKED: no run exercised it"
            unexercised.append(d)
            say("not checked: declaration %s: %s %s: no run exercised it (%s)" % (
                d.where, d.routine, what, unexercised_why(d, mine)))
        rows.append([d.routine, what, ", ".join(sorted(d.scope)), state, d.why, d.where])
    rep.section("Declarations", ["routine", "change", "driver", "in the runs", "why", "where"],
                rows, "A change of queue or context, or a routine running concurrently with "
                "itself, is `intended` only when a declaration of that driver says so; a "
                "declaration no run exercised vouches for nothing and counts as not checked.",
                quiet=True)
    rep.data["declarations"] = [dict(d._asdict(), scope=sorted(d.scope),
                                     exercised=d not in unexercised) for d in decls]
    return unexercised


def unexercised_why(d, results):
    """Why no run exercised declaration @d: where its routine ran, if
    anywhere, in @results (its driver's scenarios, free runs)."""
    ran = {"legacy": 0, "converted": 0}
    for r in results:
        for side in ran:
            prof = r["details"].get(side + "_profile") or {}
            ran[side] += (prof.get(d.routine) or {}).get("ran", 0)
    if not any(ran.values()):
        return "%s never ran on either side" % d.routine
    if d.kind == "self":
        return "%s ran %d times on the converted side, never beside itself" % (
            d.routine, ran["converted"])
    return "%s ran %d times on the legacy side and %d converted, never from %s to %s" % (
        d.routine, ran["legacy"], ran["converted"], d.frm, d.to)


def compare_report(rep, results):
    rows = [[r["driver"], r["scenario"], "concurrent" if r["concurrent"] else "single",
             r["verdict"], r["why"]] for r in results]
    rep.section("Behaviour", ["driver", "scenario", "load", "verdict", "why (the first reason)"],
                rows)
    # the profiles, routine by routine, over every scenario
    prows = []
    for r in results:
        lp, cp = r["details"]["legacy_profile"], r["details"]["converted_profile"]
        for name in sorted(set(lp) | set(cp)):
            lo, co = lp.get(name, {}), cp.get(name, {})
            prows.append(["%s/%s" % (r["driver"], r["scenario"]), name,
                          "%s / %s" % (lo.get("queued", "-"), co.get("queued", "-")),
                          "%s / %s" % (lo.get("ran", "-"), co.get("ran", "-")),
                          "%s / %s" % (compare.fmt_counts(lo.get("queued_from") or {}),
                                       compare.fmt_counts(co.get("queued_from") or {})),
                          "%s / %s" % ("+".join(sorted(lo.get("queues") or {})) or "-",
                                       "+".join(sorted(co.get("queues") or {})) or "-")])
    rep.section("Profiles (legacy / converted, over the seeds)",
                ["scenario", "routine", "queued (times)", "ran (times)", "queued from (times)",
                 "ran on"], prows, quiet=True)
    frows = []
    for r in results:
        lf, cf = r["details"]["legacy_flushes"], r["details"]["converted_flushes"]
        for fn in sorted(set(lf) | set(cf)):
            lo, co = lf.get(fn, {}), cf.get(fn, {})
            frows.append(["%s/%s" % (r["driver"], r["scenario"]), fn,
                          ", ".join(sorted(lo.get("covers") or {})) or "-",
                          ", ".join(sorted(co.get("covers") or {})) or "-",
                          ", ".join("%s on %s" % (k, v) for k, v in
                                    sorted((co.get("elsewhere") or {}).items())) or "-"])
    rep.section("Flush coverage: what each flush call site waited for",
                ["scenario", "flush in", "legacy waited for", "converted waited for",
                 "converted left waiting elsewhere"], frows,
                "On the task queue every flush_scheduled_tasks() waits for all keventd "
                "holds; after the conversion each flush site must still wait for every "
                "routine it waited for, or the report says which it no longer covers and "
                "on which queue that routine is now.", quiet=True)
    rep.data["flushes"] = frows


if __name__ == "__main__":
    sys.exit(main())
