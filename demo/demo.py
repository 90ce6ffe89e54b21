#!/usr/bin/env python3
"""demo - the main job: convert every driver, run it on both stacks, compare.

usage: demo.py [--driver NAME] [--quick] [--extra DIR]... [--seeds N]
               [--converted DIR] [--out DIR]

1. Convert: the semantic patches and the design patches turn drivers/legacy
   into a fresh tree under build/demo/; per driver, the idioms each rule
   matched, the residue, and whether the result equals the committed
   drivers/converted (drift).
2. Build: every driver twice, legacy on the old task queue and converted on
   the workqueue core, each with the monitor (demo/monitor.c) linked in.
3. Run: every scenario of every driver on both stacks, with several seeds.
4. Compare: per scenario, "same", "intended" (the work moved on purpose:
   to a queue of its own, or from a bottom half to process context) or
   "DIFFERENT" (the first differing observable and both values); and the
   properties every run must have: each queued work ran exactly once, in
   process context, never concurrently with itself; nothing leaked.
5. Headline: latency of tty flip work while reiserfs commits that sleep are
   queued, on the task queue (one keventd for all) and the workqueue (commits on
   their own queue).
Writes build/report/{report.md,report.json,trace.json}; exits 0 only when
no scenario is DIFFERENT.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, "build", "demo")
DRIVERS = ["tty", "random", "floppy", "aio", "reiserfs", "kmod"]
# which source files make up each driver, for the conversion report
DRIVER_OF_FILE = {
    "tty_io.c": "tty", "vt.c": "tty", "serial_8250.c": "tty", "tty.h": "tty",
    "tty_flip.h": "tty", "random.c": "random", "floppy.c": "floppy",
    "aio.c": "aio", "reiserfs_journal.c": "reiserfs", "kmod.c": "kmod",
}
# the queues everyone shares: keventd on the task queue, events on the workqueue
SHARED = ("keventd", "events/")
BH = ("tq_immediate", "tq_timer")

TTY = sys.stdout.isatty()


def bold(s):
    return "\033[1m%s\033[0m" % s if TTY else s


def say(msg=""):
    print(msg, flush=True)


def step(n, title):
    say()
    say(bold("== %d. %s" % (n, title)))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def table(headers, rows):
    """A plain-text table, and the same as markdown."""
    cols = [[str(h)] + [str(r[i]) for r in rows] for i, h in enumerate(headers)]
    width = [max(len(c) for c in col) for col in cols]
    line = lambda r: "  ".join(str(v).ljust(w) for v, w in zip(r, width)).rstrip()
    text = [line(headers), line(["-" * w for w in width])] + [line(r) for r in rows]
    md = ["| " + " | ".join(str(h) for h in headers) + " |",
          "|" + "|".join("---" for _ in headers) + "|"]
    md += ["| " + " | ".join(str(v).replace("|", "\\|") for v in r) + " |" for r in rows]
    return "\n".join(text), "\n".join(md)


class Report:
    def __init__(self):
        self.md = ["# Conversion report", ""]
        self.data = {"conversion": {}, "scenarios": [], "headline": {},
                     "properties": {}, "verdict": None}

    def section(self, title, headers, rows, note=None):
        text, md = table(headers, rows)
        say(text)
        self.md += ["## " + title, "", md, ""]
        if note:
            say(note)
            self.md += [note, ""]


# ------------------------------------------------------------ 1. convert

def convert(args, rep):
    step(1, "Convert: semantic patches + design patches, drivers/legacy -> build/demo/converted")
    out = os.path.join(BUILD, "converted")
    stats_file = os.path.join(BUILD, "convert-stats.json")
    if args.converted:
        say("using the converted tree given: %s" % args.converted)
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(args.converted, out)
        stats = {}
        ok = True
    else:
        r = run([os.path.join(TOP, "scripts", "convert-drivers"), out, stats_file])
        sys.stdout.write(r.stdout)
        if r.returncode:
            sys.stdout.write(r.stderr)
            say("conversion FAILED (exit %d)" % r.returncode)
        ok = r.returncode == 0
        try:
            with open(stats_file) as f:
                stats = json.load(f)
        except (OSError, ValueError):
            stats = {}

    drift = {}
    committed = os.path.join(TOP, "drivers", "converted")
    r = run(["diff", "-r", "-q", out, committed])
    for line in r.stdout.splitlines():
        # "Files A and B differ" / "Only in X: f"
        name = line.split()[1] if line.startswith("Files") else line.split(": ")[-1]
        drv = DRIVER_OF_FILE.get(os.path.basename(name), "other")
        drift.setdefault(drv, []).append(os.path.relpath(name, out) if name.startswith(out) else name)

    files = stats.get("files", {}) if isinstance(stats, dict) else {}
    per = {}
    for path, info in files.items():
        drv = DRIVER_OF_FILE.get(os.path.basename(path), "other")
        d = per.setdefault(drv, {"rules": {}, "residue": 0})
        for rule, n in (info.get("rules") or {}).items():
            d["rules"][rule] = d["rules"].get(rule, 0) + n
        d["residue"] += len(info.get("residue") or [])
    rows = []
    for drv in sorted(set(list(per) + [d for d in DRIVERS if d in args.drivers])):
        if drv not in args.drivers and drv != "other":
            continue
        d = per.get(drv, {"rules": {}, "residue": 0})
        matched = ", ".join("%s %d" % (k, v) for k, v in sorted(d["rules"].items()) if v)
        rows.append([drv, matched or "-", d["residue"],
                     "DRIFT: " + " ".join(drift[drv]) if drv in drift else "none"])
    rep.data["conversion"] = {"ok": ok, "drivers": per, "drift": drift}
    rep.section("Conversion", ["driver", "idioms matched (rule count)", "residue", "drift"],
                rows)
    return out, ok and not drift


# ------------------------------------------------------------ 2. build

def build(args, converted):
    step(2, "Build: legacy drivers on the task queue, converted drivers on the workqueue core")
    env = dict(os.environ, EXTRA_OBJS=os.path.join(TOP, "demo", "monitor.c"))
    bins = {}
    for side, stack, src in (("legacy", "taskqueue", os.path.join(TOP, "drivers", "legacy")),
                             ("converted", "workqueue", converted)):
        out = os.path.join(BUILD, "bin", side)
        want = [d for d in args.drivers if d in DRIVERS] + ["all"]
        r = run([os.path.join(TOP, "drivers", "build.sh"), stack, src, out] + want, env=env)
        if r.returncode:
            sys.stdout.write(r.stdout + r.stderr)
            say("build FAILED for the %s drivers" % side)
            sys.exit(1)
        say("%-9s %d binaries in %s" % (side, len(want), os.path.relpath(out, TOP)))
        bins[side] = out
    for ex in args.extra:
        bins.update(build_extra(ex))
    return bins


def build_extra(d):
    """A user's driver: d/*.c (legacy) and d/scenarios/*.c, converted here."""
    name = os.path.basename(os.path.normpath(d))
    out = os.path.join(BUILD, "extra", name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    conv = os.path.join(out, "converted")
    r = run([os.path.join(TOP, "semantic-patches", "convert"), "-o", conv, d])
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr)
    kcflags = run(["make", "-s", "-C", TOP, "--no-print-directory", "cflags"]).stdout.split()
    built = {}
    for side, stack, src in (("legacy", "taskqueue", d), ("converted", "workqueue", conv)):
        ldlibs = run(["make", "-s", "-C", TOP, "--no-print-directory", "ldlibs",
                      "STACK=" + stack]).stdout.split()
        srcs = [os.path.join(src, f) for f in sorted(os.listdir(src)) if f.endswith(".c")]
        scns = [os.path.join(d, "scenarios", f)
                for f in sorted(os.listdir(os.path.join(d, "scenarios"))) if f.endswith(".c")]
        exe = os.path.join(out, side, name)
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        cmd = ["cc", "-O2", "-g"] + kcflags + [
            "-I" + os.path.join(src, "include"), "-I" + os.path.join(TOP, "drivers", "include"),
            "-I" + os.path.join(TOP, "drivers", "scenarios"),
            '-DSTACK_NAME="%s"' % stack, "-o", exe,
            os.path.join(TOP, "drivers", "scenarios", "main.c"),
            os.path.join(TOP, "demo", "monitor.c")] + srcs + scns + ldlibs
        r = run(cmd)
        if r.returncode:
            say("build of %s (%s) FAILED:\n%s" % (name, stack, r.stderr))
            sys.exit(1)
        built.setdefault("extra:" + name, {})[side] = exe
    say("extra   %s: built on both stacks" % name)
    return built


