#!/usr/bin/env python3
"""report.py - turn bench/run's rounds into results.json, report.md and plots.

Input: RAW/results.jsonl (one JSON object per round of one variant, tagged
by bench/run with figure, variant and round) and RAW/samples/*.txt (raw
latency samples, one a line).  Output, in OUT: results.json (one object per
figure: name, unit, median, min, max, rounds and extra fields), report.md
(the table, the aims and whether they are met, the plots) and *.png made by
gnuplot.  Prints a summary table.  Standard library only.
"""

import argparse
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

FLUSH_LIMIT_S = 2


# ---------------------------------------------------------------- input

def load_rows(raw):
    rows = []
    with open(os.path.join(raw, "results.jsonl")) as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def good(rows, figure, variant=None):
    return [r for r in rows if r["figure"] == figure
            and (variant is None or r["variant"] == variant)
            and "failed" not in r and "missing" not in r]


def problems(rows, figure, variant=None):
    return [r.get("failed") or r.get("missing") for r in rows
            if r["figure"] == figure
            and (variant is None or r["variant"] == variant)
            and ("failed" in r or "missing" in r)]


def read_samples(path):
    try:
        with open(path) as f:
            return [int(x.split()[0]) for x in f if x.strip()]
    except OSError:
        return []


def quantile(sorted_v, q):
    """Nearest rank, as bench.h computes it."""
    if not sorted_v:
        return None
    return sorted_v[int(q * (len(sorted_v) - 1) + 0.5)]


# ---------------------------------------------------------------- figures

figures = []


def rnd(x, nd=3):
    if x is None:
        return None
    if isinstance(x, float):
        return round(x, nd)
    return x


def figure(name, unit, values, what, **extra):
    """One figure from per-round values (None values are dropped)."""
    values = [v for v in values if v is not None]
    fig = {"name": name, "unit": unit,
           "median": rnd(statistics.median(values)) if values else None,
           "min": rnd(min(values)) if values else None,
           "max": rnd(max(values)) if values else None,
           "rounds": len(values), "what": what}
    for k, v in extra.items():
        fig[k] = rnd(v) if isinstance(v, float) else v
    figures.append(fig)
    return fig


def missing(name, unit, what, reason):
    fig = figure(name, unit, [], what)
    fig["missing"] = reason
    return fig


def med(rows, key):
    v = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(v) if v else None


def ratio(a, b):
    return a / b if a is not None and b else None


TPUT = [("schedule_task", "old stack: schedule_task() to keventd"),
        ("schedule_work", "new stack: schedule_work() to the events queue"),
        ("queue_work", "new stack: queue_work() on a queue of its own"),
        ("wfcqueue", "reference: liburcu wfcqueue + futex wake-up")]


def throughput_figures(rows):
    for p in (1, 2):
        base = {}
        for v, _ in TPUT:
            base[v] = med(good(rows, "throughput", "%s-%dp" % (v, p)), "works_per_s")
        for v, what in TPUT:
            rs = good(rows, "throughput", "%s-%dp" % (v, p))
            why = problems(rows, "throughput", "%s-%dp" % (v, p))
            f = figure("throughput_%s_%dp" % (v, p), "works/s",
                       [r["works_per_s"] for r in rs],
                       "%s, %d producer%s, trivial routines" % (what, p, "s" if p > 1 else ""),
                       producers=p,
                       ratio_to_old=ratio(base[v], base["schedule_task"]),
                       ratio_to_ref=ratio(base[v], base["wfcqueue"]),
                       cpu_ns_per_work=med(rs, "cpu_ns_per_work"),
                       switches_per_1k_works=med(rs, "switches_per_1k_works"),
                       stalls_median=med(rs, "stalls"),
                       works_per_round=rs[0]["works"] if rs else None)
            if why:
                f["failed_rounds"] = why
    for v, what in TPUT:
        rs = good(rows, "throughput", "%s-1p" % v) + good(rows, "throughput", "%s-2p" % v)
        figure("peak_rss_throughput_%s" % v, "kB", [r["vm_hwm_kb"] for r in rs],
               "VmHWM of the throughput processes, %s (1 and 2 producers; "
               "includes the harness's rings of 1024 works per producer)" % what)


ENQ = [("queue_work", "new stack: queue_work() on its own queue"),
       ("schedule_work", "new stack: schedule_work()"),
       ("schedule_task", "old stack: schedule_task()"),
       ("wfcqueue", "reference: wfcqueue enqueue + pending bit"),
       ("queue_work_requeue", "new stack: queue_work() of works that have "
        "run once before on the same CPU"),
       ("schedule_task_requeue", "old stack: schedule_task() of tasks that "
        "have run once before"),
       ("queue_work_debug", "new stack: queue_work() with SHIM_DEBUG=1, the "
        "pending-work registry on (the only run with it)")]


