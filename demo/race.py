"""race - the concurrency a conversion adds, and what ThreadSanitizer says of it.

keventd ran one task at a time, so legacy code could share state between
its routines without a lock; per-CPU workers run them at once.  This step
lists, per scenario, the pairs of routines that keventd kept apart and the
workqueue let overlap ("new concurrency"), and runs the converted side of
each scenario under ThreadSanitizer (the shim's locks, wait queues,
completions and atomics tell it what they order).  A data race both of
whose accesses are in work routines (one routine twice, or two) is
concurrency keventd never allowed: it makes the scenario DIFFERENT, with
both accesses' stacks and source lines.  A race between a routine and
code outside any routine (an interrupt handler, a system call) could
happen on the old stack too, where keventd ran beside the other CPUs'
interrupts and processes; so could one between two routines of which
the legacy side ran one on keventd and the other in a bottom half or
the timer's (a hangup on keventd, a write wakeup in a bottom half).  Such
a race is the legacy driver's own only when the legacy side, built and
run under ThreadSanitizer the same way, races on the same two functions,
or its routine with the same other function (a witness, as the judge asks
one for everything else): a lock the legacy routine took, the big kernel
lock that release_dev() also held, may be exactly what the conversion
dropped.  The witness may come from another scenario that runs the same
code (mixed's aio race shows in aio's own); and while a race has none,
the legacy side runs again under more seeds (WITNESS_RUNS), its
scenario and the others running its code in turn, for whether the
legacy routine meets the other code unordered is the host's timing.

A race between routines needs two runs of work routines (two routines,
or one twice): with --quick the check runs on every scenario whose
converted side ran at least two, in the Run step or an explored schedule,
whatever the runs' timing happened to show (they may have run one after
the other on one worker, and still race where the host puts them
apart); it skips only scenarios where no two runs exist to race.  Under
ThreadSanitizer each scenario runs with SHIM_WQ_SPREAD=1 (RUNS times where
routines keventd kept apart overlapped): a queuer that
could move between CPUs is taken to have, so that the works one task
queues run on two workers and what orders them is what TSan checks,
not which CPU the host kept the task on.
"""
import concurrent.futures
import os
import re

import compare
import runner
from report import say

TSAN = "-fsanitize=thread"
# runs under ThreadSanitizer, seeds 1 to RUNS, of a scenario whose runs
# overlapped routines keventd kept apart: a race shows only in a run where
# nothing happened to order its two accesses (a lock one routine took after
# its write and the other before its read), which is the host's timing; one
# run in sixteen of tty's storm had __do_SAK's unlocked session write
# ordered so, three all together one in four thousand
RUNS = 3
TSAN_LIBS = os.path.join(runner.BUILD, "demo", "tsan", "build")


def parse_races(text):
    """Each ThreadSanitizer data race: its two accesses, each (what, [(function,
    file:line)]), and where the memory is ("global 'events'", "heap")."""
    races = []
    for block in text.split("WARNING: ThreadSanitizer: data race")[1:]:
        block = block.split("SUMMARY:")[0]
        stacks, cur, location = [], None, ""
        for line in block.splitlines():
            s = line.strip()
            if re.match(r"(Previous )?(atomic )?(write|read)", s, re.I):
                cur = (s.split(" at 0x")[0], [])
                stacks.append(cur)
                continue
            m = re.match(r"#\d+ (\S+) (\S+)(?: \(\S+\+(0x[0-9a-f]+)\))?", s)
            if m and cur is not None:
                where = m.group(2)
                # no line from TSan's symbolizer (an inlined call): the offset
                cur[1].append((m.group(1), os.path.basename(where) if where != "<null>"
                               else "+" + (m.group(3) or "?")))
                continue
            if not s:
                cur = None
            if s.startswith("Location is"):
                location = s[len("Location is "):].split(" of size")[0]
        if len(stacks) >= 2:
            races.append((stacks[0], stacks[1], location))
    return races