# ------------------------------------------------------------ 3. run

def parse(stdout):
    scn, mon = None, None
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if "monitor" in obj:
            mon = obj["monitor"]
        elif "observables" in obj:
            scn = obj
    return scn, mon


def run_one(exe, driver, scenario, seed, trace=None, label=None):
    env = dict(os.environ, SHIM_LOGLEVEL="4")
    if trace:
        env["DEMO_TRACE"] = trace
        env["DEMO_TRACE_LABEL"] = label or ""
    t = time.time()
    try:
        r = subprocess.run([exe, "--driver", driver, "--scenario", scenario,
                            "--seed", str(seed)], capture_output=True, text=True,
                           env=env, timeout=120)
        out, rc, err = r.stdout, r.returncode, r.stderr
    except subprocess.TimeoutExpired as e:
        out, rc, err = (e.stdout or b"").decode(errors="replace"), "timeout", ""
    scn, mon = parse(out)
    return {"rc": rc, "scenario": scn, "monitor": mon, "stderr": err[-2000:],
            "seconds": round(time.time() - t, 2)}


def scenarios_of(exe, driver):
    """(driver, name, concurrent, what) of each scenario; all if driver is None."""
    r = run([exe, "--list"])
    out = []
    for line in r.stdout.splitlines():
        f = line.split("\t")
        if len(f) >= 3 and (driver is None or f[0] == driver):
            out.append((f[0], f[1], f[2] == "concurrent", f[3] if len(f) > 3 else ""))
    return out