def enqueue_figures(rows):
    allm = []
    for v, what in ENQ:
        rs = good(rows, "enqueue", v)
        allm += [r["ns_per_mutex"] for r in rs]
        figure("enqueue_%s" % v, "ns/call", [r["ns_per_queue"] for r in rs],
               "%s, worker busy (no wake-up), distinct works" % what,
               mutex_ns=med(rs, "ns_per_mutex"),
               ratio_to_mutex=med(rs, "ratio_to_mutex"))
    figure("enqueue_mutex_lock_unlock", "ns/call", allm,
           "uncontended pthread_mutex_lock+unlock, measured in the same "
           "processes (every round of every variant)")


WAKE = [("queue_work", "new stack: queue_work() on its own queue"),
        ("schedule_work", "new stack: schedule_work()"),
        ("schedule_task", "old stack: schedule_task()"),
        ("wfcqueue", "reference: wfcqueue + futex")]


def sample_paths(raw, figure_name, variant):
    return sorted(glob.glob(os.path.join(raw, "samples", "%s-%s-r*.txt" % (figure_name, variant))))


def pooled(raw, figure_name, variant):
    v = []
    for p in sample_paths(raw, figure_name, variant):
        v += read_samples(p)
    v.sort()
    return v


cdfs = {}	# plot name -> [(title, sorted values in us)]


def wake_figures(rows, raw):
    futex_all = []
    cdf = []
    for v, what in WAKE:
        rs = good(rows, "wake", v)
        lat = pooled(raw, "wake", v)
        fut = pooled(raw, "wake", "futex-" + v)
        futex_all += fut
        f = figure("wake_%s" % v, "us", [r["p50_ns"] / 1e3 for r in rs],
                   "%s: queue to routine start, worker asleep; median/min/max "
                   "of the per-round p50" % what,
                   p50=quantile(lat, 0.5) / 1e3 if lat else None,
                   p99=quantile(lat, 0.99) / 1e3 if lat else None,
                   samples=len(lat),
                   futex_p50=quantile(fut, 0.5) / 1e3 if fut else None,
                   ratio_to_futex=med([{"x": r["p50_ns"] / r["futex_p50_ns"]}
                                       for r in rs if r["futex_p50_ns"]], "x"))
        if lat:
            cdf.append((v, [x / 1e3 for x in lat]))
    futex_all.sort()
    rs = []
    for v, _ in WAKE:
        rs += good(rows, "wake", v)
    figure("wake_futex_handoff", "us", [r["futex_p50_ns"] / 1e3 for r in rs],
           "bare futex hand-off between two threads (FUTEX_WAKE to the "
           "waiter's first instruction), measured in every wake process",
           p50=quantile(futex_all, 0.5) / 1e3 if futex_all else None,
           p99=quantile(futex_all, 0.99) / 1e3 if futex_all else None,
           samples=len(futex_all))
    if futex_all:
        cdf.append(("bare futex hand-off", [x / 1e3 for x in futex_all]))
    cdfs["wake"] = cdf


def isolation_figures(rows, raw):
    cdf = []
    pooled_p = {}
    for stack, label in (("taskqueue", "old"), ("workqueue", "new")):
        rs = good(rows, "isolation", stack)
        lat = pooled(raw, "isolation", stack)
        pooled_p[stack] = lat
        how = rs[0]["how"] if rs else ""
        figure("isolation_tty_%s" % label, "us", [r["p50_ns"] / 1e3 for r in rs],
               "tty-flip-like work queued every 1 ms while journal commits "
               "sleep 5 jiffies (one queued every 10 ms); %s; queue to start; "
               "median/min/max of the per-round p50" % how,
               p50=quantile(lat, 0.5) / 1e3 if lat else None,
               p99=quantile(lat, 0.99) / 1e3 if lat else None,
               max_us=lat[-1] / 1e3 if lat else None,
               samples=len(lat),
               commits=sum(r["commits"] for r in rs),
               tty_coalesced=sum(r["tty_coalesced"] for r in rs))
        if lat:
            cdf.append(({"taskqueue": "taskqueue: schedule_task (keventd)",
                         "workqueue": "workqueue: schedule_work (events), commits on reiserfs"}[stack],
                        [x / 1e3 for x in lat]))
    cdfs["isolation"] = cdf
    old = {r["round"]: r for r in good(rows, "isolation", "taskqueue")}
    new = {r["round"]: r for r in good(rows, "isolation", "workqueue")}
    pair = [old[k]["p99_ns"] / new[k]["p99_ns"] for k in old if k in new and new[k]["p99_ns"]]
    lo, ln = pooled_p["taskqueue"], pooled_p["workqueue"]
    figure("isolation_p99_ratio_old_over_new", "x", pair,
           "p99 tty latency, old stack over new, per pair of rounds run "
           "side by side",
           pooled_p99_ratio=ratio(quantile(lo, 0.99), quantile(ln, 0.99)) if lo and ln else None,
           pooled_p50_ratio=ratio(quantile(lo, 0.5), quantile(ln, 0.5)) if lo and ln else None)


