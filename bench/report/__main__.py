"""Turn bench/run's rounds into results.json, report.md and plots; print a summary.

Input: RAW/results.jsonl (one JSON object per round of one variant, tagged
by bench/run with figure, variant and round) and RAW/samples/*.txt (raw
latency samples, one a line).  Output, in OUT: results.json (machine,
figures, aims, failed rounds, plots), report.md and *.png.

With --from-results FILE, the aims, their explanations, the findings and
report.md are made again from a results.json alone: everything they say
comes from its figures and machine, nothing from the raw rounds.
"""

import argparse
import json
import os

from . import aims, benchmarks, findings, machine, markdown, plots, rounds, tables
from .figures import Figures


def main():
    ap = argparse.ArgumentParser(prog="report")
    ap.add_argument("--raw")
    ap.add_argument("--out", required=True)
    ap.add_argument("--from-results", metavar="FILE")
    ap.add_argument("--quick", default="0")
    ap.add_argument("--elapsed", type=int, default=0)
    ap.add_argument("--load-start", default="")
    a = ap.parse_args()
    if a.from_results:
        again(a.from_results, a.out)
        return
    if not a.raw:
        ap.error("--raw or --from-results is needed")

    rows = rounds.load(a.raw)
    host = machine.describe(a.load_start, a.quick == "1", a.elapsed)
    figs = Figures()
    cdfs = benchmarks.all_figures(figs, rows, a.raw)
    goals = aims.build(figs, host)
    found = findings.build(figs)
    failed = rounds.failed(rows)
    term = plots.terminal()
    made = plots.draw_all(a.out, term, figs, cdfs, [v for v, _, _ in benchmarks.THROUGHPUT])

    results = {"machine": host, "figures": figs.all, "aims": goals, "findings": found,
               "failed_rounds": failed, "plots": made}
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(markdown.write(host, figs, goals, found, made, failed))
    show(figs, goals, failed)


def again(path, out):
    """report.md, the aims and the findings from a results.json alone."""
    with open(path) as f:
        stored = json.load(f)
    figs = Figures.load(stored["figures"])
    host = stored["machine"]
    goals = aims.build(figs, host)
    found = findings.build(figs)
    failed = stored.get("failed_rounds", [])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(markdown.write(host, figs, goals, found, stored.get("plots", []), failed))
    show(figs, goals, failed)


def show(figs, goals, failed):
    """The summary on the terminal."""
    print()
    print(tables.summary(figs.all))
    print()
    print(tables.throughput_text(figs))
    print()
    print(tables.worker_text(figs))
    print()
    print(tables.controlled_text(figs))
    print()
    print(tables.conversion_text(figs))
    print()
    for g in goals:
        print("%-8s %s: %s" % (aims.verdict(g["met"]), g["aim"], g["value"]))
    if failed:
        print("\n%d round(s) failed or skipped: see report.md" % len(failed))


if __name__ == "__main__":
    main()