def resolve(exe, races):
    """Give frames TSan could not place their file:line, from the binary."""
    import subprocess
    offsets = sorted({w[1:] for race in races for acc in race[:2] for _, w in acc[1]
                      if w.startswith("+0x")})
    if not offsets:
        return races
    r = subprocess.run(["addr2line", "-i", "-a", "-e", exe] + offsets,
                       capture_output=True, text=True, errors="replace")
    lines, cur, place = r.stdout.splitlines(), None, {}
    for line in lines:
        if line.startswith("0x"):
            cur = "%#x" % int(line, 16)
        elif cur and cur not in place:
            place[cur] = os.path.basename(line.split(" ")[0])
    out = []
    for race in races:
        accs = []
        for what, frames in race[:2]:
            accs.append((what, [(f, place.get("%#x" % int(w[1:], 16), "?")
                                 if w.startswith("+0x") else w) for f, w in frames]))
        out.append((accs[0], accs[1], race[2]))
    return out


def routine_in(frames, routines):
    for fn, where in frames:
        if fn in routines:
            return fn, where
    return None


def may_race(r):
    """Whether a scenario's converted side ran work routines twice (two
    routines, or one twice) in a free run, or overlapped them in an
    explored one: then two of them can overlap, and ThreadSanitizer may
    find a race between them.  Decided from what ran, not from how the
    runs' timing happened to place them."""
    if r.get("explored_overlaps"):
        return True
    for run in r["runs"]:
        mon = run.get("converted_monitor") or {}
        if sum(p.get("ran", 0) for p in (mon.get("routines") or {}).values()) >= 2:
            return True
    return False


def runs_of(r):
    """How many runs under ThreadSanitizer scenario @r gets: RUNS where a
    free run or an explored schedule overlapped two routines (one twice)
    that keventd kept apart, one elsewhere."""
    prof = r["details"]["legacy_profile"]
    if r["details"].get("new_concurrency") or any(
            not compare.legacy_could_overlap(a, b, prof)
            for a, b in r.get("explored_overlaps") or []):
        return RUNS
    return 1


def different(r, text):
    """Scenario @r's race, the conversion's: to its judge, if it has one."""
    j = r.get("judge")
    if j is not None:
        import compare
        import judge
        j.findings.setdefault("race check", []).append(compare.Finding("race", text))
        verdict, reasons, intended, own = judge.decide(j)
        r["verdict"], r["reasons"], r["intended"] = verdict, reasons, intended
        r["why"] = reasons[0]
    else:
        r["reasons"].append(text)
        r["verdict"], r["why"] = "DIFFERENT", r["reasons"][0]
    say("  %-9s %-16s DIFFERENT: %s" % (r["driver"], r["scenario"], text))


def pair_of(f1, f2):
    """A race's two accesses as the functions they were made in: what the
    legacy side's race must name too."""
    return frozenset(((f1[0][0] if f1 else "?"), (f2[0][0] if f2 else "?")))


def same_race(conv, legacy):
    """Whether the legacy side's race @legacy is the converted side's @conv,
    each a pair of accesses (frames, the routine the frames run in or
    None): the same two functions made the accesses, or the routine of one
    access and the function that made the other are in the legacy race's
    stacks, one in each (a helper inlined on one side only, another caller
    of the same routine's)."""
    (fa, ra), (fb, rb) = conv
    ga, gb = legacy
    if pair_of(fa, fb) == pair_of(ga, gb):
        return True
    names_a, names_b = {f for f, _ in ga}, {f for f, _ in gb}
    for routine, other in ((ra, fb), (rb, fa)):
        if not routine or not other:
            continue
        top = other[0][0]
        if (routine in names_a and top in names_b) or (routine in names_b and top in names_a):
            return True
    return False


# legacy runs under ThreadSanitizer, beyond the first RUNS seeds of each
# scenario, that a race of the converted side gets while no legacy run has
# shown it: whether the legacy side's routine meets the other code
# unordered is the host's timing, as on the converted side (tty
# hangup_sak's keyboard interrupt beside console_callback shows in about a
# legacy run of four)
WITNESS_RUNS = 30