# ------------------------------------------------------------ 4. compare

def placement(threads, queues):
    """Where a routine ran: the shared queue, a bottom half, or its own."""
    kinds = set()
    for q in queues:
        if q.startswith(BH):
            kinds.add("bottom half")
        elif q.startswith(SHARED):
            kinds.add("shared queue")
        else:
            kinds.add("own queue " + q.split("/")[0])
    return kinds


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


def properties(res):
    """The per-run properties; a list of what broke."""
    broke = []
    if res["rc"] != 0:
        broke.append("exit %s" % res["rc"])
    scn, mon = res["scenario"], res["monitor"]
    if not scn:
        broke.append("no scenario output")
        return broke
    for k, v in scn.get("invariants", {}).items():
        if not v:
            broke.append("invariant %s" % k)
    if scn.get("leaks"):
        broke.append("%d allocations leaked" % scn["leaks"])
    if mon:
        if mon["never_ran"]:
            broke.append("%d queued works never ran" % mon["never_ran"])
        if mon["queued"] != mon["ran"]:
            broke.append("queued %d, ran %d" % (mon["queued"], mon["ran"]))
        if mon["self_concurrent"]:
            broke.append("%d runs concurrent with themselves" % mon["self_concurrent"])
    return broke


def compare(old, new):
    """(verdict, why) for one scenario run on both stacks."""
    broke = ["legacy: " + b for b in properties(old)] + ["converted: " + b for b in properties(new)]
    if broke:
        return "DIFFERENT", "; ".join(broke)
    d = first_difference(old["scenario"]["observables"], new["scenario"]["observables"])
    if d:
        return "DIFFERENT", "%s: legacy %s, converted %s" % (
            d[0].lstrip("."), json.dumps(d[1])[:80], json.dumps(d[2])[:80])
    moved = []
    mo, mn = old["monitor"] or {}, new["monitor"] or {}
    for name, r in sorted((mn.get("routines") or {}).items()):
        o = (mo.get("routines") or {}).get(name)
        if not o:
            continue
        po, pn = placement(o["threads"], o["queues"]), placement(r["threads"], r["queues"])
        if po != pn:
            moved.append("%s: %s -> %s" % (name, "/".join(sorted(po)), "/".join(sorted(pn))))
        if o["in_atomic"] and not r["in_atomic"]:
            moved.append("%s now runs in process context" % name)
    if moved:
        return "intended", "; ".join(sorted(set(moved)))
    return "same", "observables equal"


# ------------------------------------------------------------ 5. headline

