"""The figures of each benchmark, from its rounds (one function per program).

Names follow the tree's vocabulary: the taskqueue (schedule_task() to
keventd), the workqueue (schedule_work(), queue_work()) and the reference
(liburcu's wfcqueue with one polling, then sleeping, consumer).
"""

import statistics

from .rounds import good, median, paired_ratios, pooled, problems, quantile, ratio

THROUGHPUT = [
    ("schedule_task", "taskqueue", "taskqueue: schedule_task() to keventd"),
    ("schedule_work", "workqueue", "workqueue: schedule_work() to the events queue"),
    ("queue_work", "workqueue", "workqueue: queue_work() on a queue of its own"),
    ("wfcqueue", "reference", "reference: liburcu wfcqueue, a consumer that polls, "
     "then sleeps on a futex"),
]
WORKQUEUE_VARIANTS = ("schedule_work", "queue_work")
# (figure suffix, what the routine does): the small one runs on the
# workqueue and the reference only, which the aims compare
ROUTINES = (("", "empty routine (marks its work done)"),
            ("_small", "small routine (32 steps of arithmetic, then marks its work done)"))
SMALL_VARIANTS = WORKQUEUE_VARIANTS + ("wfcqueue",)


def routine_variants(suffix):
    """The throughput variants run with the routine of @suffix."""
    return [t for t in THROUGHPUT if not suffix or t[0] in SMALL_VARIANTS]


def producers_text(p):
    return "%d producer%s" % (p, "s" if p > 1 else "")


def rounds_to_reference(pairs):
    """The round-by-round ratios to the reference, and their range."""
    return dict(ratio_to_reference_rounds=[round(x, 3) for x in pairs],
                ratio_to_reference_rounds_min=min(pairs) if pairs else None,
                ratio_to_reference_rounds_max=max(pairs) if pairs else None)


def throughput(figs, rows):
    for suffix, routine in ROUTINES:
        for p in (1, 2):
            throughput_of(figs, rows, suffix, routine, p)
    for v, _, what in THROUGHPUT:
        rs = good(rows, "throughput", "%s-1p" % v) + good(rows, "throughput", "%s-2p" % v)
        ring = rs[0].get("ring") if rs else None
        figs.add("peak_rss_throughput_%s" % v, "kB", [r["vm_hwm_kb"] for r in rs],
                 "VmHWM of the throughput processes, %s (1 and 2 producers, empty "
                 "routine; includes the harness's ring%s of works per producer)" % (
                     what, " of %d" % ring if ring else ""))


def throughput_of(figs, rows, suffix, routine, p):
    """The figures of @p producers running the routine of @suffix."""
    tag = suffix.replace("_", "-")
    rounds = {v: good(rows, "throughput", "%s%s-%dp" % (v, tag, p))
              for v, _, _ in routine_variants(suffix)}
    rate = {v: median(rs, "works_per_s") for v, rs in rounds.items()}
    cpu = {v: median(rs, "cpu_ns_per_work") for v, rs in rounds.items()}
    ref = rounds["wfcqueue"]
    for v, stack, what in routine_variants(suffix):
        rs = rounds[v]
        pair_rate = paired_ratios(rs, ref, "works_per_s")
        pair_cpu = paired_ratios(rs, ref, "cpu_ns_per_work")
        f = figs.add(
            "throughput_%s%s_%dp" % (v, suffix, p), "works/s", [r["works_per_s"] for r in rs],
            "%s, %s, %s" % (what, producers_text(p), routine),
            stack=stack, producers=p,
            ratio_to_taskqueue=ratio(rate[v], rate.get("schedule_task")),
            ratio_to_reference=ratio(rate[v], rate["wfcqueue"]),
            **rounds_to_reference(pair_rate),
            cpu_ns_per_work=cpu[v],
            switches_per_1k_works=median(rs, "switches_per_1k_works"),
            stalls_median=median(rs, "stalls"),
            works_per_round=rs[0]["works"] if rs else None,
            ring=rs[0].get("ring") if rs else None,
            spin_polls=rs[0].get("spin_polls") if rs else None)
        why = problems(rows, "throughput", "%s%s-%dp" % (v, tag, p))
        if why:
            f["failed_rounds"] = why
        figs.add(
            "cpu_per_work_%s%s_%dp" % (v, suffix, p), "CPU ns/work",
            [r["cpu_ns_per_work"] for r in rs],
            "%s, %s, %s: CPU time of every thread of the process over the "
            "throughput round (getrusage), per work" % (what, producers_text(p), routine),
            stack=stack, producers=p,
            ratio_to_taskqueue=ratio(cpu[v], cpu.get("schedule_task")),
            ratio_to_reference=ratio(cpu[v], cpu["wfcqueue"]),
            **rounds_to_reference(pair_cpu))