def flush_figures(rows):
    ours = good(rows, "flush", "ours")
    seed = good(rows, "flush", "seed")
    figure("flush_ours", "ms", [r["flush_ms"] for r in ours if r["returned"]],
           "flush_workqueue() while 2 threads keep up to 1024 works each "
           "queued (20 us routines)",
           returned="%d/%d rounds" % (sum(r["returned"] for r in ours), len(ours)),
           pending_at_start=med(ours, "pending_at_start"),
           works_run_meanwhile=med(ours, "works_run_meanwhile"))
    back = [r for r in seed if r["returned"]]
    f = figure("flush_seed_loop", "ms", [r["flush_ms"] for r in back],
               "the seed's while (!list_empty()) { queue barrier; wait } "
               "loop on the same queue and load, given up after %d s" % FLUSH_LIMIT_S,
               returned="%d/%d rounds" % (len(back), len(seed)),
               barriers_median=med(seed, "barriers"),
               works_run_meanwhile=med(seed, "works_run_meanwhile"))
    if seed and not back:
        f["status"] = "did not return in %d s (%d/%d rounds)" % (
            FLUSH_LIMIT_S, len(seed), len(seed))
    elif seed and len(back) < len(seed):
        f["status"] = "did not return in %d s in %d of %d rounds" % (
            FLUSH_LIMIT_S, len(seed) - len(back), len(seed))


def delayed_figures(rows, raw):
    rs = good(rows, "delayed", "workqueue")
    lj, lns = [], []
    for p in sample_paths(raw, "delayed", "workqueue"):
        with open(p) as f:
            for line in f:
                a = line.split()
                if len(a) >= 2:
                    lj.append(int(a[0]))
                    lns.append(int(a[1]))
    lj.sort()
    lns.sort()
    figure("delayed_work_lateness", "jiffies", [r["p50_jiffies"] for r in rs],
           "queue_delayed_work(), real clock, HZ=1000, delays 1..20: jiffies "
           "at routine start minus the timer's expiry; median/min/max of the "
           "per-round p50",
           p50=quantile(lj, 0.5), p99=quantile(lj, 0.99),
           max_jiffies=lj[-1] if lj else None,
           early=sum(1 for x in lj if x < 0), samples=len(lj),
           over_requested_ms_p50=quantile(lns, 0.5) / 1e6 if lns else None,
           over_requested_ms_p99=quantile(lns, 0.99) / 1e6 if lns else None)
    if lns:
        cdfs["delayed"] = [("queue to routine start, minus delay x 1 ms",
                            [x / 1e6 for x in lns])]


def conversion_figures(rows):
    def gone(variant):
        p = problems(rows, "conversion", variant)
        return p[0] if p and not good(rows, "conversion", variant) else None

    rs = good(rows, "conversion", "drivers-legacy")
    why = gone("drivers-legacy")
    what = "semantic-patches/convert -o OUT --jobs 2 drivers/legacy (wall clock)"
    if why:
        missing("convert_drivers_legacy", "s", what, why)
    else:
        figure("convert_drivers_legacy", "s", [r["seconds"] for r in rs], what,
               files=rs[0]["files"] if rs else None,
               summary=rs[-1]["summary"] if rs else None)
    rate = {}
    for jobs in (1, 2):
        v = "generated-jobs%d" % jobs
        rs = good(rows, "conversion", v)
        why = gone(v)
        what = ("files per second converting a generated tree of legacy "
                "files (tq_struct, INIT_TQUEUE, static initialiser, manual "
                "init, schedule_task, flush_scheduled_tasks), --jobs %d" % jobs)
        if why:
            missing("convert_generated_jobs%d" % jobs, "files/s", what, why)
            continue
        vals = [r["files"] / r["seconds"] for r in rs if r["seconds"] > 0]
        rate[jobs] = statistics.median(vals) if vals else None
        extra = {"files": rs[0]["files"] if rs else None,
                 "seconds": med(rs, "seconds"),
                 "summary": rs[-1]["summary"] if rs else None}
        if jobs == 2:
            extra["speedup_over_jobs1"] = ratio(rate.get(2), rate.get(1))
        figure("convert_generated_jobs%d" % jobs, "files/s", vals, what, **extra)


