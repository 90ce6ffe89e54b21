"""race - the concurrency a conversion adds, and what ThreadSanitizer says of it.

keventd ran one task at a time, so legacy code could share state between
its routines without a lock; per-CPU workers run them at once.  This step
lists, per scenario, the pairs of routines that keventd kept apart and the
workqueue let overlap ("new concurrency"), and runs the converted side of
each scenario under ThreadSanitizer (the shim's locks, wait queues,
completions and atomics tell it what they order): a data race one of whose
accesses is in a work routine makes the scenario DIFFERENT, with both
accesses' stacks and source lines.
"""
import concurrent.futures
import os
import re

import runner
from report import say

TSAN = "-fsanitize=thread"


def parse_races(text):
    """Each ThreadSanitizer data race: [(access, [frames])] for its two stacks."""
    races = []
    for block in text.split("WARNING: ThreadSanitizer: data race")[1:]:
        block = block.split("SUMMARY:")[0]
        stacks = []
        for part in re.split(r"\n\s*\n", block):
            lines = part.strip().splitlines()
            if not lines or not re.match(r"(Previous )?(write|read|atomic)", lines[0].strip(),
                                         re.I):
                continue
            frames = []
            for line in lines[1:]:
                m = re.match(r"\s*#\d+ (\S+) (\S+)", line)
                if m:
                    frames.append((m.group(1), os.path.basename(m.group(2).split(" ")[0])))
            stacks.append((lines[0].strip().split(" at ")[0], frames))
        if len(stacks) >= 2:
            races.append(stacks[:2])
    return races


def routine_in(frames, routines):
    for fn, where in frames:
        if fn in routines:
            return fn, where
    return None


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
    want = args.race == "yes" or (args.race == "auto" and not args.quick)
    if not want:
        say("race check: off (--race yes to run the converted side under ThreadSanitizer)")
        rep.data["concurrency"]["race_check"] = "off"
        return
    out = os.path.join(runner.BUILD, "demo", "tsan")
    err = runner.make("side-binaries", BUILD=os.path.join(out, "build"), SAN=TSAN,
                      OUT=os.path.join(out, "converted"), STACK="workqueue", SRCDIR=converted,
                      EXTRA_OBJS=os.path.join(os.path.dirname(__file__), "monitor.c"),
                      BINARIES=" ".join(sorted({r["driver"] if r["driver"] != "mixed"
                                                else "all" for r in results
                                                if not r["driver"].startswith("extra")})))
    if err:
        say("race check: the ThreadSanitizer build failed:\n" + err[-2000:])
        rep.data["concurrency"]["race_check"] = "build failed"
        return

    def one(r):
        exe = os.path.join(out, "converted", "all" if r["driver"] == "mixed" else r["driver"])
        if not os.path.exists(exe):
            return r, None
        res = runner.run(exe, r["driver"], r["scenario"], 1,
                         env={"TSAN_OPTIONS": "halt_on_error=0 report_signal_unsafe=0"},
                         timeout=300)
        return r, res

    races = []
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for r, res in pool.map(one, [r for r in results if "exe" in r]):
            if res is None:
                continue
            routines = set(r["details"]["converted_profile"])
            for (acc1, f1), (acc2, f2) in parse_races(res.stderr):
                hit = routine_in(f1, routines) or routine_in(f2, routines)
                if not hit:
                    continue
                top1 = "%s (%s)" % f1[0] if f1 else "?"
                top2 = "%s (%s)" % f2[0] if f2 else "?"
                text = ("data race under ThreadSanitizer involving %s: %s in %s, "
                        "%s in %s" % (hit[0], acc1, top1, acc2.lower(), top2))
                if text in r["reasons"]:
                    continue
                r["reasons"].append(text)
                r["verdict"], r["why"] = "DIFFERENT", r["reasons"][0]
                races.append([r["driver"], r["scenario"], hit[0], "%s: %s" % (acc1, " <- ".join(
                    "%s %s" % x for x in f1[:4])), "%s: %s" % (acc2, " <- ".join(
                        "%s %s" % x for x in f2[:4]))])
                say("  %-9s %-16s DIFFERENT: %s" % (r["driver"], r["scenario"], text))
    say("race check: %d scenarios under ThreadSanitizer, %d races involving a routine" % (
        len(results), len(races)))
    rep.section("Races ThreadSanitizer found in the converted drivers",
                ["driver", "scenario", "routine", "one access (stack)", "the other (stack)"],
                races, quiet=True)
    rep.data["concurrency"]["races"] = races