ENQUEUE = [
    ("queue_work", "workqueue: queue_work() on its own queue"),
    ("schedule_work", "workqueue: schedule_work()"),
    ("schedule_task", "taskqueue: schedule_task()"),
    ("wfcqueue", "reference: wfcqueue enqueue + pending bit"),
    ("queue_work_requeue", "workqueue: queue_work() of works that have run once "
     "before on the same CPU"),
    ("schedule_task_requeue", "taskqueue: schedule_task() of tasks that have run "
     "once before"),
    ("queue_work_debug", "workqueue: queue_work() with SHIM_DEBUG=1, the "
     "pending-work registry on (the only run with it)"),
]


def enqueue(figs, rows):
    mutex = []
    for v, what in ENQUEUE:
        rs = good(rows, "enqueue", v)
        mutex += [r["ns_per_mutex"] for r in rs]
        figs.add("enqueue_%s" % v, "ns/call", [r["ns_per_queue"] for r in rs],
                 "%s, worker busy (no wake-up), distinct works" % what,
                 mutex_ns=median(rs, "ns_per_mutex"),
                 ratio_to_mutex=median(rs, "ratio_to_mutex"))
    figs.add("enqueue_mutex_lock_unlock", "ns/call", mutex,
             "uncontended pthread_mutex_lock+unlock, measured in the same "
             "processes (every round of every variant)")
    for v, what in ENQUEUE:
        rs = good(rows, "enqueue", v)
        figs.add("run_%s" % v, "CPU ns/work", [r.get("ns_per_run") for r in rs],
                 "%s: the worker running the works of the enqueue round once it is "
                 "let go: CPU time of the process (the caller sleeps) from the release "
                 "to the last routine, per work; nothing queued meanwhile, no "
                 "sleeping" % what)


WAKE = [
    ("queue_work", "workqueue: queue_work() on its own queue"),
    ("schedule_work", "workqueue: schedule_work()"),
    ("schedule_task", "taskqueue: schedule_task()"),
    ("wfcqueue", "reference: wfcqueue + futex"),
]


def us(v):
    return v / 1e3 if v is not None else None


def wake(figs, rows, raw):
    """The wake figures; returns the CDF series to plot."""
    futex_all, cdf = [], []
    for v, what in WAKE:
        rs = good(rows, "wake", v)
        lat = pooled(raw, "wake", v)
        fut = pooled(raw, "wake", "futex-" + v)
        futex_all += fut
        figs.add("wake_%s" % v, "us", [r["p50_ns"] / 1e3 for r in rs],
                 "%s: queue to routine start, worker asleep; median/min/max "
                 "of the per-round p50" % what,
                 p50=us(quantile(lat, 0.5)), p99=us(quantile(lat, 0.99)),
                 samples=len(lat),
                 over_10x_hand_off_p50=tail_share(lat, quantile(fut, 0.5)),
                 futex_p50=us(quantile(fut, 0.5)),
                 ratio_to_futex=median([{"x": r["p50_ns"] / r["futex_p50_ns"]}
                                        for r in rs if r["futex_p50_ns"]], "x"))
        if lat:
            cdf.append((v, [x / 1e3 for x in lat]))
    futex_all.sort()
    rs = [r for v, _ in WAKE for r in good(rows, "wake", v)]
    figs.add("wake_futex_handoff", "us", [r["futex_p50_ns"] / 1e3 for r in rs],
             "bare futex hand-off between two threads (FUTEX_WAKE to the "
             "waiter's first instruction), measured in every wake process",
             p50=us(quantile(futex_all, 0.5)), p99=us(quantile(futex_all, 0.99)),
             samples=len(futex_all),
             over_10x_hand_off_p50=tail_share(futex_all, quantile(futex_all, 0.5)))
    if futex_all:
        cdf.append(("bare futex hand-off", [x / 1e3 for x in futex_all]))
    return cdf