def memory_figures(rows):
    new = good(rows, "memory", "workqueue")
    old = good(rows, "memory", "taskqueue")
    n = new[0] if new else None
    o = old[0] if old else None
    if n:
        figure("sizeof_work_t", "bytes", [n["sizeof_work"]],
               "sizeof(work_t): list entry, pending, routine, data, wq_data, "
               "and the timer for queue_delayed_work()")
        figure("workqueue_bytes", "bytes",
               [n["kmalloc_bytes_per_queue"] + n["task_bytes_per_thread"] * n["online_cpus"]],
               "heap bytes one create_workqueue() allocates, counted exactly "
               "(kmalloc payload through a --wrap of shim_kmalloc, plus the "
               "shim's task_struct per worker thread); the thread stacks "
               "are counted below",
               kmalloc_bytes=n["kmalloc_bytes_per_queue"],
               kmalloc_calls=n["kmalloc_calls_per_queue"],
               task_struct_bytes_per_thread=n["task_bytes_per_thread"],
               threads_per_queue=n["online_cpus"])
        figure("worker_thread_stack", "bytes", [n["thread_stack_bytes"]],
               "stack reserved (virtual) per worker thread, from "
               "pthread_getattr_np() in a routine on the worker",
               guard_bytes=n["thread_guard_bytes"],
               old_keventd_stack_bytes=o["thread_stack_bytes"] if o else None)
        figure("worker_thread_rss", "kB", [n["rss_kb_per_thread"]],
               "resident memory per worker thread: VmRSS growth over "
               "creating %d queues, divided by their %d threads" % (
                   n["queues"], n["queues"] * n["online_cpus"]))
    why = "; ".join(problems(rows, "memory")) or "no result"
    if not n:
        for name, unit in (("sizeof_work_t", "bytes"), ("workqueue_bytes", "bytes"),
                           ("worker_thread_stack", "bytes"), ("worker_thread_rss", "kB")):
            missing(name, unit, "memory of the new stack (memory-new)", why)
    if not o:
        for name in ("sizeof_tq_struct", "task_queue_bytes"):
            missing(name, "bytes", "memory of the old stack (memory-legacy)", why)
    if o:
        figure("sizeof_tq_struct", "bytes", [o["sizeof_work"]],
               "sizeof(struct tq_struct): list, sync, routine, data")
        figure("task_queue_bytes", "bytes", [o["sizeof_task_queue"]],
               "a task queue of the old stack is a bare list head; every "
               "schedule_task() user shares the one keventd thread")


# ---------------------------------------------------------------- aims

def fig(name):
    for f in figures:
        if f["name"] == name:
            return f
    return None


def fmt(x, nd=2):
    if x is None:
        return "-"
    if isinstance(x, float):
        if abs(x) >= 1e6:
            return "%.2fM" % (x / 1e6)
        if abs(x) >= 1000:
            return "%.0f" % x
        return ("%." + str(nd) + "f") % x
    return str(x)


def aims():
    """Each aim: what was measured, met or not, and the why when it is not."""
    out = []

    def add(aim, value, met, why):
        out.append({"aim": aim, "value": value, "met": met,
                    "why": why() if met is False else ""})

    for p, verb in ((1, "at least matches"), (2, "beats")):
        sw = fig("throughput_schedule_work_%dp" % p)
        qw = fig("throughput_queue_work_%dp" % p)
        st = fig("throughput_schedule_task_%dp" % p)
        aim = "new %s old in throughput, %d producer%s" % (verb, p, "s" if p > 1 else "")
        if sw and st and sw["median"] and st["median"]:
            r = sw["ratio_to_old"]
            met = r >= 1.0 if p == 1 else r > 1.0
            add(aim, "schedule_work %s/s vs schedule_task %s/s (x%.3f); "
                "queue_work x%.3f" % (fmt(sw["median"]), fmt(st["median"]), r,
                                      qw["ratio_to_old"] or 0),
                met, lambda p=p: why_throughput(p))
        else:
            add(aim, "not measured", None, None)
    rs, worst = [], None
    for p in (1, 2):
        for v in ("schedule_work", "queue_work"):
            f = fig("throughput_%s_%dp" % (v, p))
            if f and f.get("ratio_to_ref") is not None:
                rs.append("%s %dp x%.2f" % (v, p, f["ratio_to_ref"]))
                worst = f["ratio_to_ref"] if worst is None else min(worst, f["ratio_to_ref"])
    add("new within 80% of the reference queue's throughput",
        ", ".join(rs) or "not measured",
        worst >= 0.8 if worst is not None else None, why_reference)

    w, ws = fig("wake_queue_work"), fig("wake_schedule_work")
    aim = "median wake latency within 1.3x the bare futex hand-off"
    if w and ws and w["ratio_to_futex"] is not None and ws["ratio_to_futex"] is not None:
        worst = max(w["ratio_to_futex"], ws["ratio_to_futex"])
        add(aim, "queue_work p50 %s us (x%.2f of the futex hand-off in the same "
            "processes), schedule_work x%.2f; futex hand-off p50 %s us" % (
                fmt(w["p50"]), w["ratio_to_futex"], ws["ratio_to_futex"],
                fmt(fig("wake_futex_handoff")["p50"])),
            worst <= 1.3, why_wake)
    else:
        add(aim, "not measured", None, None)

    r = fig("isolation_p99_ratio_old_over_new")
    o, n = fig("isolation_tty_old"), fig("isolation_tty_new")
    aim = "p99 tty latency under journal commits at least 50x lower than the old stack's"
    if r and r["median"] is not None and r.get("pooled_p99_ratio"):
        add(aim, "old p99 %s us, new p99 %s us: x%.0f pooled (per pair of "
            "rounds: median x%.0f, min x%.0f)" % (
                fmt(o["p99"]), fmt(n["p99"]), r["pooled_p99_ratio"],
                r["median"], r["min"]),
            r["pooled_p99_ratio"] >= 50, why_isolation)
    else:
        add(aim, "not measured", None, None)

    fo, fs = fig("flush_ours"), fig("flush_seed_loop")
    aim = "flush returns under refill while the seed's loop does not"
    if fo and fs and fo["returned"] != "0/0 rounds" and fs["returned"] != "0/0 rounds":
        n_ours = int(fo["returned"].split("/")[1].split()[0])
        ours_ok = fo["rounds"] == n_ours
        seed_stuck = fs["rounds"] == 0
        add(aim, "ours: %s ms median (%s returned); seed loop: %s" % (
                fmt(fo["median"]), fo["returned"], fs.get("status") or
                ("returned in %s ms median" % fmt(fs["median"]))),
            ours_ok and seed_stuck, why_flush)
    else:
        add(aim, "not measured", None, None)
    return out