def legacy_races(args, maybe, out, libs, monitor, manifest, converted, results=()):
    """The legacy side of each scenario in @maybe (r, row, text, accesses),
    built and run under ThreadSanitizer as the converted side was: seeds 1
    to RUNS; then, while a race has no witness (witness_of()), up to
    WITNESS_RUNS more runs for it, a round at a time: two of its scenario
    for one of the others in turn, those whose converted side raced
    alike, those of @results that run the same code and whose legacy side
    ran its routine, the scenarios of the driver of its files.
    {(driver, scenario): [(seed, accesses)]} of the races the legacy side
    showed, and {(driver, scenario): runs made}."""
    built = set()

    def build(drivers):
        """The shipped drivers' legacy binaries for @drivers, once."""
        want = {d if d != "mixed" else "all" for d in drivers if d in manifest} - built
        if not want:
            return None
        built.update(want)
        return runner.make("side-binaries", BUILD=libs, SAN=TSAN,
                           OUT=os.path.join(out, "legacy"), STACK="taskqueue",
                           SRCDIR=os.path.join(runner.TOP, "drivers", "legacy"),
                           EXTRA_OBJS=monitor, BINARIES=" ".join(sorted(want)))

    err = build({r["driver"] for r, _, _, _ in maybe})
    exes = {}
    for r, _, _, _ in maybe:
        if r["driver"] in manifest or r["driver"] in exes or err:
            continue
        src = r["exe"].get("source")
        if src:
            import source
            try:
                exes[r["driver"]] = source.build(
                    src, monitor, coverage=False, san=TSAN, build_dir=libs,
                    out=os.path.join(out, "src", src.name), sides=("legacy",))["legacy"]
            except source.StepFailed as e:
                err = str(e)
            runner.ENV_OF[os.path.abspath(exes.get(r["driver"], ""))] = dict(src.env)
            continue
        # a driver of one's own (EXTRA=): its legacy sources where they are
        srcdir = r["exe"]["trees"]["legacy"].root
        exe = os.path.join(out, "extra-legacy", r["driver"])
        err = runner.make("scenario-binary", BUILD=libs, SAN=TSAN, BINARY=exe,
                          STACK="taskqueue", SRCDIR=srcdir,
                          SOURCES=" ".join(f for f in sorted(os.listdir(srcdir))
                                           if f.endswith(".c")),
                          SCENARIO_FILES=" ".join(r["exe"]["scenario_files"]),
                          EXTRA_OBJS=monitor)
        exes[r["driver"]] = exe
    shown, runs = {}, {}
    if err:
        say("race check: the legacy side's ThreadSanitizer build failed, so no race is "
            "its:\n" + err[-2000:])
        return shown, runs

    def one(t):
        drv, scn, seed = t
        exe = exes.get(drv) or os.path.join(out, "legacy", "all" if drv == "mixed" else drv)
        if not os.path.exists(exe):
            return t, None, exe
        return t, runner.run(exe, drv, scn, seed, env={
            "TSAN_OPTIONS": "halt_on_error=0 report_signal_unsafe=0 "
            "suppress_equal_addresses=0", "SHIM_WQ_SPREAD": "1"}, timeout=300), exe

    listed = {}

    def scenarios_of(driver):
        """A shipped driver's scenarios, concurrent ones first."""
        if driver not in listed:
            listed[driver] = []
            if not build({driver}):
                scns = runner.scenarios_of(os.path.join(out, "legacy", driver), driver)
                listed[driver] = [(driver, x.name) for x in
                                  sorted(scns, key=lambda x: (not x.concurrent, x.name))]
        return listed[driver]

    def candidates(r, acc):
        """Where race @acc of scenario @r may show on the legacy side: its
        scenario, and the others: those whose converted side raced alike,
        those of the same code whose legacy side ran its routine, and a
        shipped driver's own scenarios, of the driver whose files the
        accesses were made in (mixed's race in aio.c: aio's)."""
        code = code_of(r["driver"], manifest)
        own = (r["driver"], r["scenario"])
        out = [own]
        alike = [(r2["driver"], r2["scenario"]) for r2, _, _, acc2 in maybe
                 if code_of(r2["driver"], manifest) == code and
                 same_race(acc, (acc2[0][0], acc2[1][0]))]
        ran = [(r2["driver"], r2["scenario"]) for r2 in results
               if code_of(r2["driver"], manifest) == code and
               (r2["driver"] in manifest or r2["driver"] in exes) and
               any(name and ((r2.get("details") or {}).get("legacy_profile") or {})
                   .get(name, {}).get("ran") for name in (acc[0][1], acc[1][1]))]
        driver = []
        if code == "drivers":
            files = {where.split(":")[0] for frames, _ in acc for _, where in frames[:1]}
            for d in runner.drivers():
                if files & set(d.sources):
                    driver += scenarios_of(d.name)
        for key in sorted(alike) + sorted(ran) + driver:
            if key not in out:
                out.append(key)
        return own, out[1:]

    seeds = {}
    batch = []
    for d, s in sorted({(r["driver"], r["scenario"]) for r, _, _, _ in maybe}):
        seeds[(d, s)] = RUNS
        batch += [(d, s, seed) for seed in range(1, RUNS + 1)]
    spent = {}
    with concurrent.futures.ThreadPoolExecutor(runner.cpus()) as pool:
        while batch:
            for (drv, scn, seed), res, exe in pool.map(one, batch):
                if res is None:
                    continue
                runs[(drv, scn)] = runs.get((drv, scn), 0) + 1
                for (_, f1), (_, f2), _ in resolve(exe, parse_races(res.stderr)):
                    shown.setdefault((drv, scn), []).append((seed, (f1, f2)))
            # a round more for each race still unshown, while it has runs left
            batch = []
            for i, (r, _, _, acc) in enumerate(maybe):
                if spent.get(i, 0) >= WITNESS_RUNS or \
                        witness_of(shown, acc, (r["driver"], r["scenario"]), manifest)[0]:
                    continue
                own, others = candidates(r, acc)
                n = min(runner.cpus(), WITNESS_RUNS - spent.get(i, 0))
                for j in range(spent.get(i, 0), spent.get(i, 0) + n):
                    # two runs of its own scenario for one of another's
                    d, s = own if j % 3 != 2 or not others else \
                        others[(j // 3) % len(others)]
                    seeds[(d, s)] = seeds.get((d, s), 0) + 1
                    batch.append((d, s, seeds[(d, s)]))
                spent[i] = spent.get(i, 0) + n
            err = build({d for d, _, _ in batch})
            if err:
                say("race check: the legacy side's ThreadSanitizer build failed, so no "
                    "more witness is looked for:\n" + err[-2000:])
                break
    return shown, runs


def code_of(driver, manifest):
    """Whose code a driver's binaries run: the shipped drivers' (mixed's
    scenarios run them all), or a driver of one's own."""
    return "drivers" if driver in manifest else driver


def witness_of(shown, acc, where, manifest):
    """The legacy run that showed the race of accesses @acc, of scenario
    @where's or another running the same code: (driver, scenario, seed),
    @where's first; (None,) if none."""
    code = code_of(where[0], manifest)
    for key in [where] + sorted(k for k in shown if k != where):
        if code_of(key[0], manifest) != code:
            continue
        for seed, legacy in shown.get(key, ()):
            if same_race(acc, legacy):
                return key + (seed,)
    return (None,)


def concurrency(args, rep, results, converted):
    rep.step("Concurrency: what the conversion lets overlap")
    rows = []
    for r in results:
        for a, b in r["details"]["new_concurrency"]:
            rows.append([r["driver"], r["scenario"], a, b])
    rep.section("New concurrency: routines keventd ran one at a time that now overlap",
                ["driver", "scenario", "routine", "routine"], rows,
                "Each pair is explained in drivers/README.md; whether it is safe is what "
                "the race check below says.")
    rep.data["concurrency"]["new"] = rows
    if args.race == "no":
        say("race check: off (--race yes to run the converted side under ThreadSanitizer)")
        rep.data["concurrency"]["race_check"] = "off"
        return
    # QUICK: only where a race between routines can be
    checked = [r for r in results if "exe" in r and
               (args.race == "yes" or not args.quick or may_race(r))]
    rep.data["concurrency"]["race_check"] = "%d of %d scenarios" % (len(checked), len(results))
    if not checked:
        say("race check: no scenario ran work routines twice")
        return
    out = os.path.join(getattr(args, "build", None) or os.path.join(runner.BUILD, "demo"),
                       "tsan")
    # the libraries under TSan are the same for every demo: built once, where
    # the default demo keeps them (scripts/mutate builds them before its demos)
    libs = TSAN_LIBS
    monitor = os.path.join(os.path.dirname(__file__), "monitor.c")
    manifest = set(runner.driver_names()) | {"mixed"}
    wanted = {r["driver"] if r["driver"] != "mixed" else "all" for r in checked
              if r["driver"] in manifest}
    err = None
    if wanted:
        err = runner.make("side-binaries", BUILD=libs, SAN=TSAN,
                          OUT=os.path.join(out, "converted"), STACK="workqueue",
                          SRCDIR=converted, EXTRA_OBJS=monitor,
                          BINARIES=" ".join(sorted(wanted)))
    tsan_exe = {}
    for r in checked:
        if r["driver"] in manifest or r["driver"] in tsan_exe or err:
            continue
        src = r["exe"].get("source")
        if src:
            # a driver of one's own, as it is: its converted side with TSan
            import source
            try:
                tsan_exe[r["driver"]] = source.build(
                    src, monitor, coverage=False, san=TSAN, build_dir=libs,
                    out=os.path.join(out, "src", src.name), sides=("converted",))["converted"]
            except source.StepFailed as e:
                err = str(e)
            runner.ENV_OF[os.path.abspath(tsan_exe.get(r["driver"], ""))] = dict(src.env)
            continue
        # a driver of one's own: its converted sources, built again with TSan
        src = os.path.dirname(r["exe"]["converted"])
        conv = os.path.join(os.path.dirname(src), "converted")
        exe = os.path.join(out, "extra", r["driver"])
        err = runner.make("scenario-binary", BUILD=libs, SAN=TSAN,
                          BINARY=exe, STACK="workqueue", SRCDIR=conv,
                          SOURCES=" ".join(f for f in sorted(os.listdir(conv))
                                           if f.endswith(".c")),
                          SCENARIO_FILES=" ".join(r["exe"]["scenario_files"]), EXTRA_OBJS=monitor)
        tsan_exe[r["driver"]] = exe
    if err:
        say("race check: the ThreadSanitizer build failed:\n" + err[-2000:])
        rep.data["concurrency"]["race_check"] = "build failed"
        return

    def one(r, seed):
        exe = tsan_exe.get(r["driver"]) or os.path.join(
            out, "converted", "all" if r["driver"] == "mixed" else r["driver"])
        if not os.path.exists(exe):
            return r, None
        res = runner.run(exe, r["driver"], r["scenario"], seed,
                         # a race the legacy driver had must not hide a new one on the same memory
                         env={"TSAN_OPTIONS": "halt_on_error=0 report_signal_unsafe=0 "
                              "suppress_equal_addresses=0", "SHIM_WQ_SPREAD": "1"},
                         # a hang under TSan: a shorter --timeout shortens it too
                         timeout=300 if getattr(args, "timeout", 120) >= 120
                         else 2 * args.timeout)
        return r, res

    races, old, seen, maybe = [], [], set(), []
    with concurrent.futures.ThreadPoolExecutor(runner.cpus()) as pool:
        for r, res in pool.map(lambda t: one(*t),
                               [(r, seed) for r in checked for seed in range(1, runs_of(r) + 1)]):
            if res is None:
                continue
            routines = set(r["details"]["converted_profile"])
            exe = tsan_exe.get(r["driver"]) or os.path.join(
                out, "converted", "all" if r["driver"] == "mixed" else r["driver"])
            for (acc1, f1), (acc2, f2), location in resolve(exe, parse_races(res.stderr)):
                r1, r2 = routine_in(f1, routines), routine_in(f2, routines)
                if not r1 and not r2:
                    continue
                hit = r1 or r2
                top1 = "%s (%s)" % f1[0] if f1 else "?"
                top2 = "%s (%s)" % f2[0] if f2 else "?"
                text = ("data race under ThreadSanitizer between %s and %s on %s: %s "
                        "in %s, %s in %s" % ((r1 or ("?",))[0], (r2 or ("?",))[0],
                                             location or "memory", acc1, top1,
                                             acc2.lower(), top2))
                # two routines the legacy side could run at once (keventd
                # beside a bottom half on another CPU): its race too
                new = bool(r1 and r2) and not compare.legacy_could_overlap(
                    r1[0], r2[0], r["details"]["legacy_profile"])
                key = (r["driver"], r["scenario"], text)
                if key in seen:
                    continue
                seen.add(key)
                row = [r["driver"], r["scenario"], hit[0],
                       "%s: %s" % (acc1, " <- ".join("%s %s" % x for x in f1[:4])),
                       "%s: %s" % (acc2, " <- ".join("%s %s" % x for x in f2[:4]))]
                if new:
                    different(r, text)
                    races.append(row)
                else:
                    # the legacy driver's too only if its race check says so
                    maybe.append((r, row, text, ((f1, r1 and r1[0]), (f2, r2 and r2[0]))))
    legacy_runs = 0
    if maybe:
        shown, runs = legacy_races(args, maybe, out, libs, monitor, manifest, converted,
                                   [r for r in results if "exe" in r])
        legacy_runs = sum(runs.values())
        for r, row, text, acc in maybe:
            where = (r["driver"], r["scenario"])
            w = witness_of(shown, acc, where, manifest)
            if w[0]:
                old.append(row + ["the legacy side's race check shows it too (%sseed %d)" % (
                    "" if w[:2] == where else "%s %s, " % w[:2], w[2])])
            else:
                different(r, "%s; the legacy side's race check does not show it (%d runs "
                          "under ThreadSanitizer, %d of them of this scenario)" % (
                              text, legacy_runs, runs.get(where, 0)))
                races.append(row)
    say("race check: %d%s scenarios under ThreadSanitizer%s, in %d runs (%d each where "
        "routines keventd kept apart overlapped), %d races the conversion's, "
        "%d the legacy side's race check shows too (%d legacy runs)" % (
            len(checked), "" if len(checked) == len(results) else " of %d" % len(results),
            "" if len(checked) == len(results) else " (those whose converted side ran work "
            "routines twice)", sum(runs_of(r) for r in checked), RUNS, len(races), len(old),
            legacy_runs))
    rep.section("Races ThreadSanitizer found between work routines in the converted drivers",
                ["driver", "scenario", "routine", "one access (stack)", "the other (stack)"],
                races, quiet=True)
    rep.section("Races the legacy driver had too: a routine and other code, or two "
                "routines it ran where they could overlap, which the legacy side's race "
                "check shows too",
                ["driver", "scenario", "routine", "one access (stack)", "the other (stack)",
                 "witness"],
                old, "keventd ran beside the other CPUs' interrupts, bottom halves and "
                "system calls, so a race there may be the port's, and the kernel's: it is "
                "when the legacy side, run under ThreadSanitizer the same way, races on the "
                "same two functions; else (a lock the legacy routine took that the "
                "conversion dropped) it is the conversion's.",
                quiet=True)
    rep.data["concurrency"]["races"] = races
    rep.data["concurrency"]["races_old"] = old