def tail_share(samples, p50):
    """The share of @samples over 10 times @p50 (the hand-off's median)."""
    if not samples or not p50:
        return None
    return sum(1 for x in samples if x > 10 * p50) / len(samples)


ISOLATION = [
    ("taskqueue", "taskqueue: schedule_task (keventd)"),
    ("workqueue", "workqueue: schedule_work (events), commits on reiserfs"),
]


def isolation(figs, rows, raw):
    """The isolation figures; returns the CDF series to plot."""
    cdf, lat = [], {}
    for stack, label in ISOLATION:
        rs = good(rows, "isolation", stack)
        lat[stack] = v = pooled(raw, "isolation", stack)
        r0 = rs[0] if rs else {}
        figs.add("isolation_tty_%s" % stack, "us", [r["p50_ns"] / 1e3 for r in rs],
                 "tty-flip-like work queued every %s us while journal commits "
                 "sleep %s jiffies (one queued every %s ms); %s; queue to start; "
                 "median/min/max of the per-round p50" % (
                     r0.get("period_us", "?"), r0.get("commit_jiffies", "?"),
                     r0.get("commit_ms", "?"), r0.get("how", "")),
                 p50=us(quantile(v, 0.5)), p99=us(quantile(v, 0.99)),
                 max_us=us(v[-1]) if v else None, samples=len(v),
                 commits=sum(r["commits"] for r in rs),
                 tty_coalesced=sum(r["tty_coalesced"] for r in rs))
        if v:
            cdf.append((label, [x / 1e3 for x in v]))
    tq = {r["round"]: r for r in good(rows, "isolation", "taskqueue")}
    wq = {r["round"]: r for r in good(rows, "isolation", "workqueue")}
    pair = [tq[k]["p99_ns"] / wq[k]["p99_ns"] for k in tq if k in wq and wq[k]["p99_ns"]]
    lt, lw = lat["taskqueue"], lat["workqueue"]
    figs.add("isolation_p99_ratio_taskqueue_over_workqueue", "x", pair,
             "p99 tty latency, taskqueue over workqueue, per pair of rounds run "
             "side by side",
             pooled_p99_ratio=ratio(quantile(lt, 0.99), quantile(lw, 0.99)),
             pooled_p50_ratio=ratio(quantile(lt, 0.5), quantile(lw, 0.5)))
    return cdf


def flush_limit_s(rows):
    """The seed loop's limit, as bench/run gave it, in seconds."""
    limits = [r["limit_ms"] for r in good(rows, "flush") if r.get("limit_ms")]
    return max(limits) / 1000 if limits else None