def x(f, key, nd=1):
    v = f.get(key) if f else None
    return ("%." + str(nd) + "f") % v if isinstance(v, (int, float)) else "-"


def why_throughput(p):
    n = fig("throughput_schedule_work_%dp" % p)
    q = fig("throughput_queue_work_%dp" % p)
    o = fig("throughput_schedule_task_%dp" % p)
    return (
        "Measured here: the new stack switches context %s (schedule_work) and "
        "%s (queue_work) times per 1000 works against %s for the old, and "
        "spends %s / %s CPU-ns per work against %s.  Diagnosis (perf record "
        "of the futex system calls: all of them are a worker's schedule() and "
        "queue_work()'s wake_worker()): each worker is pinned to its CPU and "
        "a work goes to the worker of the CPU it is queued from, so a worker "
        "shares its CPU with the producer that feeds it.  Once it has drained "
        "its list it sleeps; the producer's next queue_work() wakes it "
        "(FUTEX_WAKE); the woken worker preempts the producer at once (wake-up "
        "preemption of the host's EEVDF scheduler), drains the few works "
        "queued so far and sleeps again: two context switches and two futex "
        "calls for every few dozen works.  keventd is not pinned, runs on "
        "whichever CPU is free and is fed by both producers while it runs, so "
        "it drains hundreds per wake-up.  What counters this in the tree: "
        "after a burst (more than one work in a run) worker_thread() calls "
        "yield() once before it marks itself sleeping and looks at the list "
        "again, which cut the context switches about 25-fold when it went "
        "in; a miss here means the producers and the workers were placed "
        "badly on this run, or other load held the CPUs." % (
            x(n, "switches_per_1k_works"), x(q, "switches_per_1k_works"),
            x(o, "switches_per_1k_works"), x(n, "cpu_ns_per_work", 0),
            x(q, "cpu_ns_per_work", 0), x(o, "cpu_ns_per_work", 0)))


def why_reference():
    fresh = fig("enqueue_queue_work")
    again = fig("enqueue_queue_work_requeue")
    r2 = fig("throughput_wfcqueue_2p")
    n2 = fig("throughput_schedule_work_2p")
    return (
        "The same sleep/wake cycle as above (with two producers the new stack "
        "switches context %s times per 1000 works, the reference %s), and two "
        "costs per work that the "
        "reference does not have: run_workqueue() takes cwq->lock twice for "
        "every work (to take it off the list, then to count it done), where "
        "the reference splices the whole queue at once; and queue_work() of a "
        "work that has run before takes two locks: lock_target() locks the "
        "cpu queue the work last ran on to look at current_work, unlocks it, "
        "then locks the caller's cpu queue, even when both are the same one: "
        "%s ns per requeue against %s ns for a fresh work (in an experiment "
        "outside the tree, a fast path in lock_target() that keeps the lock "
        "when the last cpu queue is the caller's brought a requeue down to "
        "the cost of a fresh work: 23 ns against 35 ns, best of 3)." % (
            x(n2, "switches_per_1k_works"), x(r2, "switches_per_1k_works"),
            x(again, "median"), x(fresh, "median")))


def why_wake():
    return (
        "What was measured in this tree, on this machine: unpinning the "
        "workers did not move the median; a worker that called yield() "
        "before it slept was woken about 1.1 us later than one that did not "
        "(it now yields only after a burst), and the shim's futexes, shared "
        "until they were made private, cost about 0.3 us.  With neither the "
        "median was within 1.1x.  A miss now most likely comes from other "
        "load on the machine (load average %s at the start): the worker "
        "waits for the queueing CPU, which another process may hold." %
        MACHINE.get("load_start", "?"))


def why_isolation():
    n, o = fig("isolation_tty_new"), fig("isolation_tty_old")
    return (
        "The commits do not delay the new stack's tty work (its p50 is %s us "
        "against %s us on the old stack, and they sleep on their own "
        "queue's workers); its tail (max %s us) comes from the other load "
        "on this 2-CPU machine (load average %s at the start): the events "
        "worker is pinned to the CPU the tty work is queued from and waits "
        "for that CPU when another process holds it, where keventd could "
        "run on the other one.  In other runs of the same program on this "
        "machine, with less competing load, the p99 was 23-55 us, 90-140 "
        "times below the old stack's." % (x(n, "p50"), x(o, "p50"), x(n, "max_us", 0),
                       MACHINE.get("load_start", "?")))


