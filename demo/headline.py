"""headline - tty flip latency while reiserfs commits sleep, on both sides."""
import json
import os

from report import say

import declarations
import runner


def samples(path, routine):
    out = []
    try:
        with open(path) as f:
            for line in f:
                name, us = line.split()
                if name == routine:
                    out.append(int(us))
    except (OSError, ValueError):
        pass
    return out


def headline(args, bins, rep, build):
    rep.step("Headline: tty flip work while reiserfs commits sleep")
    exe = {s: os.path.join(bins[s], "all") for s in ("legacy", "converted")}
    if not any(s.name == "isolation" for s in runner.scenarios_of(exe["legacy"], "mixed")):
        say("no mixed/isolation scenario: skipped")
        return
    traces, lat = {}, {}
    for side in ("legacy", "converted"):
        tr = os.path.join(build, "trace-%s.json" % side)
        lf = os.path.join(build, "latency-%s.txt" % side)
        label = "legacy (task queue, keventd)" if side == "legacy" else \
            "converted (workqueues)"
        runner.run(exe[side], "mixed", "isolation", 1,
                   env={"DEMO_TRACE": tr, "DEMO_TRACE_LABEL": label, "DEMO_LATENCY": lf})
        lat[side] = samples(lf, "flush_to_ldisc")
        try:
            with open(tr, errors="replace") as f:
                traces[side] = json.load(f)["traceEvents"]
        except (OSError, ValueError, KeyError):
            traces[side] = []
    # the same number of samples on both sides: the first n of each
    n = min(len(lat["legacy"]), len(lat["converted"]))
    figures = {}
    rows = []
    for side, label in (("legacy", "legacy: keventd shared with the commits"),
                        ("converted", "converted: events, commits on reiserfs/N")):
        s = lat[side][:n]
        f = {"samples": n, "of": len(lat[side]), "p50": runner.percentile(s, 50),
             "p99": runner.percentile(s, 99), "max": runner.percentile(s, 100)}
        figures[side] = f
        rows.append([label, "%d of %d" % (n, f["of"]), f["p50"], f["p99"], f["max"]])
    ratio = {}
    for p in ("p50", "p99"):
        o, c = figures["legacy"][p], figures["converted"][p]
        ratio[p] = round(o / max(c, 1), 1) if o is not None and c is not None else None
    rows.append(["ratio legacy/converted", "", ratio["p50"], ratio["p99"], ""])
    rep.section("Headline: tty flip latency under sleeping journal commits",
                ["side", "samples (first n of each)", "p50 (us)", "p99 (us)", "max (us)"],
                rows, "Queue-to-start latency of flush_to_ldisc, microseconds, the same "
                "number of samples on both sides.  The task queue runs every task on one "
                "keventd, so a tty flip waits behind journal commits that sleep; the "
                "workqueue gives the commits a queue of their own, as the seed patch does.")
    rep.data["headline"] = {"tty_flip_latency_us": figures, "ratio_legacy_over_converted": ratio}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "trace.json"), "w") as f:
        json.dump({"traceEvents": traces["legacy"] + traces["converted"],
                   "displayTimeUnit": "ms"}, f)
    say("timeline: %s (open in Perfetto or chrome://tracing)" %
        declarations.shown(os.path.join(args.out, "trace.json")))