def flush(figs, rows):
    ours = good(rows, "flush", "ours")
    seed = good(rows, "flush", "seed")
    limit = flush_limit_s(rows)
    work_us = (ours or seed or [{}])[0].get("work_us", "?")
    figs.add("flush_ours", "ms", [r["flush_ms"] for r in ours if r["returned"]],
             "flush_workqueue() while 2 threads keep their rings of works "
             "queued (%s us routines)" % work_us,
             returned="%d/%d rounds" % (sum(r["returned"] for r in ours), len(ours)),
             pending_at_start=median(ours, "pending_at_start"),
             works_run_meanwhile=median(ours, "works_run_meanwhile"))
    back = [r for r in seed if r["returned"]]
    f = figs.add("flush_seed_loop", "ms", [r["flush_ms"] for r in back],
                 "the seed's while (!list_empty()) { queue barrier; wait } "
                 "loop on the same queue and load, given up after %g s" % (limit or 0),
                 returned="%d/%d rounds" % (len(back), len(seed)),
                 limit_s=limit,
                 barriers_median=median(seed, "barriers"),
                 works_run_meanwhile=median(seed, "works_run_meanwhile"))
    if seed and not back:
        f["status"] = "did not return in %g s (%d/%d rounds)" % (limit, len(seed), len(seed))
    elif seed and len(back) < len(seed):
        f["status"] = "did not return in %g s in %d of %d rounds" % (
            limit, len(seed) - len(back), len(seed))


def delayed(figs, rows, raw):
    """The delayed-work figure; returns the CDF series to plot."""
    rs = good(rows, "delayed", "workqueue")
    lj = pooled(raw, "delayed", "workqueue", 0)
    lns = pooled(raw, "delayed", "workqueue", 1)
    delays = pooled(raw, "delayed", "workqueue", 2)
    figs.add("delayed_work_lateness", "jiffies", [r["p50_jiffies"] for r in rs],
             "queue_delayed_work(), real clock, HZ=1000, delays %s..%s jiffies: "
             "jiffies at routine start minus the timer's expiry; median/min/max "
             "of the per-round p50" % (delays[0] if delays else "?",
                                       delays[-1] if delays else "?"),
             p50=quantile(lj, 0.5), p99=quantile(lj, 0.99),
             max_jiffies=lj[-1] if lj else None,
             early=sum(1 for x in lj if x < 0), samples=len(lj),
             over_requested_ms_p50=quantile(lns, 0.5) / 1e6 if lns else None,
             over_requested_ms_p99=quantile(lns, 0.99) / 1e6 if lns else None)
    if not lns:
        return []
    return [("queue to routine start, minus the delay asked for", [x / 1e6 for x in lns])]