def percentile_row(label, lat):
    return [label, lat.get("n", 0), lat.get("p50", "-"), lat.get("p99", "-"), lat.get("max", "-")]


def headline(args, bins, rep):
    step(5, "Headline: tty flip work while reiserfs commits sleep")
    exe = {s: os.path.join(bins[s], "all") for s in ("legacy", "converted")}
    if not all(os.path.exists(e) for e in exe.values()):
        say("no cross-driver binary: skipped")
        return
    found = [s for s in scenarios_of(exe["legacy"], "mixed") if s[1] == "isolation"]
    if not found:
        say("no mixed/isolation scenario: skipped")
        return
    traces = {}
    lat = {}
    for stack in ("legacy", "converted"):
        tr = os.path.join(BUILD, "trace-%s.json" % stack)
        res = run_one(exe[stack], "mixed", "isolation", 1, trace=tr,
                      label="%s stack" % ("old (keventd)" if stack == "legacy" else "new (workqueues)"))
        mon = res["monitor"] or {}
        lat[stack] = ((mon.get("routines") or {}).get("flush_to_ldisc") or {}).get("latency_us", {})
        try:
            with open(tr) as f:
                traces[stack] = json.load(f)["traceEvents"]
        except (OSError, ValueError, KeyError):
            traces[stack] = []
    rows = [percentile_row("old: keventd shared with commits", lat["legacy"]),
            percentile_row("new: events, commits on reiserfs/N", lat["converted"])]
    ratio = {}
    for p in ("p50", "p99"):
        o, n = lat["legacy"].get(p), lat["converted"].get(p)
        ratio[p] = round(o / max(n, 1), 1) if o is not None and n is not None else None
    rows.append(["ratio old/new", "", ratio["p50"], ratio["p99"], ""])
    rep.section("Headline: tty flip latency under sleeping journal commits (microseconds, queue to start)",
                ["stack", "samples", "p50", "p99", "max"], rows,
                "The task queue runs every task on one keventd, so a tty flip waits behind "
                "journal commits that sleep; the workqueue gives the commits a queue of their "
                "own, as the seed patch does.")
    rep.data["headline"] = {"tty_flip_latency_us": lat, "ratio_old_over_new": ratio}
    os.makedirs(args.out, exist_ok=True)
    events = traces["legacy"] + traces["converted"]
    with open(os.path.join(args.out, "trace.json"), "w") as f:
        json.dump({"traceEvents": events, "displayTimeUnit": "ms"}, f)
    say("timeline: %s (open in Perfetto or chrome://tracing)" %
        os.path.relpath(os.path.join(args.out, "trace.json"), TOP))