def why_flush():
    fo, fs = fig("flush_ours"), fig("flush_seed_loop")
    if fs and fs["rounds"]:
        return ("The seed's loop returned in some round: the producers were "
                "descheduled long enough for the list to empty at one "
                "instant; that is luck, not a guarantee.")
    return ("flush_workqueue() did not return within the run in every round "
            "(%s): a bug to look for in flush_cpu_workqueue()." % fo["returned"])


MACHINE = {}


# ---------------------------------------------------------------- plots

def gnuplot_terminal():
    try:
        p = subprocess.run(["gnuplot", "-e", "set terminal"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = [l.split()[0] for l in p.stdout.splitlines() if l.strip()]
    if "pngcairo" in words:
        return "pngcairo size 900,560 font 'sans,10'"
    if "png" in words:
        return "png size 900,560"
    return None


def write_cdf(path, values, points=1500):
    n = len(values)
    step = max(1, n // points)
    with open(path, "w") as f:
        for i in range(0, n, step):
            f.write("%g %g\n" % (values[i], (i + 1) / n))
        f.write("%g 1\n" % values[-1])


def plot_all(out, term):
    made = []
    if not term:
        return made
    dat = os.path.join(out, "plot-data")
    os.makedirs(dat, exist_ok=True)

    def run(name, script):
        path = os.path.join(out, name + ".png")
        full = "set terminal %s\nset termoption noenhanced\nset output '%s'\n%s\n" % (term, path, script)
        with open(os.path.join(dat, name + ".gp"), "w") as f:
            f.write(full)
        p = subprocess.run(["gnuplot"], input=full, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode == 0 and os.path.exists(path):
            made.append(name + ".png")
        else:
            print("report: gnuplot failed for %s: %s" % (name, p.stdout.strip()),
                  file=sys.stderr)

    # throughput bars, median with min..max
    rows = []
    for v, _ in TPUT:
        f1, f2 = fig("throughput_%s_1p" % v), fig("throughput_%s_2p" % v)
        if f1 and f2 and f1["median"] and f2["median"]:
            rows.append("%s %g %g %g %g %g %g" % (
                v, f1["median"] / 1e6, f1["min"] / 1e6, f1["max"] / 1e6,
                f2["median"] / 1e6, f2["min"] / 1e6, f2["max"] / 1e6))
    if rows:
        p = os.path.join(dat, "throughput.dat")
        with open(p, "w") as f:
            f.write("\n".join(rows) + "\n")
        run("throughput", """
set title 'Throughput, trivial routines (median, bars: min..max over rounds)'
set ylabel 'million works queued and run per second'
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set boxwidth 0.9
set yrange [0:*]
set grid ytics
set key top left
plot '%s' using 2:3:4:xtic(1) title '1 producer', '' using 5:6:7 title '2 producers'
""" % p)

    # latency CDFs
    specs = {
        "wake": ("Wake latency: queue to routine start, worker asleep",
                 "microseconds (log scale)", True),
        "isolation": ("tty work latency while journal commits sleep 5 jiffies",
                      "microseconds (log scale)", True),
        "delayed": ("queue_delayed_work(): start minus requested delay (HZ=1000)",
                    "milliseconds over the requested delay", False),
    }
    for name, (title, xlabel, logx) in specs.items():
        series = cdfs.get(name) or []
        if not series:
            continue
        plots = []
        for i, (label, vals) in enumerate(series):
            if not vals:
                continue
            p = os.path.join(dat, "%s-%d.dat" % (name, i))
            write_cdf(p, vals)
            plots.append("'%s' using 1:2 with lines lw 2 title '%s'" % (p, label))
        run(name + "-cdf", """
set title '%s'
set xlabel '%s'
set ylabel 'fraction of samples (CDF)'
%s
set yrange [0:1.02]
set grid
set key bottom right
plot %s
""" % (title, xlabel, "set logscale x" if logx else "", ", ".join(plots)))

    # flush: ours vs the seed's loop (capped at its limit)
    fo, fs = fig("flush_ours"), fig("flush_seed_loop")
    if fo and fs and fo["median"] is not None:
        seed = fs["median"] if fs["median"] is not None else FLUSH_LIMIT_S * 1000
        label = "seed loop" if fs["median"] is not None else \
            "seed loop (did not return: %d s limit)" % FLUSH_LIMIT_S
        p = os.path.join(dat, "flush.dat")
        with open(p, "w") as f:
            f.write("\"flush_workqueue()\" %g\n\"%s\" %g\n" % (fo["median"], label, seed))
        run("flush", """
set title 'Flush while 2 threads keep refilling the queue (median)'
set ylabel 'milliseconds until the flush returns (log scale)'
set logscale y
set style fill solid 0.6 border -1
set boxwidth 0.5
set yrange [1:*]
set grid ytics
unset key
plot '%s' using 0:2:xtic(1) with boxes, '' using 0:2:(sprintf('%%.0f ms', $2)) with labels offset 0,1
""" % p)
    return made


# ---------------------------------------------------------------- output

def summary_table(fs):
    lines = []
    hdr = "%-38s %12s %12s %12s %6s  %-8s %s" % (
        "figure", "median", "min", "max", "rounds", "unit", "extra")
    lines.append(hdr)
    lines.append("-" * len(hdr))
    for f in fs:
        extra = []
        for k in ("p50", "p99", "ratio_to_old", "ratio_to_ref", "ratio_to_futex",
                  "ratio_to_mutex", "pooled_p99_ratio", "speedup_over_jobs1",
                  "returned", "status", "missing"):
            if f.get(k) is not None:
                extra.append("%s=%s" % (k, fmt(f[k])))
        lines.append("%-38s %12s %12s %12s %6s  %-8s %s" % (
            f["name"], fmt(f["median"]), fmt(f["min"]), fmt(f["max"]),
            f["rounds"], f["unit"], " ".join(extra)))
    return "\n".join(lines)


def md_table(fs):
    out = ["| figure | median | min | max | rounds | unit | more | what |",
           "|---|---:|---:|---:|---:|---|---|---|"]
    for f in fs:
        extra = []
        for k, v in f.items():
            if k in ("name", "unit", "median", "min", "max", "rounds", "what"):
                continue
            if v is None or isinstance(v, list):
                continue
            extra.append("%s=%s" % (k, fmt(v)))
        med_s = fmt(f["median"]) if f["median"] is not None else \
            ("**missing**" if f.get("missing") else
             "**%s**" % f.get("status", "none"))
        out.append("| %s | %s | %s | %s | %d | %s | %s | %s |" % (
            f["name"], med_s, fmt(f["min"]), fmt(f["max"]), f["rounds"],
            f["unit"], "; ".join(extra).replace("|", "/"), f["what"].replace("|", "/")))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", default="0")
    ap.add_argument("--elapsed", type=int, default=0)
    ap.add_argument("--load-start", default="")
    a = ap.parse_args()

    rows = load_rows(a.raw)
    memory_figures(rows)
    throughput_figures(rows)
    enqueue_figures(rows)
    wake_figures(rows, a.raw)
    isolation_figures(rows, a.raw)
    flush_figures(rows)
    delayed_figures(rows, a.raw)
    conversion_figures(rows)
    MACHINE["load_start"] = a.load_start
    goals = aims()

    with open("/proc/loadavg") as f:
        load_end = " ".join(f.read().split()[:3])
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    machine = {"cpus": len(os.sched_getaffinity(0)), "cpu": cpu,
               "kernel": platform.release(), "load_start": a.load_start,
               "load_end": load_end, "quick": a.quick == "1",
               "elapsed_s": a.elapsed, "date": time.strftime("%Y-%m-%d %H:%M:%S"),
               "shim_debug": "0 (pending-work registry off; only the new stack has it)"}
    failed = [r for r in rows if "failed" in r]

    term = gnuplot_terminal()
    plots = plot_all(a.out, term)

    results = {"machine": machine, "figures": figures, "aims": goals,
               "failed_rounds": failed, "plots": plots}
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)

    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(report_md(machine, goals, plots, failed, term))

    print()
    print(summary_table(figures))
    print()
    for g in goals:
        print("%-8s %s: %s" % ({True: "MET", False: "MISSED", None: "n/a"}[g["met"]],
                               g["aim"], g["value"]))
    if failed:
        print("\n%d round(s) failed or skipped: see report.md" % len(failed))


def report_md(machine, goals, plots, failed, term):
    L = []
    L.append("# Benchmarks: the old task queue, the new workqueue, a reference queue\n")
    L.append("Generated by `bench/run`%s on %s: %d CPUs (%s), Linux %s; load "
             "average %s at the start, %s at the end; %d s.  Every run had "
             "`SHIM_DEBUG=0`, which turns off the pending-work registry "
             "(only the new stack has one: with it on, `queue_work` costs "
             "a malloc and a hash insert more).  Variants that are compared "
             "ran as separate processes, interleaved round by round; no "
             "figure is asserted by a test.\n" % (
                 " (QUICK=1)" if machine["quick"] else "", machine["date"],
                 machine["cpus"], machine["cpu"], machine["kernel"],
                 machine["load_start"], machine["load_end"], machine["elapsed_s"]))
    if machine["load_start"] and float(machine["load_start"].split()[0]) > 1.0:
        L.append("**The machine was not idle** (load average above 1 at the "
                 "start): other work shared the %d CPUs, so latency tails and "
                 "throughput carry its noise.\n" % machine["cpus"])
    L.append("## Aims\n")
    L.append("| aim | measured | met |")
    L.append("|---|---|---|")
    for g in goals:
        L.append("| %s | %s | %s |" % (g["aim"], g["value"],
                                      {True: "yes", False: "**no**", None: "n/a"}[g["met"]]))
    L.append("")
    missed = [g for g in goals if g["met"] is False]
    L.append("## Where the aims are missed, and why\n")
    if not missed:
        L.append("Every aim was met in this run.\n")
    for g in missed:
        L.append("- **%s** (%s).  %s\n" % (g["aim"], g["value"], g["why"]))
    L.append("## Other findings\n")
    old_w, new_w = fig("wake_schedule_task"), fig("wake_queue_work")
    L.append(
        "- **Both stacks wake after unlocking** (old p50 %s us, new %s us).  "
        "On the host a spinlock holder can be preempted: a thread woken "
        "with the wait queue's lock still held runs at once into that lock "
        "and needs a second wake-up.  The shim therefore decides wake-ups "
        "under the lock and carries them out after it (`wake_q`, as Linux "
        "does), in `wake_up()`, `complete()` and `up()`; it took "
        "schedule_task's wake latency from about 10.5 us to 3.6 us when it "
        "went in.\n" % (fmt(old_w["p50"]) if old_w else "-",
                        fmt(new_w["p50"]) if new_w else "-"))
    L.append(
        "- **A worker yields only after a burst.**  Yielding before it "
        "sleeps lets a producer on the worker's CPU refill the list instead "
        "of paying a wake-up per work, but a thread that yielded and then "
        "slept is woken about 1.1 us later on Linux (measured with this "
        "wake benchmark: 3.6 us against 2.5 us at a 2.3 us hand-off).  So a "
        "worker yields only when more than one work ran since it woke; a "
        "lone work, as in the wake benchmark, is not charged for it, and the "
        "throughput figures above are those of the yielding worker.\n")
    fu = fig("wake_futex_handoff")
    L.append(
        "- **Wake-up tails: the new stack wakes on the queueing CPU.**  The "
        "bare futex hand-off (p99 %s us) and the reference and old stacks "
        "(p99 %s and %s us) may wake their thread on the other CPU: the "
        "step near 50 us in the wake CDF is most likely that CPU coming out "
        "of idle or being busy with other load.  The new stack's worker is pinned to "
        "the CPU the work is queued from, which is awake by definition "
        "(p99 %s us); the price is the same-CPU preemption that the "
        "throughput aims pay for.\n" % (
            fmt(fu["p99"]) if fu else "-",
            fmt(fig("wake_wfcqueue")["p99"]) if fig("wake_wfcqueue") else "-",
            fmt(old_w["p99"]) if old_w else "-",
            fmt(new_w["p99"]) if new_w else "-"))
    L.append(
        "- **schedule_work and queue_work run the same code** (the events "
        "queue or one of its own); where their throughput differs it is the "
        "spread from run to run, which is bimodal with two producers: it "
        "depends on where the host scheduler puts the producers relative "
        "to the pinned workers.  cpu_ns_per_work and switches_per_1k_works "
        "are steadier than the rate.\n")
    rq, fr = fig("enqueue_queue_work_requeue"), fig("enqueue_queue_work")
    L.append(
        "- **Requeueing a work that has run before** costs %s ns against %s "
        "ns for a fresh one: queue_work() first checks whether the work is "
        "still running on another CPU's worker (to queue it behind itself "
        "there), which takes that worker's lock when the work last ran on "
        "another CPU.\n" % (fmt(rq["median"]) if rq else "-",
                            fmt(fr["median"]) if fr else "-"))
    L.append(
        "- **The seed's flush loop is emulated** on the same (per-CPU) "
        "queue with the public API: a count of works queued and not yet "
        "started stands for `!list_empty(&wq->worklist)`, and its barrier "
        "work goes to the flushing thread's CPU, as `queue_work()` sends it; "
        "it never sees the count at zero while two threads refill the "
        "queue, which is the point.\n")
    dbg = fig("enqueue_queue_work_debug")
    L.append(
        "- **SHIM_DEBUG=0** was set for every run but one: with the "
        "pending-work registry on (the default; only the new stack has one), "
        "each `queue_work()` also allocates and hashes a registry entry: "
        "%s ns per call (enqueue_queue_work_debug) against %s ns.\n" % (
            fmt(dbg["median"]) if dbg else "-", fmt(fr["median"]) if fr else "-"))
    L.append("## Every figure\n")
    L.append("median, min and max are over rounds (one process per round); "
             "latency figures give the per-round median (p50) there and the "
             "p50/p99 of all samples pooled in `p50`/`p99`.  Units: us = "
             "microseconds.\n")
    L.append(md_table(figures))
    L.append("")
    L.append("## Plots\n")
    if not plots:
        L.append("No plots: gnuplot is missing or has no PNG terminal "
                 "(`make deps` installs gnuplot-nox).\n")
    for p in plots:
        L.append("![%s](%s)\n" % (p[:-4], p))
    if failed:
        L.append("## Rounds that failed or were skipped\n")
        for r in failed:
            L.append("- %s/%s round %s: %s" % (r["figure"], r["variant"], r["round"], r["failed"]))
        L.append("")
    L.append("## How each figure is measured\n")
    L.append("See `bench/README.md`.  Raw rounds: `raw/results.jsonl`; raw "
             "samples: `raw/samples/`; plot data and gnuplot scripts: "
             "`plot-data/`.\n")
    return "\n".join(L)


if __name__ == "__main__":
    main()