def conversion(figs, rows):
    """Wall seconds of convert on drivers/legacy; files per second of the
    whole generated tree and of its candidates, --in-place with --jobs 1
    and 2, and the peak resident memory of any one spatch process."""
    def gone(variant):
        p = problems(rows, "conversion", variant)
        return p[0] if p and not good(rows, "conversion", variant) else None

    rs = good(rows, "conversion", "drivers-legacy")
    why = gone("drivers-legacy")
    what = "semantic-patches/convert -o OUT --jobs 2 drivers/legacy (wall clock)"
    if why:
        figs.missing("convert_drivers_legacy", "s", what, why)
    else:
        figs.add("convert_drivers_legacy", "s", [r["seconds"] for r in rs], what,
                 files=rs[0]["files"] if rs else None,
                 peak_mb=max(r["peak_kb"] for r in rs) / 1024 if rs else None,
                 summary=rs[-1]["summary"] if rs else None)
    rate = {}
    for jobs in (1, 2):
        v = "generated-jobs%d" % jobs
        rs = good(rows, "conversion", v)
        why = gone(v)
        what = ("files per second of a generated tree (legacy drivers with tq_struct, "
                "INIT_TQUEUE, static and manual initialisers, schedule_task, "
                "flush_scheduled_tasks, among drivers without the task queue), "
                "convert --in-place --jobs %d" % jobs)
        if why:
            figs.missing("convert_generated_jobs%d" % jobs, "files/s", what, why)
            continue
        vals = [r["files"] / r["seconds"] for r in rs if r["seconds"] > 0]
        rate[jobs] = statistics.median(vals) if vals else None
        secs = median(rs, "seconds")
        cands = rs[0]["candidates"] if rs else None
        extra = {"files": rs[0]["files"] if rs else None, "candidates": cands,
                 "seconds": secs,
                 "candidates_per_s": cands / secs if cands and secs else None,
                 "peak_mb": max(r["peak_kb"] for r in rs) / 1024 if rs else None,
                 "summary": rs[-1]["summary"] if rs else None}
        if jobs == 2:
            extra["speedup_over_jobs1"] = ratio(rate.get(2), rate.get(1))
        figs.add("convert_generated_jobs%d" % jobs, "files/s", vals, what, **extra)
    # --rename beside the default, round by round: the ratio of their
    # wall clocks and of their spatch CPU seconds
    rs = good(rows, "conversion", "generated-rename-jobs2")
    why = gone("generated-rename-jobs2")
    what = ("files per second of the same generated tree, convert --in-place --rename "
            "--jobs 2, run right after the default in each round")
    if why:
        figs.missing("convert_generated_rename_jobs2", "files/s", what, why)
        return
    base = {r["round"]: r for r in good(rows, "conversion", "generated-jobs2")}
    wall = [r["seconds"] / base[r["round"]]["seconds"] for r in rs
            if r["round"] in base and base[r["round"]]["seconds"] > 0]
    cpu = [r["spatch_cpu"] / base[r["round"]]["spatch_cpu"] for r in rs
           if r["round"] in base and r.get("spatch_cpu") and base[r["round"]].get("spatch_cpu")]
    secs = median(rs, "seconds")
    cands = rs[0]["candidates"] if rs else None
    figs.add("convert_generated_rename_jobs2", "files/s",
             [r["files"] / r["seconds"] for r in rs if r["seconds"] > 0], what,
             files=rs[0]["files"] if rs else None, candidates=cands, seconds=secs,
             candidates_per_s=cands / secs if cands and secs else None,
             peak_mb=max(r["peak_kb"] for r in rs) / 1024 if rs else None,
             summary=rs[-1]["summary"] if rs else None,
             over_default=statistics.median(wall) if wall else None,
             cpu_over_default=statistics.median(cpu) if cpu else None)


def memory(figs, rows):
    wq = good(rows, "memory", "workqueue")
    tq = good(rows, "memory", "taskqueue")
    w = wq[0] if wq else None
    t = tq[0] if tq else None
    why = "; ".join(problems(rows, "memory")) or "no result"
    if w:
        figs.add("sizeof_work_t", "bytes", [w["sizeof_work"]],
                 "sizeof(work_t): list entry, pending, routine, data, wq_data, "
                 "and the timer for queue_delayed_work()")
        figs.add("workqueue_bytes", "bytes",
                 [w["kmalloc_bytes_per_queue"] + w["task_bytes_per_thread"] * w["online_cpus"]],
                 "heap bytes one create_workqueue() allocates, counted exactly "
                 "(kmalloc payload through a --wrap of shim_kmalloc, plus the "
                 "shim's task_struct per worker thread); the thread stacks "
                 "are counted below",
                 kmalloc_bytes=w["kmalloc_bytes_per_queue"],
                 kmalloc_calls=w["kmalloc_calls_per_queue"],
                 task_struct_bytes_per_thread=w["task_bytes_per_thread"],
                 threads_per_queue=w["online_cpus"])
        figs.add("worker_thread_stack", "bytes", [w["thread_stack_bytes"]],
                 "stack reserved (virtual) per worker thread, from "
                 "pthread_getattr_np() in a routine on the worker",
                 guard_bytes=w["thread_guard_bytes"],
                 keventd_stack_bytes=t["thread_stack_bytes"] if t else None)
        figs.add("worker_thread_rss", "kB", [w["rss_kb_per_thread"]],
                 "resident memory per worker thread: VmRSS growth over "
                 "creating %d queues, divided by their %d threads" % (
                     w["queues"], w["queues"] * w["online_cpus"]))
    else:
        for name, unit in (("sizeof_work_t", "bytes"), ("workqueue_bytes", "bytes"),
                           ("worker_thread_stack", "bytes"), ("worker_thread_rss", "kB")):
            figs.missing(name, unit, "memory of the workqueue (memory-workqueue)", why)
    if t:
        figs.add("sizeof_tq_struct", "bytes", [t["sizeof_work"]],
                 "sizeof(struct tq_struct): list, sync, routine, data")
        figs.add("task_queue_bytes", "bytes", [t["sizeof_task_queue"]],
                 "a task queue of the taskqueue stack is a bare list head; every "
                 "schedule_task() user shares the one keventd thread")
    else:
        for name in ("sizeof_tq_struct", "task_queue_bytes"):
            figs.missing(name, "bytes", "memory of the taskqueue (memory-taskqueue)", why)


