"""Tables of figures: the printed summary and the report's markdown tables."""

from .benchmarks import ENQUEUE, ROUTINES, routine_variants
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
    """(variant, routine, producers, works/s, x reference, CPU ns/work, x reference,
    switches)."""
    rows = []
    for suffix, routine in ROUTINES:
        for p in (1, 2):
            for v, _, _ in routine_variants(suffix):
                t = figs.get("throughput_%s%s_%dp" % (v, suffix, p))
                c = figs.get("cpu_per_work_%s%s_%dp" % (v, suffix, p))
                if not t or t["median"] is None:
                    continue
                rows.append((v, routine.split()[0], p, fmt(t["median"]),
                             times(t.get("ratio_to_reference")),
                             fmt(c["median"] if c else None),
                             times(c.get("ratio_to_reference") if c else None),
                             fmt(t.get("switches_per_1k_works"))))
    return rows


THROUGHPUT_HEAD = ("variant", "routine", "producers", "works/s", "x reference",
                   "CPU ns/work", "x reference", "switches/1k works")


def text_table(line, head, rows, empty=""):
    """A table for the terminal, each row laid out by the format line."""
    return "\n".join([line % head] + [line % r for r in rows]) if rows else empty


def throughput_text(figs):
    return text_table("%-14s %7s %9s %10s %11s %11s %11s %17s", THROUGHPUT_HEAD,
                      throughput_rows(figs))


def worker_rows(figs):
    """(variant, CPU ns/work, x reference, x taskqueue) of the worker's side alone."""
    ref, tq = figs.value("run_wfcqueue"), figs.value("run_schedule_task")
    rows = []
    for v, _ in ENQUEUE:
        x = figs.value("run_%s" % v)
        if x is None or v.endswith("_debug"):
            continue
        rows.append((v, fmt(x), times(x / ref if ref else None),
                     times(x / tq if tq else None)))
    return rows


WORKER_HEAD = ("worker side alone", "CPU ns/work", "x reference", "x taskqueue")


def worker_text(figs):
    return text_table("%-22s %12s %12s %12s", WORKER_HEAD, worker_rows(figs),
                      "worker side: not measured")


def worker_md(figs):
    rows = worker_rows(figs)
    if not rows:
        return "Not measured.\n"
    return "\n".join(md_table(WORKER_HEAD, rows)) + "\n"


def md_table(head, rows):
    """A markdown table: the first column left, the others right-aligned."""
    out = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return out


def throughput_md(figs):
    rows = throughput_rows(figs)
    if not rows:
        return "Not measured.\n"
    return "\n".join(md_table(THROUGHPUT_HEAD, rows)) + "\n"


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


def schedules_line(figs):
    one = figs.get("schedules_in_one")
    if not one or one["median"] is None:
        return "controlled schedules at exploration size: not measured"
    return ("controlled schedules at exploration size, median over %s scenarios: %s/s in "
            "one process, %s/s one process each, %s" % (
                fmt(one.get("scenarios")), fmt(one["median"]),
                fmt(figs.value("schedules_one_each")), times(one.get("ratio_to_one_each"))))


def real_runs_line(figs):
    search = figs.get("search_runs")
    if not search or search["median"] is None:
        return "2.4 drivers (examples/tty24): not measured"
    return ("2.4 drivers of our own (examples/tty24), median over %s: %s device search "
            "runs and %s explored schedules per CPU second (%s)" % (
                fmt(search.get("drivers")), fmt(search["median"]),
                fmt(figs.value("explore_runs")),
                ", ".join("%s %s/%s" % (n, fmt(a), fmt(b))
                          for n, a, b in search.get("per_driver") or [])))


def controlled_text(figs):
    line = "%-34s %10s %10s"
    rows = controlled_rows(figs)
    out = [line % CONTROLLED_HEAD] + [line % r for r in rows] if rows else []
    lines = [sched_point_line(figs), schedules_line(figs), real_runs_line(figs)]
    return "\n".join(out + lines)


def controlled_md(figs):
    rows = controlled_rows(figs)
    out = md_table(CONTROLLED_HEAD, rows) if rows else []
    return "\n".join(out + ["", sched_point_line(figs) + ".", "", schedules_line(figs) +
                            ".", "", real_runs_line(figs) + "."]) + "\n"


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


CONVERSION_HEAD = ("convert", "files", "candidates", "seconds", "files/s", "candidates/s",
                   "peak spatch MB", "x default")


def conversion_rows(figs):
    rows = []
    d = figs.get("convert_drivers_legacy")
    if d and d["median"] is not None:
        rows.append(("-o, --jobs 2, drivers/legacy", fmt(d.get("files")), fmt(d.get("files")),
                     fmt(d["median"]), "", "", fmt(d.get("peak_mb")), ""))
    for jobs in (1, 2):
        g = figs.get("convert_generated_jobs%d" % jobs)
        if not g or g["median"] is None:
            continue
        rows.append(("--in-place, --jobs %d, generated" % jobs, fmt(g.get("files")),
                     fmt(g.get("candidates")), fmt(g.get("seconds")), fmt(g["median"]),
                     fmt(g.get("candidates_per_s")), fmt(g.get("peak_mb")),
                     "1" if jobs == 2 else ""))
    g = figs.get("convert_generated_rename_jobs2")
    if g and g["median"] is not None:
        # wall clock over the default's, round by round (spatch CPU likewise)
        rows.append(("--in-place --rename, --jobs 2, gen.", fmt(g.get("files")),
                     fmt(g.get("candidates")), fmt(g.get("seconds")), fmt(g["median"]),
                     fmt(g.get("candidates_per_s")), fmt(g.get("peak_mb")),
                     "%s (CPU %s)" % (fmt(g.get("over_default")),
                                      fmt(g.get("cpu_over_default")))))
    return rows


def conversion_text(figs):
    return text_table("%-36s %6s %10s %8s %8s %12s %14s %16s", CONVERSION_HEAD,
                      conversion_rows(figs), "conversion: not measured")


def conversion_md(figs):
    rows = conversion_rows(figs)
    if not rows:
        return "Not measured.\n"
    return "\n".join(md_table(CONVERSION_HEAD, rows)) + "\n"