# ------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--driver", action="append", help="only this driver (repeatable)")
    ap.add_argument("--quick", action="store_true", help="one seed, for CI")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--extra", action="append", default=[], help="a directory holding your own legacy driver")
    ap.add_argument("--converted", help="use this converted tree instead of converting")
    ap.add_argument("--out", default=os.path.join(TOP, "build", "report"))
    args = ap.parse_args()
    args.drivers = args.driver or DRIVERS
    for d in args.drivers:
        if d not in DRIVERS:
            ap.error("no driver %s (have: %s)" % (d, " ".join(DRIVERS)))
    for d in args.extra:
        if not os.path.isdir(os.path.join(d, "scenarios")):
            ap.error("%s: an extra driver is a directory with its legacy .c files "
                     "and a scenarios/ directory (see README)" % d)
    seeds = [1] if args.quick else list(range(1, args.seeds + 1))
    os.makedirs(BUILD, exist_ok=True)
    rep = Report()
    t0 = time.time()

    converted, conv_ok = convert(args, rep)
    bins = build(args, converted)

    step(3, "Run: every scenario, both stacks, seeds %s" % ",".join(map(str, seeds)))
    jobs = []
    for drv in args.drivers:
        exe = {s: os.path.join(bins[s], drv) for s in ("legacy", "converted")}
        jobs += [s + (exe,) for s in scenarios_of(exe["legacy"], drv)]
    if not args.driver:
        # the cross-driver scenarios: every driver at once
        exe = {s: os.path.join(bins[s], "all") for s in ("legacy", "converted")}
        jobs += [s + (exe,) for s in scenarios_of(exe["legacy"], "mixed")]
    for key, exe in sorted((k, v) for k, v in bins.items() if k.startswith("extra:")):
        jobs += [s + (exe,) for s in scenarios_of(exe["legacy"], None)]

    results = []
    for drv, name, conc, what, exe in jobs:
        runs = []
        for seed in seeds:
            old = run_one(exe["legacy"], drv, name, seed)
            new = run_one(exe["converted"], drv, name, seed)
            runs.append((seed, old, new, compare(old, new)))
        verdicts = [r[3][0] for r in runs]
        verdict = "DIFFERENT" if "DIFFERENT" in verdicts else (
            "intended" if "intended" in verdicts else "same")
        why = next(r[3][1] for r in runs if r[3][0] == verdict)
        secs = sum(r[1]["seconds"] + r[2]["seconds"] for r in runs)
        say("  %-9s %-16s %-10s %-9s (%.1fs)" % (drv, name, "concurrent" if conc else "single",
                                                 verdict, secs))
        results.append({"driver": drv, "scenario": name, "concurrent": conc, "what": what,
                        "verdict": verdict, "why": why, "seeds": seeds,
                        "runs": [{"seed": s, "legacy": o["scenario"], "converted": n["scenario"],
                                  "legacy_monitor": o["monitor"], "converted_monitor": n["monitor"],
                                  "verdict": v[0], "why": v[1]} for s, o, n, v in runs]})
        for s, o, n, v in runs:
            if v[0] == "DIFFERENT":
                for label, res in (("legacy", o), ("converted", n)):
                    if res["rc"] != 0 and res["stderr"].strip():
                        say("    %s seed %d stderr: %s" % (label, s, res["stderr"].strip().splitlines()[-1]))

    step(4, "Compare")
    rows = [[r["driver"], r["scenario"], "concurrent" if r["concurrent"] else "single",
             r["verdict"], r["why"]] for r in results]
    rep.section("Behaviour", ["driver", "scenario", "load", "verdict", "why"], rows)
    props = {"runs": 2 * len(results) * len(seeds)}
    allruns = [(x, r) for r in results for x in r["runs"]]
    props["every queued work ran exactly once"] = all(
        (x[k] or {}).get("never_ran", 1) == 0 and (x[k] or {}).get("queued") == (x[k] or {}).get("ran")
        for x, _ in allruns for k in ("legacy_monitor", "converted_monitor"))
    props["no work ran concurrently with itself"] = all(
        (x[k] or {}).get("self_concurrent", 1) == 0
        for x, _ in allruns for k in ("legacy_monitor", "converted_monitor"))
    props["converted works run in process context"] = all(
        (x["converted_monitor"] or {}).get("in_atomic", 1) == 0 for x, _ in allruns)
    props["nothing leaked"] = all(
        (x[k] or {}).get("leaks", 1) == 0 for x, _ in allruns for k in ("legacy", "converted"))
    rep.section("Properties of every run", ["property", "holds"],
                [[k, "yes" if v is True else ("NO" if v is False else v)] for k, v in props.items()])
    rep.data["scenarios"] = results
    rep.data["properties"] = props

    if any(d in args.drivers for d in ("tty", "reiserfs")) or not args.driver:
        headline(args, bins, rep)

    counts = {v: sum(1 for r in results if r["verdict"] == v) for v in ("same", "intended", "DIFFERENT")}
    # drift and residue are reported above; behaviour decides the verdict
    ok = counts["DIFFERENT"] == 0 and all(v is not False for v in props.values())
    verdict = "%s: %d scenarios, %d same, %d intended, %d DIFFERENT; conversion %s (%.0fs)" % (
        "PASS" if ok else "FAIL", len(results), counts["same"], counts["intended"],
        counts["DIFFERENT"], "clean" if conv_ok else "with residue or drift", time.time() - t0)
    rep.data["verdict"] = {"ok": ok, "counts": counts, "text": verdict}
    say()
    say(bold(verdict))
    rep.md += ["## Verdict", "", verdict, ""]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write("\n".join(rep.md))
    with open(os.path.join(args.out, "report.json"), "w") as f:
        json.dump(rep.data, f, indent=1)
    say("report: %s, %s" % (os.path.relpath(os.path.join(args.out, "report.md"), TOP),
                            os.path.relpath(os.path.join(args.out, "report.json"), TOP)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