CONTROLLED_SIDES = (("legacy", "taskqueue"), ("converted", "workqueue"))
CONTROLLED_MODES = (
    ("pct", "under controlled schedules (SHIM_SCHED=pct:SEED:3:STEPS), as explored"),
    ("free", "the same runs free (no SHIM_SCHED): host threads, no scheduler"),
    ("start", "BINARY --list: process start-up and the shim's boot, no scenario"),
)


def per_scenario(rs):
    """[name, ms a run (median over rounds), points] per scenario, slowest first."""
    ms, points = {}, {}
    for r in rs:
        for name, t, p in r.get("per_scenario") or []:
            ms.setdefault(name, []).append(t)
            points.setdefault(name, p)
    out = [[n, round(statistics.median(t), 2), points[n]] for n, t in ms.items()]
    return sorted(out, key=lambda x: -x[1])


def controlled(figs, rows):
    """Controlled scheduling: a scheduling point against a futex hand-off, and
    whole scenario runs per second."""
    rs = good(rows, "sched_point", "workqueue")
    why = "; ".join(problems(rows, "sched_point")) or "no result"
    if rs:
        figs.add("sched_point", "ns/point", [r["ns_per_point"] for r in rs],
                 "one scheduling point of a controlled run with a switch: two kernel "
                 "threads yield() to each other under SHIM_SCHED=pct:1, fibers on one "
                 "host thread; median over batches alternated with the hand-off's",
                 futex_handoff_ns=median(rs, "ns_per_handoff"),
                 ratio_to_futex=median(rs, "ratio_point_to_handoff"))
        figs.add("sched_futex_handoff", "ns/hand-off", [r["ns_per_handoff"] for r in rs],
                 "a bare futex hand-off: two pthreads, no shim, pass a turn back and "
                 "forth through one futex word, each asleep in FUTEX_WAIT until woken; "
                 "same processes as sched_point")
    else:
        figs.missing("sched_point", "ns/point", "a scheduling point of a controlled run", why)
    for side, stack in CONTROLLED_SIDES:
        by_mode = {m: good(rows, "scenario_runs", "%s-%s" % (side, m))
                   for m, _ in CONTROLLED_MODES}
        for m, what in CONTROLLED_MODES:
            rs = by_mode[m]
            name = "scenario_runs_%s_%s" % (side, m)
            if not rs:
                figs.missing(name, "runs/s", "%s tty scenarios, %s" % (side, what),
                             "; ".join(problems(rows, "scenario_runs", "%s-%s" % (side, m)))
                             or "no result")
                continue
            extra = {}
            if m == "pct":
                extra["ratio_to_free"] = median(
                    [{"r": x} for x in paired_ratios(rs, by_mode["free"], "runs_per_s")], "r")
                extra["ratio_to_start"] = median(
                    [{"r": x} for x in paired_ratios(rs, by_mode["start"], "runs_per_s")], "r")
                extra["points_per_run"] = median(rs, "points_per_run")
            if m != "start":
                extra["per_scenario"] = per_scenario(rs)
            figs.add(name, "runs/s", [r["runs_per_s"] for r in rs],
                     "%s side (%s) %s scenarios, %s; %d runs a round, %d at a time, "
                     "one process each" % (side, stack, rs[0]["driver"], what, rs[0]["runs"],
                                           rs[0]["jobs"]),
                     side=side, mode=m, scenarios=rs[0]["scenarios"], jobs=rs[0]["jobs"],
                     failed_runs=sum(r["failed_runs"] for r in rs), **extra)


