"""Tables of figures: the printed summary and the report's markdown tables."""

from .benchmarks import THROUGHPUT
from .text import fmt, times

SUMMARY_EXTRA = ("p50", "p99", "ratio_to_taskqueue", "ratio_to_reference", "ratio_to_futex",
                 "ratio_to_mutex", "pooled_p99_ratio", "speedup_over_jobs1", "returned",
                 "status", "missing")
BASIC = ("name", "unit", "median", "min", "max", "rounds", "what")


def summary(figs):
    """Every figure, one a line, for the terminal."""
    row = "%-44s %12s %12s %12s %6s  %-11s %s"
    hdr = row % ("figure", "median", "min", "max", "rounds", "unit", "extra")
    lines = [hdr, "-" * len(hdr)]
    for f in figs:
        extra = ["%s=%s" % (k, fmt(f[k])) for k in SUMMARY_EXTRA if f.get(k) is not None]
        lines.append(row % (f["name"], fmt(f["median"]), fmt(f["min"]), fmt(f["max"]),
                            f["rounds"], f["unit"], " ".join(extra)))
    return "\n".join(lines)


def throughput_rows(figs):
    """(variant, producers, works/s, x reference, CPU ns/work, x reference, switches)."""
    rows = []
    for p in (1, 2):
        for v, _, _ in THROUGHPUT:
            t = figs.get("throughput_%s_%dp" % (v, p))
            c = figs.get("cpu_per_work_%s_%dp" % (v, p))
            if not t or t["median"] is None:
                continue
            rows.append((v, p, fmt(t["median"]), times(t.get("ratio_to_reference")),
                         fmt(c["median"] if c else None),
                         times(c.get("ratio_to_reference") if c else None),
                         fmt(t.get("switches_per_1k_works"))))
    return rows


THROUGHPUT_HEAD = ("variant", "producers", "works/s", "x reference", "CPU ns/work",
                   "x reference", "switches/1k works")


def throughput_text(figs):
    rows = throughput_rows(figs)
    if not rows:
        return ""
    line = "%-14s %9s %10s %11s %11s %11s %17s"
    return "\n".join([line % THROUGHPUT_HEAD] + [line % r for r in rows])


def throughput_md(figs):
    rows = throughput_rows(figs)
    if not rows:
        return "Not measured.\n"
    out = ["| " + " | ".join(THROUGHPUT_HEAD) + " |", "|---|---:|---:|---:|---:|---:|---:|"]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


CONTROLLED_ROWS = (("pct", "runs/s under pct schedules"), ("free", "runs/s free (no scheduler)"),
                   ("start", "runs/s of start-up alone"))


def controlled_rows(figs):
    """(what, legacy, converted) rows of the controlled-scheduling figures."""
    rows = []
    for mode, what in CONTROLLED_ROWS:
        v = [figs.value("scenario_runs_%s_%s" % (side, mode)) for side in ("legacy", "converted")]
        if v != [None, None]:
            rows.append((what, fmt(v[0]), fmt(v[1])))
    pts = [figs.value("scenario_runs_%s_pct" % side, "points_per_run")
           for side in ("legacy", "converted")]
    if pts != [None, None]:
        rows.append(("scheduling points a run (mean)", fmt(pts[0]), fmt(pts[1])))
    return rows


def sched_point_line(figs):
    p = figs.get("sched_point")
    if not p or p["median"] is None:
        return "scheduling point: not measured"
    return ("scheduling point (a switch between two fibers): %s ns; bare futex hand-off "
            "between two host threads: %s ns; point/hand-off %s" % (
                fmt(p["median"]), fmt(p.get("futex_handoff_ns")),
                times(p.get("ratio_to_futex"), 3)))


CONTROLLED_HEAD = ("tty scenarios, 2 jobs", "legacy", "converted")


def controlled_text(figs):
    line = "%-34s %10s %10s"
    rows = controlled_rows(figs)
    out = [line % CONTROLLED_HEAD] + [line % r for r in rows] if rows else []
    return "\n".join(out + [sched_point_line(figs)])


def controlled_md(figs):
    rows = controlled_rows(figs)
    out = []
    if rows:
        out = ["| " + " | ".join(CONTROLLED_HEAD) + " |", "|---|---:|---:|"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out + ["", sched_point_line(figs) + "."]) + "\n"


def figures_md(figs):
    out = ["| figure | median | min | max | rounds | unit | more | what |",
           "|---|---:|---:|---:|---:|---|---|---|"]
    for f in figs:
        extra = ["%s=%s" % (k, fmt(v)) for k, v in f.items()
                 if k not in BASIC and v is not None and not isinstance(v, list)]
        if f["median"] is not None:
            med = fmt(f["median"])
        elif f.get("missing"):
            med = "**missing**"
        else:
            med = "**%s**" % f.get("status", "none")
        out.append("| %s | %s | %s | %s | %d | %s | %s | %s |" % (
            f["name"], med, fmt(f["min"]), fmt(f["max"]), f["rounds"], f["unit"],
            "; ".join(extra).replace("|", "/"), f["what"].replace("|", "/")))
    return "\n".join(out)