def schedules(figs, rows):
    """Controlled schedules per second over the demo's scenarios at their
    exploration size: in one process (a batch) and one process each, side
    by side in each round (bench/schedules)."""
    rs = good(rows, "schedules", "all")
    what = ("controlled schedules (pct) per second, median over every scenario of both "
            "sides at exploration size (SHIM_SCENARIO_SIZE=explore), one CPU")
    if not rs:
        why = "; ".join(problems(rows, "schedules")) or "no result"
        figs.missing("schedules_in_one", "schedules/s", what + ", in one process", why)
        return
    # each scenario's figures, median over the rounds, slowest in one process first
    per = {}
    for r in rs:
        for label, one, each, rat in r.get("per_scenario") or []:
            per.setdefault(label, []).append((one, each, rat))
    per_scenario = sorted(([label, round(statistics.median(x[0] for x in v), 1),
                            round(statistics.median(x[1] for x in v), 1),
                            round(statistics.median(x[2] for x in v), 2)]
                           for label, v in per.items()), key=lambda x: x[1])
    figs.add("schedules_in_one", "schedules/s", [r["median_in_one"] for r in rs],
             what + ", %d in one process (SHIM_SCHED_BATCH: a reset to a checkpoint "
             "taken before the boot), as the demo explores" % rs[0]["batch"],
             scenarios=rs[0]["scenarios"], failed_schedules=sum(r["failed_schedules"] for r in rs),
             ratio_to_one_each=median(rs, "median_ratio"), per_scenario=per_scenario)
    figs.add("schedules_one_each", "schedules/s", [r["median_one_each"] for r in rs],
             what + ", %d one process each, run alternately with the batch" % rs[0]["each"])


def real_runs(figs, rows):
    """Runs per CPU second of a 2.4 driver as make demo SRC= makes them:
    its device search and its exploration, median over the project's own
    2.4-style drivers (bench/real-runs)."""
    rs = good(rows, "real_runs", "tty24")
    what = ("median over the 2.4-style drivers of examples/tty24, per CPU second of the "
            "runs' own processes")
    if not rs:
        why = "; ".join(problems(rows, "real_runs")) or "no result"
        figs.missing("search_runs", "runs/CPU s", "device search runs, " + what, why)
        figs.missing("explore_runs", "schedules/CPU s", "explored schedules, " + what, why)
        return
    per = {}
    for r in rs:
        for name, search, expl in r.get("per_driver") or []:
            per.setdefault(name, []).append((search, expl))
    per_driver = sorted([name, round(statistics.median(x[0] for x in v), 1),
                         round(statistics.median(x[1] for x in v), 1)]
                        for name, v in per.items())
    figs.add("search_runs", "runs/CPU s", [r["median_search"] for r in rs],
             "device search runs (a fresh search, %d runs, in batches on the search "
             "binary), %s" % (rs[0]["runs"], what), drivers=len(per_driver),
             per_driver=per_driver)
    figs.add("explore_runs", "schedules/CPU s", [r["median_explore"] for r in rs],
             "explored schedules (pct, at exploration size, in batches, %d a driver), %s"
             % (rs[0]["schedules"], what), drivers=len(per_driver))


def all_figures(figs, rows, raw):
    """Every benchmark's figures; returns the CDF series by plot name."""
    memory(figs, rows)
    throughput(figs, rows)
    enqueue(figs, rows)
    cdfs = {"wake": wake(figs, rows, raw), "isolation": isolation(figs, rows, raw)}
    flush(figs, rows)
    cdfs["delayed"] = delayed(figs, rows, raw)
    conversion(figs, rows)
    controlled(figs, rows)
    schedules(figs, rows)
    real_runs(figs, rows)
    return cdfs
